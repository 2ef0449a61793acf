/** The processes a benchmark measures: the bare baselines, and what /proc says about them. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, ensureBuilt } from '../tools/build/build.js';

export interface BareServer {
  child: ChildProcess;
  pid: number;
  baseUrl: string;
  stop(): Promise<void>;
}

/** Starts `bare-server.ts` in a process of its own and waits for the port it prints. */
export function startBareServer(
  mode: 'answer' | 'store',
  target: string,
  ...extra: string[]
): Promise<BareServer> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'bare-server.ts'), mode, target, ...extra],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bare-server.ts exited with ${code}`)));
    child.stdout!.once('data', (chunk: Buffer) => {
      resolve({
        child,
        pid: child.pid!,
        baseUrl: `http://127.0.0.1:${chunk.toString().trim()}`,
        async stop() {
          if (child.exitCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    });
  });
}

let builtInterface: Promise<string> | undefined;

/**
 * A fresh build of the interface in a temporary directory, made once per `npm run bench`
 * and passed to every real server as DIST_DIR. Without it a server started on a checkout
 * whose dist/ is older than its sources would rebuild it in its own process (as `npm start`
 * does), and its memory and first seconds would measure Vite, not the service. Sources
 * edited while the benchmarks run make it stale; it is then rebuilt here, before the next
 * server starts, for the same reason.
 */
export async function interfaceBuild(): Promise<string> {
  if (!builtInterface) {
    builtInterface = (async () => {
      const distDir = mkdtempSync(join(tmpdir(), 'extractor-bench-dist-'));
      process.once('exit', () => rmSync(distDir, { recursive: true, force: true }));
      await build({ distDir });
      return distDir;
    })();
    return builtInterface;
  }
  const distDir = await builtInterface;
  await ensureBuilt(distDir);
  return distDir;
}

/** The peak resident set size of a live process in MB (VmHWM in /proc/<pid>/status). */
export function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kilobytes = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN);
  return kilobytes / 1024;
}

/** CPU time a live process has used so far, user and system, in seconds (/proc/<pid>/stat). */
export function cpuSeconds(pid: number): number {
  // The fields after the command name, which is in parentheses and may hold spaces.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of the whole line, in clock ticks (100 per second
  // on Linux); the slice starts at field 3.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export const format = {
  number: (value: number, digits = 0) =>
    value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }),
  verdict: (met: boolean) => (met ? 'goal met' : 'GOAL MISSED'),
};
