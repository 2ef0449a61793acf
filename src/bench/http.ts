/**
 * Requests per second of `GET /api/extraction_runs/{id}` with a valid token, 64
 * connections for 10 s, against the real server (its own process, logging one line per
 * request at the production level to a file) and against a bare node:http server that
 * answers the same bytes with the same headers. The goal is a ratio of at least 0.55.
 * autocannon runs here, in a third process, so neither server shares its event loop.
 *
 * A third server calibrates the ratio: the same bare server, kept busy for
 * `calibrationMicroseconds` of CPU before each answer. On a small machine, where
 * autocannon needs a core of its own, a few microseconds of work per request cost far
 * more throughput than their share of the baseline's time suggests, and this line shows
 * how much, in the same run.
 */
import autocannon from 'autocannon';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBucket } from '../server/buckets/buckets.js';
import { loadConfig } from '../server/config.js';
import { demoExtractor } from '../server/extractors/demo.js';
import { createExtractor } from '../server/extractors/extractors.js';
import { newDocumentRows, runColumnsOf, type RunDocumentRow } from '../server/runs/documents.js';
import { openStore } from '../server/store/database.js';
import { newId } from '../server/store/ids.js';
import { startRealServer } from '../server/testing/real-server.js';
import type { RecordedAnswer } from './bare-server.js';
import { cpuSeconds, format, interfaceBuild, startBareServer } from './processes.js';

/** The admin token of the benchmarks' services (EXTRACTOR_ADMIN_TOKEN). */
export const token = 'xpat_bench-token-0123456789abcdefghijklmnop';
const connections = 64;
const seconds = 10;
const warmUpSeconds = 3;
const rounds = 5;
const calibrationMicroseconds = 15;
/** Issue #10's: the service answers at least this share of what bare node:http does. */
const goal = 0.55;

/**
 * A completed run as the worker leaves it: results, token counts, where values were found;
 * in the SQLite store under `dataDir`, or in the PostgreSQL database at `databaseUrl`.
 */
export async function seedRun(dataDir: string, databaseUrl?: string): Promise<string> {
  const store = await openStore({ dataDir, databaseUrl });
  try {
    const config = loadConfig({ DATA_DIR: dataDir });
    const bucket = await createBucket(store.db, { description: 'Benchmark' }, 'api');
    const { row: extractor } = await createExtractor(store.db, demoExtractor, config);
    const result = {
      invoice_number: 'INV-2024-0042',
      date: '2024-03-01',
      total: 1234.56,
      currency: 'EUR',
      vendor: 'ACME Office Supplies GmbH',
      line_items: Array.from({ length: 6 }, (_, index) => ({
        description: `Item ${index + 1}: paper, toner and staples`,
        quantity: index + 1,
        unit_price: 12.5,
        amount: 12.5 * (index + 1),
      })),
    };
    const id = newId();
    const now = new Date().toISOString();
    // One completed document, as the worker leaves a run over a one-file bucket.
    const [fresh] = newDocumentRows(id, [{ id: newId(), name: 'invoice.pdf' }], false, now);
    const document: RunDocumentRow = {
      ...fresh!,
      status: 'completed',
      result_json: JSON.stringify(result),
      result_metadata: JSON.stringify({ sources: {}, violations: [] }),
      token_stats: JSON.stringify({
        chunks: [{ chunk: 0, inputTokens: 1843, outputTokens: 212 }],
        totalInputTokens: 1843,
        totalOutputTokens: 212,
      }),
      total_input_tokens: 1843,
      total_output_tokens: 212,
      chunks_completed: 1,
      chunks_total: 1,
      started_at: now,
      finished_at: now,
    };
    await store.db
      .insertInto('runs')
      .values({
        id,
        bucket_id: bucket.id,
        extractor_id: extractor.id,
        status: 'completed',
        strategy: 'local',
        model: 'local',
        target_schema: extractor.json_schema,
        output_instructions: extractor.output_instructions,
        include_text: 1,
        include_embedded_images: 0,
        mark_embedded_images: 0,
        include_page_images: 0,
        mark_page_images: 0,
        chunk_size: 4000,
        file_ids: JSON.stringify([document.file_id]),
        combine_files: 0,
        ...runColumnsOf(bucket.id, [document]),
        error: null,
        evaluation_type: 'json-schema',
        created_at: now,
        updated_at: now,
        started_at: now,
        finished_at: now,
        submitted_at: null,
        lease_owner: null,
        lease_expires_at: null,
      })
      .execute();
    await store.db.insertInto('run_documents').values(document).execute();
    return id;
  } finally {
    await store.close();
  }
}

export interface Measurement {
  answers: number;
  seconds: number;
  /** CPU time the server used while it was measured, in seconds. */
  cpu: number;
  /** Every response time, in milliseconds, so percentiles span all rounds exactly. */
  latencies: number[];
  failures: number;
}

