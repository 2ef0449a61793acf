/**
 * What the browser benchmarks need from the real service, through its public API only, as
 * a partner's server would do it: the service started as `npm start` runs it (with a fresh
 * build of the interface), the demo extractor, a completed run whose results a person has
 * edited, and an embed session whose full-page address a browser opens.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoExtractor } from '../server/extractors/demo.js';
import { startRealServer, type RealServer } from '../server/testing/real-server.js';
import { interfaceBuild } from './processes.js';

const adminToken = 'xpat_bench-browser-token-0123456789abcdef';

export interface BenchService {
  server: RealServer;
  api<T = Record<string, unknown>>(
    path: string,
    init?: { method?: string; body?: unknown; form?: FormData },
  ): Promise<T>;
  stop(): Promise<void>;
}

/** The real service on a fresh DATA_DIR, with one worker so that local-strategy runs complete. */
export async function startBenchService(): Promise<BenchService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'extractor-bench-browser-'));
  const server = await startRealServer({
    dataDir,
    env: {
      DIST_DIR: await interfaceBuild(),
      EXTRACTOR_ADMIN_TOKEN: adminToken,
      WORKER_CONCURRENCY: '1',
    },
  });
  return {
    server,
    async api<T>(path: string, init: { method?: string; body?: unknown; form?: FormData } = {}) {
      const method = init.method ?? (init.body === undefined && !init.form ? 'GET' : 'POST');
      const response = await fetch(`${server.baseUrl}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${adminToken}`,
          Accept: 'application/json',
          ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: init.form ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
      return (text ? JSON.parse(text) : {}) as T;
    },
    async stop() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The demo extractor ("Invoice"), made through the API; returns its id. */
export async function createDemoExtractor(service: BenchService): Promise<string> {
  return (await service.api<{ id: string }>('/api/saved_extractors', { body: demoExtractor })).id;
}

export interface Session {
  fullPageUrl: string;
  bucket: string;
}

/** An embed session on the extractor, in a new bucket or the one given. */
export async function createSession(
  service: BenchService,
  extractorId: string,
  bucket?: string,
): Promise<Session> {
  return service.api<Session>('/api/embed_sessions', {
    body: { savedExtractor: extractorId, ...(bucket ? { bucket } : {}) },
  });
}

const invoiceText = `INVOICE
Invoice number: INV-2024-0042
Date: 2024-03-01
Vendor: ACME Office Supplies GmbH
Description            Quantity  Unit price  Amount
Paper A4                      2       12.50   25.00
Total: 25.00 EUR
`;

/**
 * A bucket with one invoice whose local-strategy run has completed, and whose results a
 * person has then edited to hold `lineItems` line items (a completed run needs real
 * results, and a document with thousands of lines would make the run, not the table, the
 * thing measured). Returns the bucket's IRI.
 */
export async function completedRunWithLineItems(
  service: BenchService,
  extractorId: string,
  lineItems: number,
): Promise<string> {
  const bucket = await service.api<{ id: string }>('/api/buckets', { body: {} });
  const bucketIri = `/api/buckets/${bucket.id}`;
  const form = new FormData();
  form.append('file', new Blob([invoiceText], { type: 'text/plain' }), 'invoice.txt');
  await service.api(`${bucketIri}/files`, { form });
  const queued = await service.api<{ id: string }>('/api/extraction_runs', {
    body: { bucket: bucketIri, savedExtractor: `/api/saved_extractors/${extractorId}` },
  });
  const deadline = Date.now() + 60_000;
  let run = queued as { id: string; status?: string; data?: string | null; error?: string | null };
  while (run.status !== 'completed') {
    if (run.status === 'failed' || run.status === 'cancelled')
      throw new Error(`The run ended ${run.status}: ${run.error}`);
    if (Date.now() > deadline) throw new Error(`The run did not complete in time (${run.status}).`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    run = await service.api(`/api/extraction_runs/${queued.id}`);
  }
  const extracted = JSON.parse(run.data ?? '{}') as Record<string, unknown>;
  const edited = {
    ...extracted,
    line_items: Array.from({ length: lineItems }, (_, index) => ({
      description: `Item ${index + 1}: paper, toner and staples`,
      quantity: (index % 9) + 1,
      unit_price: 12.5,
      amount: 12.5 * ((index % 9) + 1),
    })),
  };
  await service.api(`/api/extraction_runs/${queued.id}/results`, { method: 'PUT', body: edited });
  return bucketIri;
}
