/**
 * The service spread over processes (issue 16), as docs/operating/deployment.md runs it: one `api`
 * process and 1, 2 and 4 `worker` processes on one PostgreSQL database (a throwaway cluster
 * of Debian's server, as the tests start it), sharing one files directory.
 *
 * Runs per minute: each worker works one run at a time (WORKER_CONCURRENCY=1), so the
 * processes are what scales. The `llm` strategy talks to a stand-in provider that answers
 * each chunk after 200 ms, as a real model's latency dominates a real run; this machine's
 * cores are few, and a stand-in that answered at once would measure how the processes share
 * them, not how the work spreads. Every configuration works the same number of runs per
 * worker, each over a document of its own, on a database of its own.
 *
 * Reads: requests per second of `GET /api/extraction_runs/{id}` (as the `http` benchmark
 * reads it) from the real service on PostgreSQL beside the same on SQLite, in turns.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../server/store/database.js';
import { answer, startChatCompletionsServer } from '../server/testing/chat-completions-server.js';
import { createTestDatabase, startPostgresServer } from '../server/testing/postgres-server.js';
import { callServer, startRealServer, type RealServer } from '../server/testing/real-server.js';
import type { BenchOptions, BenchResult } from './main.js';
import { describe, emptyMeasurement, load, seedRun, token } from './http.js';
import { cpuSeconds, format, interfaceBuild } from './processes.js';

const workerCounts = [1, 2, 4] as const;
const chunkLatencyMs = 200;
const chunksPerRun = 5;
const runsPerWorker = 8;
const readSeconds = 10;
const readRounds = 5;

/** `chunksPerRun` lines of about 180 characters: one chunk each at a chunk size of 200. */
function documentText(index: number): string {
  return Array.from(
    { length: chunksPerRun },
    (_, line) => `Document ${index}, line ${line + 1}: ${'words '.repeat(27)}`,
  ).join('\n');
}

interface Place {
  dataDir: string;
  dispose(): void;
}

function place(prefix: string): Place {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  return { dataDir, dispose: () => rmSync(dataDir, { recursive: true, force: true }) };
}

/** A request to a process's API with the benchmarks' token. */
function call<T>(server: RealServer, method: string, path: string, body?: unknown): Promise<T> {
  return callServer<T>(server, token, method, path, body);
}

