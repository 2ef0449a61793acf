/**
 * Fixtures for the browser tests, made through the real service's API (started by
 * src/tools/dev/browser-test-service.ts and reached through the test server's /api proxy).
 * The admin token makes extractors and mints sessions, as a partner's server would; the
 * code under test only ever gets the session token.
 */
import { inject } from 'vitest';
import type {
  DocumentErrorCode,
  EmbedSession,
  Extractor,
  ExtractorInput,
  Run,
} from '../../contract/resources.js';
import {
  isFinalRunStatus,
  type DocumentStatus,
  type RunStatus,
} from '../../contract/run-status.js';
import { ExtractorClient } from '../client.js';
import { parseResults } from '../run-documents.js';

export const invoiceTestSchema = {
  type: 'object',
  title: 'Invoice',
  properties: {
    invoice_number: {
      type: ['string', 'null'],
      title: 'Invoice number',
      description: 'As printed on the invoice.',
    },
    date: { type: ['string', 'null'], format: 'date', title: 'Invoice date' },
    total: { type: ['number', 'null'], title: 'Total', minimum: 0 },
    currency: { type: ['string', 'null'], title: 'Currency', enum: ['EUR', 'USD', 'GBP', null] },
    line_items: {
      type: 'array',
      title: 'Line items',
      items: {
        type: 'object',
        properties: {
          description: { type: ['string', 'null'], title: 'Description' },
          quantity: { type: ['number', 'null'], title: 'Quantity' },
          amount: { type: ['number', 'null'], title: 'Amount' },
        },
      },
    },
  },
} as const;

/** An invoice as plain text, which the local strategy reads quickly. */
export const invoiceText = [
  'ACME Supplies Ltd',
  'Invoice number: INV-2024-001',
  'Invoice date: 2024-03-15',
  'Description  Quantity  Amount',
  'Paper        2         10.00',
  'Pens         5         7.50',
  'Total: 17.50 EUR',
].join('\n');

export function adminToken(): string {
  return inject('extractorService').adminToken;
}