export const emptyMeasurement = (): Measurement => ({
  answers: 0,
  seconds: 0,
  cpu: 0,
  latencies: [],
  failures: 0,
});

/** `duration` seconds of reads of `url` with the benchmarks' token, counted into `into`. */
export function load(url: string, duration: number, into: Measurement): Promise<void> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url, connections, duration, headers: { authorization: `Bearer ${token}` } },
      (error, result) => {
        if (error) return reject(error);
        into.seconds += duration;
        into.failures += result.non2xx + result.errors + result.timeouts;
        resolve();
      },
    );
    instance.on(
      'response',
      (_client: unknown, status: number, _bytes: number, milliseconds: number) => {
        into.answers++;
        if (status === 200) into.latencies.push(milliseconds);
      },
    );
  });
}

export function percentile(sorted: Float64Array, fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? NaN;
}

export interface Described {
  perSecond: number;
  line: string;
}

export function describe(label: string, measurement: Measurement): Described {
  const perSecond = measurement.answers / measurement.seconds;
  const sorted = Float64Array.from(measurement.latencies).sort();
  const cpuPerAnswer = (measurement.cpu / measurement.answers) * 1e6;
  return {
    perSecond,
    line:
      `${label.padEnd(16)} ${format.number(perSecond).padStart(7)} req/s   ` +
      `p50 ${format.number(percentile(sorted, 0.5), 1)} ms   p99 ${format.number(percentile(sorted, 0.99), 1)} ms   ` +
      `server CPU ${format.number(cpuPerAnswer)} µs/req`,
  };
}

export async function bench(): Promise<{ name: string; lines: string[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'extractor-bench-http-'));
  const log = openSync(join(dataDir, 'server.log'), 'w');
  try {
    const runId = await seedRun(dataDir);
    const path = `/api/extraction_runs/${runId}`;
    const server = await startRealServer({
      dataDir,
      env: { DIST_DIR: await interfaceBuild(), EXTRACTOR_ADMIN_TOKEN: token },
      stdio: log,
      // BENCH_CPU_PROF=DIR writes the server's CPU profile there (open it in Chrome DevTools).
      nodeArgs: process.env.BENCH_CPU_PROF
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
        : [],
    });
    try {
      const sample = await fetch(`${server.baseUrl}${path}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      if (sample.status !== 200)
        throw new Error(`${path} answered ${sample.status}: ${await sample.text()}`);
      const answer: RecordedAnswer = {
        status: 200,
        headers: Object.fromEntries(
          [...sample.headers].filter(
            ([name]) =>
              !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(
                name,
              ),
          ),
        ),
        body: await sample.text(),
      };
      const answerFile = join(dataDir, 'answer.json');
      writeFileSync(answerFile, JSON.stringify(answer));
      const bareServer = await startBareServer('answer', answerFile);
      const busyServer = await startBareServer(
        'answer',
        answerFile,
        String(calibrationMicroseconds),
      );
      try {
        const targets = [
          { label: 'service', pid: server.pid, url: `${server.baseUrl}${path}` },
          { label: 'bare node:http', pid: bareServer.pid, url: `${bareServer.baseUrl}${path}` },
          {
            label: `bare + ${calibrationMicroseconds} µs`,
            pid: busyServer.pid,
            url: `${busyServer.baseUrl}${path}`,
          },
        ].map((target) => ({ ...target, measured: emptyMeasurement() }));
        for (const target of targets) await load(target.url, warmUpSeconds, emptyMeasurement());
        // Short rounds in turning order, so whatever else the machine does at the time
        // weighs on all alike.
        for (let round = 0; round < rounds; round++) {
          for (let index = 0; index < targets.length; index++) {
            const target = targets[(round + index) % targets.length]!;
            const cpuBefore = cpuSeconds(target.pid);
            await load(target.url, seconds / rounds, target.measured);
            target.measured.cpu += cpuSeconds(target.pid) - cpuBefore;
          }
        }
        const [service, bare, busy] = targets.map((target) =>
          describe(target.label, target.measured),
        ) as [Described, Described, Described];
        if (targets[0]!.measured.failures > 0)
          throw new Error(`The service failed ${targets[0]!.measured.failures} requests.`);
        const ratio = service.perSecond / bare.perSecond;
        const busyRatio = busy.perSecond / bare.perSecond;
        return {
          name: `GET /api/extraction_runs/{id}: ${connections} connections, ${seconds} s each in ${rounds} rounds, ${answer.body.length} bytes per answer`,
          lines: [
            service.line,
            bare.line,
            busy.line,
            `ratio            ${format.number(ratio, 2)} (goal ≥ ${goal}: ${format.verdict(ratio >= goal)})`,
            `calibration      bare + ${calibrationMicroseconds} µs of work per request: ${format.number(busyRatio, 2)} of bare`,
          ],
        };
      } finally {
        await Promise.all([bareServer.stop(), busyServer.stop()]);
      }
    } finally {
      await server.stop();
    }
  } finally {
    closeSync(log);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
