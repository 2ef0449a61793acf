/**
 * The real server as `npm start` runs it, in a child process on a port of its own: for
 * tests that kill it, for the token CLI test and for the benchmarks, which must not share
 * an event loop with the load they generate.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { buildServer } from '../../tools/build/build-server.js';

export const projectRoot = join(import.meta.dirname, '../../..');

/** A port nobody listens on right now (the server asks for it a moment later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

export interface RealServer {
  child: ChildProcess;
  pid: number;
  port: number;
  baseUrl: string;
  /** Everything the process printed so far. */
  output(): string;
  /** Resolves when the process has exited. */
  exited: Promise<number | null>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

export interface RealServerOptions {
  dataDir: string;
  env?: Record<string, string>;
  /** Where the process's output goes: kept in memory (default), or to a file descriptor. */
  stdio?: 'pipe' | number;
  /** Flags for node itself, to profile the server (`--cpu-prof`, `--trace-gc`). */
  nodeArgs?: string[];
  timeoutMs?: number;
}

/** Runs the server's bundle with node, as `npm start` does, and waits until it listens. */
export async function startRealServer(options: RealServerOptions): Promise<RealServer> {
  const port = await freePort();
  const bundle = await buildServer();
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), bundle], {
    cwd: projectRoot,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: options.dataDir,
      WORKER_CONCURRENCY: '0',
      ...options.env,
    },
    stdio: ['ignore', options.stdio ?? 'pipe', options.stdio ?? 'pipe'],
  });
  let printed = '';
  child.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The server exited before it listened:\n${printed}`);
    }
    try {
      await fetch(`${baseUrl}/healthz`);
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`The server did not listen within the time allowed:\n${printed}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    child,
    pid: child.pid!,
    port,
    baseUrl,
    output: () => printed,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * A request to a real server with a bearer token, as a partner's server makes it: a JSON
 * body or a form. The answer as it came, whatever its status.
 */
export function requestServer(
  server: { baseUrl: string },
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> {
  const form = body instanceof FormData;
  return fetch(`${server.baseUrl}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      Accept: 'application/json',
      ...(body === undefined || form ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined || form ? (body as FormData | undefined) : JSON.stringify(body),
  });
}

/** `requestServer`, for the answer's JSON: throws with the status and the answer unless it is 2xx. */
export async function callServer<T>(
  server: { baseUrl: string },
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await requestServer(server, token, method, path, body);
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}
