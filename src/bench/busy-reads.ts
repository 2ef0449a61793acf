/**
 * Latency of `GET /api/extraction_runs/{id}` while two heavy runs work — a 20 MB text file
 * (thousands of chunks of the `local` rules) and a 12-page image-only PDF (OCR of every
 * page) — beside the same with no run working, as a ratio. The documents are worked on in
 * the service's document worker processes; what this measures is whether the service's own
 * event loop stays free for the API meanwhile. Goal: p99 under 50 ms and within 3x idle.
 *
 * The reads come from autocannon in this process, paced at `readsPerSecond` over a few
 * connections (people watching their runs, not a load test: a saturating load would measure
 * throughput on a machine whose cores the documents share); the service runs as `npm start`
 * runs it.
 */
import autocannon from 'autocannon';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildPdf, renderTextImage } from '../server/engine/testing/build-documents.js';
import { callServer, startRealServer, type RealServer } from '../server/testing/real-server.js';
import { percentile, seedRun, token } from './http.js';
import type { BenchResult } from './main.js';
import { format, interfaceBuild } from './processes.js';

const connections = 4;
const readsPerSecond = 200;
const seconds = 10;
const textMegabytes = 20;
const scanPages = 12;

function readLatencies(
  url: string,
  duration: number,
): Promise<{ latencies: number[]; failures: number }> {
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        duration,
        overallRate: readsPerSecond,
        headers: { authorization: `Bearer ${token}` },
      },
      (error, result) => {
        if (error) return reject(error);
        resolve({ latencies, failures: result.non2xx + result.errors + result.timeouts });
      },
    );
    instance.on(
      'response',
      (_client: unknown, status: number, _bytes: number, milliseconds: number) => {
        if (status === 200) latencies.push(milliseconds);
      },
    );
  });
}

interface RunState {
  status: string;
  chunksCompleted: number;
  chunksTotal: number | null;
  error: string | null;
}

/** A request to the service's API with the benchmarks' token. */
function api<T>(server: RealServer, method: string, path: string, body?: unknown): Promise<T> {
  return callServer<T>(server, token, method, path, body);
}

async function startHeavyRun(server: RealServer, name: string, bytes: Uint8Array): Promise<string> {
  const extractors = await api<{ id: string; label: string }[]>(server, 'GET', '/api/extractors');
  const extractor = extractors.find((candidate) => candidate.label === 'Invoice')!.id;
  const bucket = await api<{ id: string }>(server, 'POST', '/api/buckets', {});
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const upload = await fetch(`${server.baseUrl}/api/buckets/${bucket.id}/files`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  if (upload.status !== 201) throw new Error(`uploading ${name} answered ${upload.status}`);
  const run = await api<{ id: string }>(server, 'POST', '/api/extraction_runs', {
    bucket: bucket.id,
    savedExtractor: extractor,
  });
  return run.id;
}

async function heavyDocuments(): Promise<{ text: Buffer; scan: Buffer }> {
  const line = 'Invoice number INV-2024-0042 dated 2024-03-01 total 1234.56 EUR for services\n';
  const text = Buffer.from(line.repeat(Math.ceil((textMegabytes * 1024 * 1024) / line.length)));
  const page = await renderTextImage(
    ['INVOICE', 'Invoice number: INV-2024-0042', 'Date: 2024-03-01', 'Total: 1,234.56 EUR'],
    { width: 1700, height: 2200, format: 'jpeg' },
  );
  const scan = buildPdf(
    Array.from({ length: scanPages }, () => ({ image: { jpeg: page, width: 1700, height: 2200 } })),
  );
  return { text, scan };
}

export async function bench(): Promise<BenchResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'extractor-bench-busy-'));
  const log = openSync(join(dataDir, 'server.log'), 'w');
  try {
    const runId = await seedRun(dataDir);
    const server = await startRealServer({
      dataDir,
      env: {
        DIST_DIR: await interfaceBuild(),
        EXTRACTOR_ADMIN_TOKEN: token,
        WORKER_CONCURRENCY: '2',
        DOCUMENT_MAX_CHARACTERS: String(50_000_000),
      },
      stdio: log,
    });
    try {
      const url = `${server.baseUrl}/api/extraction_runs/${runId}`;
      await readLatencies(url, 2); // warm-up
      const idle = await readLatencies(url, seconds);

      const documents = await heavyDocuments();
      const heavy = [
        await startHeavyRun(server, 'large.txt', documents.text),
        await startHeavyRun(server, 'scan.pdf', documents.scan),
      ];
      // Measured once both are at work: the text run reading or in its chunks, the scan in OCR.
      const runs = () =>
        Promise.all(heavy.map((id) => api<RunState>(server, 'GET', `/api/extraction_runs/${id}`)));
      const started = Date.now();
      while ((await runs()).some((run) => run.status !== 'running')) {
        if (Date.now() - started > 30_000) throw new Error('The heavy runs did not start.');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const busy = await readLatencies(url, seconds);
      const after = await runs();
      if (after.some((run) => run.status !== 'running'))
        throw new Error(
          `A heavy run stopped working while it was measured: ${after.map((run) => `${run.status} ${run.error ?? ''}`).join(', ')}`,
        );
      for (const id of heavy) await api(server, 'POST', `/api/extraction_runs/${id}/cancel`);

      if (idle.failures + busy.failures > 0)
        throw new Error(`The service failed ${idle.failures + busy.failures} reads.`);
      const sortedIdle = Float64Array.from(idle.latencies).sort();
      const sortedBusy = Float64Array.from(busy.latencies).sort();
      const line = (label: string, sorted: Float64Array) =>
        `${label.padEnd(16)} p50 ${format.number(percentile(sorted, 0.5), 1)} ms   p99 ${format.number(percentile(sorted, 0.99), 1)} ms   (${format.number(sorted.length)} reads)`;
      const idleP99 = percentile(sortedIdle, 0.99);
      const busyP99 = percentile(sortedBusy, 0.99);
      const ratio = busyP99 / idleP99;
      const progress = after
        .map(
          (run, index) =>
            `${index === 0 ? 'text' : 'scan'} ${run.chunksCompleted}/${run.chunksTotal ?? '?'} chunks`,
        )
        .join(', ');
      return {
        name: `GET /api/extraction_runs/{id} while two heavy runs work (${textMegabytes} MB text, ${scanPages}-page scanned PDF): ${readsPerSecond} reads a second over ${connections} connections, ${seconds} s each`,
        lines: [
          line('no run working', sortedIdle),
          line('two heavy runs', sortedBusy),
          `p99 ratio        ${format.number(ratio, 2)} (goal: p99 < 50 ms and ≤ 3x idle: ${format.verdict(busyP99 < 50 && ratio <= 3)})`,
          `the runs meanwhile: ${progress}`,
        ],
      };
    } finally {
      await server.stop();
    }
  } finally {
    closeSync(log);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
