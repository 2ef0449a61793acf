/** The processes a benchmark measures: the bare baselines, and what /proc says about them. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface BareServer {
  child: ChildProcess;
  pid: number;
  baseUrl: string;
  stop(): Promise<void>;
}

/** Starts `bare-server.ts` in a process of its own and waits for the port it prints. */
export function startBareServer(mode: 'answer' | 'store', target: string): Promise<BareServer> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'bare-server.ts'), mode, target],
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

/** The peak resident set size of a live process in MB (VmHWM in /proc/<pid>/status). */
export function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kilobytes = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN);
  return kilobytes / 1024;
}

export const format = {
  number: (value: number, digits = 0) =>
    value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }),
  verdict: (met: boolean) => (met ? 'goal met' : 'GOAL MISSED'),
};