/** Waits until every run in `ids` is final; throws unless all completed. */
async function allCompleted(store: Store, ids: string[]): Promise<void> {
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    const rows = await store.db
      .selectFrom('runs')
      .select(['status', 'error'])
      .where('id', 'in', ids)
      .execute();
    const open = rows.filter((row) => row.status === 'queued' || row.status === 'running');
    if (open.length === 0) {
      const failed = rows.filter((row) => row.status !== 'completed');
      if (failed.length > 0)
        throw new Error(`${failed.length} runs did not complete: ${failed[0]!.error}`);
      return;
    }
    if (Date.now() > deadline) throw new Error(`${open.length} runs still open after 10 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Runs per minute of `workers` worker processes, on a database of their own. */
async function runsPerMinute(
  adminUrl: string,
  llmBaseUrl: string,
  distDir: string,
  workers: number,
): Promise<{ perMinute: number; runs: number; seconds: number }> {
  const database = await createTestDatabase(adminUrl);
  const places: Place[] = [];
  const servers: RealServer[] = [];
  let store: Store | undefined;
  try {
    // Each process has a data directory of its own; the files directory is shared.
    const files = place('extractor-bench-scale-files-');
    places.push(files);
    const start = async (role: 'api' | 'worker') => {
      const at = place(`extractor-bench-scale-${role}-`);
      places.push(at);
      const server = await startRealServer({
        dataDir: at.dataDir,
        env: {
          DATABASE_URL: database.url,
          FILES_URL: files.dataDir,
          SERVICE_ROLE: role,
          WORKER_CONCURRENCY: role === 'worker' ? '1' : '0',
          DIST_DIR: distDir,
          EXTRACTOR_ADMIN_TOKEN: token,
          LLM_BASE_URL: llmBaseUrl,
          LLM_API_KEY: 'sk-bench',
          LOG_LEVEL: 'warn',
        },
      });
      servers.push(server);
      return server;
    };
    const api = await start('api');
    await Promise.all(Array.from({ length: workers }, () => start('worker')));
    store = await openStore({ dataDir: files.dataDir, databaseUrl: database.url });

    const extractor = await call<{ id: string }>(api, 'POST', '/api/extractors', {
      label: 'Scale',
      jsonSchema: JSON.stringify({
        type: 'object',
        properties: { invoice_number: { type: ['string', 'null'] } },
      }),
      strategy: 'llm',
      model: 'gpt-4o-mini',
    });
    const buckets = async (count: number, offset: number) =>
      Promise.all(
        Array.from({ length: count }, async (_, index) => {
          const bucket = await call<{ id: string }>(api, 'POST', '/api/buckets', {});
          const form = new FormData();
          form.append('file', new Blob([documentText(offset + index)]), 'document.txt');
          await call(api, 'POST', `/api/buckets/${bucket.id}/files`, form);
          return bucket.id;
        }),
      );
    const startRuns = (bucketIds: string[]) =>
      Promise.all(
        bucketIds.map(
          async (bucket) =>
            (
              await call<{ id: string }>(api, 'POST', '/api/extraction_runs', {
                bucket,
                savedExtractor: extractor.id,
                chunkSize: 200,
              })
            ).id,
        ),
      );

    // A run per worker first, so that each has started its document worker process.
    await allCompleted(store, await startRuns(await buckets(workers, 0)));
    const measured = await buckets(workers * runsPerWorker, workers);
    const started = performance.now();
    await allCompleted(store, await startRuns(measured));
    const seconds = (performance.now() - started) / 1000;
    const chunks = await store.db
      .selectFrom('runs')
      .select((eb) => eb.fn.sum<number>('chunks_completed').as('chunks'))
      .executeTakeFirstOrThrow();
    if (Number(chunks.chunks) !== (workers + measured.length) * chunksPerRun)
      throw new Error(`expected ${chunksPerRun} chunks per run, counted ${chunks.chunks}`);
    return { perMinute: (measured.length / seconds) * 60, runs: measured.length, seconds };
  } finally {
    await store?.close();
    await Promise.all(servers.map((server) => server.stop()));
    for (const at of places) at.dispose();
    await database.drop();
  }
}

/** Reads per second of the same seeded run from the service on SQLite and on PostgreSQL. */
async function readRatio(adminUrl: string, distDir: string): Promise<string[]> {
  const database = await createTestDatabase(adminUrl);
  const sqlite = place('extractor-bench-scale-sqlite-');
  const postgres = place('extractor-bench-scale-postgres-');
  const servers: RealServer[] = [];
  try {
    const stores = [
      { label: 'SQLite', at: sqlite, databaseUrl: '' },
      { label: 'PostgreSQL', at: postgres, databaseUrl: database.url },
    ];
    const targets = [];
    for (const { label, at, databaseUrl } of stores) {
      const runId = await seedRun(at.dataDir, databaseUrl || undefined);
      const server = await startRealServer({
        dataDir: at.dataDir,
        env: {
          DATABASE_URL: databaseUrl,
          DIST_DIR: distDir,
          EXTRACTOR_ADMIN_TOKEN: token,
          WORKER_CONCURRENCY: '0',
          LOG_LEVEL: 'warn',
        },
      });
      servers.push(server);
      targets.push({
        label,
        pid: server.pid,
        url: `${server.baseUrl}/api/extraction_runs/${runId}`,
        measured: emptyMeasurement(),
      });
    }
    for (const target of targets) await load(target.url, 3, emptyMeasurement());
    // In turns, so whatever else the machine does weighs on both alike.
    for (let round = 0; round < readRounds; round++)
      for (let index = 0; index < targets.length; index++) {
        const target = targets[(round + index) % targets.length]!;
        const cpuBefore = cpuSeconds(target.pid);
        await load(target.url, readSeconds / readRounds, target.measured);
        target.measured.cpu += cpuSeconds(target.pid) - cpuBefore;
      }
    const failures = targets.reduce((sum, target) => sum + target.measured.failures, 0);
    if (failures > 0) throw new Error(`${failures} reads failed`);
    const [onSqlite, onPostgres] = targets.map((target) =>
      describe(`reads ${target.label}`, target.measured),
    );
    return [
      onSqlite!.line,
      onPostgres!.line,
      `read ratio       PostgreSQL ${format.number(onPostgres!.perSecond / onSqlite!.perSecond, 2)} of SQLite`,
    ];
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    sqlite.dispose();
    postgres.dispose();
    await database.drop();
  }
}

export async function bench(options: BenchOptions): Promise<BenchResult> {
  const only = options.part;
  const distDir = await interfaceBuild();
  const postgres = await startPostgresServer();
  const stand = await startChatCompletionsServer();
  stand.fallback = (response, request) =>
    setTimeout(() => answer({ invoice_number: null })(response, request), chunkLatencyMs);
  try {
    const lines: string[] = [];
    if (only !== 'reads') {
      const measured = [];
      for (const workers of workerCounts) {
        const result = await runsPerMinute(postgres.adminUrl, stand.baseUrl, distDir, workers);
        measured.push(result);
        lines.push(
          `${`${workers} worker${workers === 1 ? '' : 's'}`.padEnd(16)} ` +
            `${format.number(result.perMinute).padStart(5)} runs/min   ` +
            `(${result.runs} runs in ${format.number(result.seconds, 1)} s, ` +
            `${format.number(result.perMinute / measured[0]!.perMinute, 2)}x of 1 worker)`,
        );
      }
      const speedUp = measured.at(-1)!.perMinute / measured[0]!.perMinute;
      lines.push(
        `1 → 4 workers    ${format.number(speedUp, 2)}x (goal ≥ 3: ${format.verdict(speedUp >= 3)})`,
      );
    }
    if (only !== 'runs') lines.push(...(await readRatio(postgres.adminUrl, distDir)));
    return {
      name:
        `Processes on PostgreSQL: ${chunksPerRun}-chunk llm runs, ${chunkLatencyMs} ms per chunk ` +
        `(stand-in provider), ${runsPerWorker} runs per worker process; reads as in http`,
      lines,
    };
  } finally {
    await stand.close();
    await postgres.stop();
  }
}