export async function adminRequest<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    headers: {
      Authorization: `Bearer ${adminToken()}`,
      Accept: 'application/json',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

export function createExtractor(input: Partial<ExtractorInput> = {}): Promise<Extractor> {
  return adminRequest<Extractor>('POST', '/api/extractors', {
    label: 'Test invoices',
    jsonSchema: JSON.stringify(invoiceTestSchema),
    ...input,
  });
}

export function mintSession(
  extractor: Extractor,
  options: {
    bucket?: string;
    ttlSeconds?: number;
    maxLifetimeSeconds?: number;
    locale?: string;
    strings?: Record<string, string>;
  } = {},
): Promise<EmbedSession> {
  return adminRequest<EmbedSession>('POST', '/api/embed_sessions', {
    savedExtractor: `/api/extractors/${extractor.id}`,
    ...options,
  });
}

/** A fresh extractor, session and client, the way the app would start. */
export async function startSession(input: Partial<ExtractorInput> = {}) {
  const extractor = await createExtractor(input);
  const session = await mintSession(extractor);
  const client = new ExtractorClient({ baseUrl: window.location.origin, token: session.token });
  const bucketId = session.bucket.split('/').pop()!;
  return { extractor, session, client, bucketId };
}

export function textFile(name = 'invoice.txt', text = invoiceText): File {
  return new File([text], name, { type: 'text/plain' });
}

/** Polls the run until its status is one of `statuses` (by default: any final one). */
export async function waitForRun(
  client: ExtractorClient,
  id: string,
  statuses?: readonly RunStatus[],
  timeoutMs = 20_000,
): Promise<Run> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await client.getRun(id);
    if (statuses ? statuses.includes(run.status) : isFinalRunStatus(run.status)) return run;
    if (Date.now() > deadline) throw new Error(`run ${id} is still ${run.status}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A session whose bucket holds the invoice and whose run has completed. */
export async function completedRun(input: Partial<ExtractorInput> = {}) {
  const started = await startSession(input);
  await started.client.uploadFile(started.bucketId, textFile());
  const queued = await started.client.startRun(started.bucketId, started.extractor.id);
  const run = await waitForRun(started.client, queued.id);
  if (run.status !== 'completed')
    throw new Error(`the fixture run ended ${run.status}: ${run.error}`);
  return { ...started, run };
}

/** Models of the stand-in LLM provider of the browser tests (src/tools/dev/browser-test-service.ts). */
export const standInModels = {
  slow: 'stand-in-slow',
  stalled: 'stand-in-stalled',
  refusing: 'stand-in-refusing',
} as const;

/** About 16 chunks of 200 characters: a quarter of a second each with the slow stand-in. */
export function longTextFile(): File {
  const text = Array.from(
    { length: 80 },
    (_, line) => `Line ${line + 1}: paper, quantity 2, amount 10.00 EUR.`,
  ).join('\n');
  return new File([text], 'long.txt', { type: 'text/plain' });
}

/** A session whose run is working through its chunks (or paused among them). */
export async function workingRun(options: { paused?: boolean } = {}) {
  const started = await startSession({
    strategy: 'llm',
    model: standInModels.slow,
    chunkSize: 200,
  });
  await started.client.uploadFile(started.bucketId, longTextFile());
  const queued = await started.client.startRun(started.bucketId, started.extractor.id);
  let run = await waitForRun(started.client, queued.id, ['running', 'completed', 'failed']);
  if (run.status !== 'running')
    throw new Error(`the fixture run is ${run.status}, not running: ${run.error}`);
  if (options.paused) run = await started.client.runCommand(run.id, 'pause');
  return { ...started, run };
}

/** A session whose run failed, as one does when the LLM provider refuses the key. */
export async function failedRun() {
  const started = await startSession({ strategy: 'llm', model: standInModels.refusing });
  await started.client.uploadFile(started.bucketId, textFile());
  const queued = await started.client.startRun(started.bucketId, started.extractor.id);
  const run = await waitForRun(started.client, queued.id);
  if (run.status !== 'failed') throw new Error(`the fixture run is ${run.status}, not failed`);
  return { ...started, run };
}

export interface TestDocument {
  name: string;
  status: DocumentStatus;
  data?: unknown;
  error?: string;
  errorCode?: DocumentErrorCode;
  chunksCompleted?: number;
  chunksTotal?: number | null;
  pagesRead?: number;
  pagesTotal?: number | null;
}

/**
 * A run of the service as it stands when its documents are in the given states: each
 * document in `documents` (by a file IRI of the run's bucket) and its record in the results
 * fields, the `{documents: [...]}` text the service writes. For the states a test cannot
 * hold a real run in long enough to look at (half way through, one of four failed).
 */
export function withDocuments(
  run: Run,
  documents: readonly TestDocument[],
  status = run.status,
): Run {
  const entries = documents.map((document, index) => {
    const chunksTotal = document.chunksTotal ?? (document.status === 'completed' ? 1 : null);
    const settled = document.status === 'completed' || document.status === 'failed';
    return {
      file: `${run.bucket}/files/test-file-${index + 1}`,
      name: document.name,
      status: document.status,
      error: document.error ?? null,
      errorCode: document.errorCode ?? null,
      // As the service tells them (runs/documents.ts documentSummary).
      stage: settled ? null : chunksTotal === null ? ('reading' as const) : ('extracting' as const),
      pagesRead: document.pagesRead ?? 0,
      pagesTotal: document.pagesTotal ?? null,
      chunksCompleted: document.chunksCompleted ?? (document.status === 'completed' ? 1 : 0),
      chunksTotal,
      data: document.data ?? null,
    };
  });
  const results = JSON.stringify({
    documents: entries.map(({ file, name, status, data, error }) => ({
      file,
      name,
      status,
      data,
      error,
    })),
  });
  const settled = isFinalRunStatus(status);
  return {
    ...run,
    status,
    documents: entries.map(({ data: _data, ...summary }) => summary),
    data: settled ? results : null,
    resultJson: settled ? results : null,
    partialResultJson: settled ? null : results,
    partialData: results,
  };
}

/** The record of one document (the first unless told) in a results JSON text. */
export function recordOf(text: string | null | undefined, index = 0): unknown {
  return parseResults(text)[index]?.data ?? null;
}

/** The run as the service would hand it out with `record` as its first document's data. */
export function holding(run: Run, record: unknown): Run {
  const [first, ...others] = parseResults(run.data);
  if (!first) throw new Error(`run ${run.id} has no document to hold the record`);
  return { ...run, data: JSON.stringify({ documents: [{ ...first, data: record }, ...others] }) };
}

/** A file the upload takes (it starts as a PDF does) but that cannot be read. */
export function unreadableFile(name = 'broken.pdf'): File {
  return new File(['%PDF-1.4\nthis is not a PDF at all'], name, { type: 'application/pdf' });
}

/** A session whose bucket holds the invoice and a file that cannot be read, run to its end. */
export async function partlyCompletedRun(input: Partial<ExtractorInput> = {}) {
  const started = await startSession(input);
  await started.client.uploadFile(started.bucketId, textFile());
  await started.client.uploadFile(started.bucketId, unreadableFile());
  const queued = await started.client.startRun(started.bucketId, started.extractor.id);
  const run = await waitForRun(started.client, queued.id);
  if (run.status !== 'partially_completed')
    throw new Error(`the fixture run ended ${run.status}: ${run.error}`);
  return { ...started, run };
}
