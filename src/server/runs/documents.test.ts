/**
 * Issue 11's proof on the service: a bucket of three invoices (from e2e/fixtures/invoices)
 * and one file that cannot be read, worked by the real worker and engine. Each invoice
 * becomes its own record with its own file's values and sources; the unreadable one fails
 * alone with a plain error; the run ends `partially_completed` and says so in REST (JSON,
 * XML, CSV), the event stream, webhooks and GraphQL. Retrying the failed document fails it
 * the same way; replacing its file (with the bucket's session token) completes the run
 * without touching the other three records or a person's edit. Also: combineFiles reads a
 * bucket as one document, and a run whose every document fails is `failed`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SaxesParser } from 'saxes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookPayloadSchema, type WebhookPayload } from '../../contract/events.js';
import {
  documentsOfResults,
  runSchema,
  type DocumentResult,
  type ResultMetadata,
  type Run,
  type RunResults,
} from '../../contract/resources.js';
import { isFinalRunStatus } from '../../contract/run-status.js';
import { parseCsv } from '../formats/csv.js';
import { invoiceFixture } from '../testing/sample-files.js';
import { startTestService, type TestService } from '../testing/test-service.js';
import type { RunTokenStats } from './documents.js';

let service: TestService;
let receiver: Server;
const deliveries: WebhookPayload[] = [];
let invoiceSchema: string;

/** The values each invoice states (its fixture's expectations), by file name. */
const invoices = {
  'coolblue1.pdf': { date: '2014-04-19', currency: 'EUR' },
  'FlipkartInvoice.pdf': { date: '2015-10-20', currency: 'INR' },
  'oyo.pdf': { date: '2017-12-31', currency: 'INR' },
} as const;
const damaged = 'damaged.pdf';
/** A file whose bytes say PDF, so the upload takes it, but which no reader can open. */
const damagedBytes = Buffer.from('%PDF-1.7\n1 0 obj <</Kids [2 0 R\nthis is not a PDF at all\n');

async function uploadFiles(bucketId: string, files: { name: string; bytes: Uint8Array }[]) {
  const form = new FormData();
  for (const file of files) form.append('file', new Blob([new Uint8Array(file.bytes)]), file.name);
  const response = await service.request(`/api/buckets/${bucketId}/files`, {
    method: 'POST',
    body: form,
  });
  expect(response.status).toBe(201);
}

async function newBucket(files: { name: string; bytes: Uint8Array }[]): Promise<string> {
  const bucket = (await (await service.json('POST', '/api/buckets', {})).json()) as { id: string };
  await uploadFiles(bucket.id, files);
  return bucket.id;
}

async function createExtractor(extra: Record<string, unknown> = {}): Promise<string> {
  const response = await service.json('POST', '/api/extractors', {
    label: 'Invoices',
    jsonSchema: invoiceSchema,
    ...extra,
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** Starts a run of the extractor over the bucket, and answers it as created. */
async function startRun(bucketId: string, extractorId: string): Promise<Run> {
  const created = await service.json('POST', '/api/extraction_runs', {
    bucket: bucketId,
    savedExtractor: extractorId,
  });
  expect(created.status).toBe(201);
  return runSchema.parse(await created.json());
}

/** A run of the extractor over a new bucket of text files (name to text), once settled. */
async function settledRunOver(extractorId: string, texts: Record<string, string>): Promise<Run> {
  const files = Object.entries(texts).map(([name, text]) => ({ name, bytes: Buffer.from(text) }));
  const bucketId = await newBucket(files);
  return waitForSettled((await startRun(bucketId, extractorId)).id);
}

async function getRun(id: string, token?: string): Promise<Run> {
  const response = await service.json('GET', `/api/extraction_runs/${id}`, undefined, token);
  return runSchema.parse(await response.json());
}

async function waitForSettled(id: string, after?: string | null): Promise<Run> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const run = await getRun(id);
    if (isFinalRunStatus(run.status) && run.updatedAt !== after) return run;
    if (Date.now() > deadline) throw new Error(`run ${id} stayed ${run.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function results(runId: string, format: 'json' | 'xml' | 'csv', query = '') {
  const response = await service.request(
    `/api/extraction_runs/${runId}/results?format=${format}${query}`,
  );
  expect(response.status).toBe(200);
  return response.text();
}

/** Waits until the webhook receiver has heard `count` events of this run. */
async function webhooksOf(runId: string, until: (types: string[]) => boolean) {
  const deadline = Date.now() + 20_000;
  const ofRun = () => deliveries.filter((payload) => payload.data.run === `/api/runs/${runId}`);
  while (!until(ofRun().map((payload) => payload.type)) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 25));
  return ofRun();
}

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      deliveries.push(webhookPayloadSchema.parse(JSON.parse(body)));
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  service = await startTestService({
    WORKER_CONCURRENCY: '1',
    WORKER_POLL_MS: '50',
    WEBHOOK_RETRY_SCALE: '0.0002',
  });
  const extractors = (await (await service.json('GET', '/api/extractors')).json()) as {
    label: string;
    jsonSchema: string;
  }[];
  invoiceSchema = extractors.find((extractor) => extractor.label === 'Invoice')!.jsonSchema;
});

afterAll(async () => {
  await service.dispose();
  await new Promise((resolve) => receiver.close(resolve));
});

// A bucket of three invoices and one unreadable file, run once for the describes below.
const names = ['coolblue1.pdf', 'FlipkartInvoice.pdf', damaged, 'oyo.pdf'];
let bucketId: string;
let extractorId: string;
let run: Run;
let machine: RunResults;

beforeAll(async () => {
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  extractorId = await createExtractor({ enableWebhook: true, webhookUrl: url });
  bucketId = await newBucket(
    names.map((name) => ({
      name,
      bytes: name === damaged ? damagedBytes : invoiceFixture(name),
    })),
  );
  const queued = await startRun(bucketId, extractorId);
  expect(queued.documents.map((document) => [document.name, document.status])).toEqual(
    names.map((name) => [name, 'queued']),
  );
  run = await waitForSettled(queued.id);
  machine = JSON.parse(await results(run.id, 'json')) as RunResults;
});

describe('a bucket of three invoices and one unreadable file', () => {
  it('gives each invoice its own record with its own values, and fails the unreadable one alone', () => {
    expect(run.status).toBe('partially_completed');
    expect(run.documents.map((document) => [document.name, document.status])).toEqual([
      ['coolblue1.pdf', 'completed'],
      ['FlipkartInvoice.pdf', 'completed'],
      [damaged, 'failed'],
      ['oyo.pdf', 'completed'],
    ]);
    const failed = run.documents[2]!;
    expect(failed.error).toMatch(/^damaged\.pdf\b/);
    expect(failed.error).not.toMatch(/Error:|at \w+ \(/); // plain words, no stack
    // Beside the words, what kind of failure it is; the documents read have none.
    expect(run.documents.map((document) => document.errorCode)).toEqual([
      null,
      null,
      'damaged_file',
      null,
    ]);
    expect(run.error).toBe(`1 of 4 documents failed: ${failed.error}`);
    expect(run.evaluationType).toBe('json-schema');
    expect(run.chunksCompleted).toBe(run.chunksTotal);

    expect(machine.documents.map((document) => document.file)).toEqual(
      run.documents.map((document) => document.file),
    );
    for (const document of machine.documents) {
      expect(document.file).toMatch(new RegExp(`^/api/buckets/${bucketId}/files/[^/]+$`));
      if (document.name === damaged) {
        expect(document).toMatchObject({ status: 'failed', data: null, error: failed.error });
        continue;
      }
      const expected = invoices[document.name as keyof typeof invoices];
      expect(document.status).toBe('completed');
      expect(document.error).toBeNull();
      expect(document.data).toMatchObject(expected);
    }
    // Four files, four different records: nothing of one invoice leaks into another.
    const numbers = machine.documents.map(
      (document) => (document.data as { invoice_number?: unknown } | null)?.invoice_number,
    );
    expect(new Set(numbers.filter(Boolean)).size).toBe(3);
  });

  it('keeps where each value was found, in its own file, and the tokens of each document', () => {
    const metadata = JSON.parse(run.resultMetadata!) as ResultMetadata;
    expect(metadata.documents.map((document) => document.file)).toEqual(
      run.documents.map((document) => document.file),
    );
    for (const [index, document] of metadata.documents.entries()) {
      const name = run.documents[index]!.name;
      const sources = Object.values(document.sources);
      if (name === damaged) {
        expect(sources).toEqual([]);
        continue;
      }
      expect(sources.length).toBeGreaterThan(2);
      expect(new Set(sources.map((source) => source.file))).toEqual(new Set([name]));
      expect(document.sources['/date']).toMatchObject({ file: name });
    }
    const stats = JSON.parse(run.tokenStats!) as RunTokenStats;
    expect(stats.documents.map((document) => document.file)).toEqual(
      run.documents.map((document) => document.file),
    );
  });

  it('reads the same in XML and in CSV, one row per document with its file first', async () => {
    const xml = await results(run.id, 'xml');
    new SaxesParser({ xmlns: true }).write(xml).close();
    const documents = [...xml.matchAll(/<document file="([^"]+)" name="([^"]+)" status="(\w+)">/g)];
    expect(documents.map((match) => [match[2], match[3]])).toEqual(
      machine.documents.map((document) => [document.name, document.status]),
    );
    expect(xml).toContain(`<date>${invoices['oyo.pdf'].date}</date>`);
    expect(xml).toContain('<data xsi:nil="true"/>');

    const [header, ...rows] = parseCsv(await results(run.id, 'csv'))!;
    expect(header!.slice(0, 4)).toEqual(['file', 'name', 'status', 'error']);
    const byFile = new Map<string, string[][]>();
    for (const row of rows) byFile.set(row[0]!, [...(byFile.get(row[0]!) ?? []), row]);
    expect([...byFile.keys()]).toEqual(machine.documents.map((document) => document.file));
    const date = header!.indexOf('date');
    for (const document of machine.documents) {
      for (const row of byFile.get(document.file)!) {
        expect(row[1]).toBe(document.name);
        expect(row[3]).toBe(document.error ?? '');
        expect(row[date]).toBe((document.data as { date?: string } | null)?.date ?? '');
      }
    }
  });
});

describe('a bucket of three invoices and one unreadable file: what the run tells', () => {
  it('tells webhooks and the event stream about each document and the partial end', async () => {
    const payloads = await webhooksOf(run.id, (types) =>
      types.includes('extraction_run.partially_completed'),
    );
    const types = payloads.map((payload) => payload.type);
    expect(types[0]).toBe('extraction_run.started');
    expect(types.at(-1)).toBe('extraction_run.partially_completed');
    expect(types.filter((type) => type === 'extraction_run.document_completed')).toHaveLength(3);
    expect(types.filter((type) => type === 'extraction_run.document_failed')).toHaveLength(1);
    for (const payload of payloads) expect(payload.data.documents).toHaveLength(4);
    const failedEvent = payloads.find(
      (payload) => payload.type === 'extraction_run.document_failed',
    )!;
    expect(failedEvent.data.document).toMatchObject({
      name: damaged,
      status: 'failed',
      data: null,
      error: run.documents[2]!.error,
      errorCode: 'damaged_file',
    });
    expect(failedEvent.data.documents[2]!.errorCode).toBe('damaged_file');
    const oyoEvent = payloads.find(
      (payload) =>
        payload.type === 'extraction_run.document_completed' &&
        payload.data.document?.name === 'oyo.pdf',
    )!;
    expect(oyoEvent.data.document!.data).toMatchObject(invoices['oyo.pdf']);
    const end = payloads.at(-1)!;
    expect(end.data.error).toBe(run.error);
    expect(documentsOfResults(end.data.resultJson)).toEqual(machine.documents);

    // The stream replays the same kinds from the first (Last-Event-ID 0) and ends, the run
    // being settled.
    const stream = await service.request(`/api/extraction_runs/${run.id}/events`, {
      headers: { Accept: 'text/event-stream', 'Last-Event-ID': '0' },
    });
    const text = await stream.text();
    const events = [...text.matchAll(/^event: (.+)$/gm)].map((match) => match[1]);
    expect(events[0]).toBe('snapshot');
    expect(events.at(-1)).toBe('extraction_run.partially_completed');
    expect(events.filter((event) => event === 'extraction_run.document_completed')).toHaveLength(3);
  });

  it('shows the documents and the new status in GraphQL', async () => {
    const response = await service.json('POST', '/api/graphql', {
      query: `query ($id: ID!) { run(id: $id) { status error documents { file name status error errorCode chunksTotal data } } }`,
      variables: { id: run.id },
    });
    const body = (await response.json()) as {
      data: {
        run: {
          status: string;
          error: string;
          documents: {
            file: string;
            name: string;
            status: string;
            error: string | null;
            errorCode: string | null;
            data: string | null;
          }[];
        };
      };
    };
    expect(body.data.run.status).toBe('partially_completed');
    expect(body.data.run.error).toBe(run.error);
    expect(body.data.run.documents.map((document) => [document.file, document.status])).toEqual(
      run.documents.map((document) => [document.file, document.status]),
    );
    const flipkart = body.data.run.documents[1]!;
    expect(JSON.parse(flipkart.data!)).toEqual(machine.documents[1]!.data);
    expect(body.data.run.documents[2]).toMatchObject({
      data: null,
      error: run.documents[2]!.error,
      errorCode: 'damaged_file',
    });
  });

  it('retries a failed document, fails it the same way, and refuses what cannot be retried', async () => {
    const fileOf = (index: number) => run.documents[index]!.file.split('/').pop()!;
    const completed = await service.json(
      'POST',
      `/api/extraction_runs/${run.id}/documents/${fileOf(0)}/retry`,
    );
    expect(completed.status).toBe(409);
    expect(((await completed.json()) as { currentStatus: string }).currentStatus).toBe(
      'partially_completed',
    );
    const nobody = await service.json(
      'POST',
      `/api/extraction_runs/${run.id}/documents/nope/retry`,
    );
    expect(nobody.status).toBe(404);

    const retry = await service.json(
      'POST',
      `/api/extraction_runs/${run.id}/documents/${fileOf(2)}/retry`,
    );
    expect(retry.status).toBe(202);
    const queued = runSchema.parse(await retry.json());
    expect(queued.status).toBe('queued');
    expect(queued.documents[2]).toMatchObject({ status: 'queued', error: null, errorCode: null });
    // Results stay readable while it works: the completed documents are final.
    expect(documentsOfResults(queued.resultJson).filter((document) => document.data)).toHaveLength(
      3,
    );
    const again = await service.json(
      'POST',
      `/api/extraction_runs/${run.id}/documents/${fileOf(2)}/retry`,
    );
    expect(again.status).toBe(409);

    const settled = await waitForSettled(run.id, queued.updatedAt);
    expect(settled.status).toBe('partially_completed');
    expect(settled.documents[2]).toMatchObject({
      status: 'failed',
      error: run.documents[2]!.error,
      errorCode: 'damaged_file',
    });
    expect(JSON.parse(await results(run.id, 'json'))).toEqual(machine);
    run = settled;
  });
});

describe('a bucket of three invoices and one unreadable file: the file replaced', () => {
  it("replacing the unreadable file completes the run; the others' records and a person's edit stay", async () => {
    const fileOf = (index: number) => run.documents[index]!.file.split('/').pop()!;
    // A person corrects the first invoice's record.
    const edited = { ...(machine.documents[0]!.data as Record<string, unknown>), currency: 'USD' };
    const save = await service.json(
      'PUT',
      `/api/extraction_runs/${run.id}/documents/${fileOf(0)}/results`,
      edited,
    );
    expect(save.status).toBe(200);

    // The embed session of this bucket may replace; another bucket's may not see the run.
    const session = (await (
      await service.json('POST', '/api/embed_sessions', {
        savedExtractor: extractorId,
        bucket: bucketId,
      })
    ).json()) as { token: string };
    const stranger = (await (
      await service.json('POST', '/api/embed_sessions', { savedExtractor: extractorId })
    ).json()) as { token: string };
    const replacement = () => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(invoiceFixture('Orlen.txt'))]), 'Orlen.txt');
      return form;
    };
    const replacePath = `/api/extraction_runs/${run.id}/documents/${fileOf(2)}/replace`;
    const refused = await service.request(replacePath, {
      method: 'POST',
      body: replacement(),
      token: stranger.token,
    });
    expect(refused.status).toBe(404);
    const wrongDocument = await service.request(
      `/api/extraction_runs/${run.id}/documents/${fileOf(1)}/replace`,
      { method: 'POST', body: replacement(), token: session.token },
    );
    expect(wrongDocument.status).toBe(409);

    const oldFile = run.documents[2]!.file;
    const replaced = await service.request(replacePath, {
      method: 'POST',
      body: replacement(),
      token: session.token,
    });
    expect(replaced.status).toBe(202);
    const queued = runSchema.parse(await replaced.json());
    expect(queued.status).toBe('queued');
    expect(queued.documents[2]).toMatchObject({
      name: 'Orlen.txt',
      status: 'queued',
      error: null,
      errorCode: null,
    });
    expect(queued.documents[2]!.file).not.toBe(oldFile);
    expect((await service.request(oldFile)).status).toBe(404);
    const bucketFiles = (await (
      await service.request(`/api/buckets/${bucketId}/files`)
    ).json()) as {
      name: string;
    }[];
    expect(bucketFiles.map((file) => file.name).sort()).toEqual(
      ['coolblue1.pdf', 'FlipkartInvoice.pdf', 'Orlen.txt', 'oyo.pdf'].sort(),
    );

    const done = await waitForSettled(run.id, queued.updatedAt);
    expect(done.status).toBe('completed');
    expect(done.error).toBeNull();
    const current = JSON.parse(await results(run.id, 'json')) as RunResults;
    const original = JSON.parse(await results(run.id, 'json', '&version=original')) as RunResults;
    const same = (document: DocumentResult) => ({ ...document });
    // The person's edit stands; the machine's first record is as it was.
    expect(current.documents[0]).toEqual({ ...same(machine.documents[0]!), data: edited });
    expect(original.documents[0]).toEqual(machine.documents[0]);
    // The other two records are untouched, to the last value.
    expect([current.documents[1], current.documents[3]]).toEqual([
      machine.documents[1],
      machine.documents[3],
    ]);
    expect(current.documents[2]).toMatchObject({
      file: queued.documents[2]!.file,
      name: 'Orlen.txt',
      status: 'completed',
      error: null,
      data: { date: '2021-01-01', currency: 'PLN' },
    });
    const metadata = JSON.parse(done.resultMetadata!) as ResultMetadata;
    expect(metadata.documents[2]!.sources['/date']).toMatchObject({ file: 'Orlen.txt' });

    // Webhooks: the new document and the run's completion (document_queued is stream-only).
    const payloads = await webhooksOf(run.id, (types) =>
      types.includes('extraction_run.completed'),
    );
    const after = payloads.slice(
      payloads.findLastIndex((p) => p.type === 'extraction_run.partially_completed') + 1,
    );
    expect(after.map((payload) => payload.type)).toEqual(
      expect.arrayContaining(['extraction_run.document_completed', 'extraction_run.completed']),
    );
    expect(
      after.some((payload) => (payload.type as string) === 'extraction_run.document_queued'),
    ).toBe(false);

    // Submission sends every document; the run is closed after it.
    expect((await service.json('POST', `/api/extraction_runs/${run.id}/submit`)).status).toBe(200);
    const submitted = (
      await webhooksOf(run.id, (types) => types.includes('extraction_run.submitted'))
    ).at(-1)!;
    expect(documentsOfResults(submitted.data.resultJson)).toEqual(current.documents);
  });
});

describe('combineFiles', () => {
  it('reads the files of a bucket as one document whose sources name each file', async () => {
    const extractorId = await createExtractor({ combineFiles: true });
    const extractor = (await (
      await service.json('GET', `/api/extractors/${extractorId}`)
    ).json()) as {
      combineFiles: boolean;
    };
    expect(extractor.combineFiles).toBe(true);
    const run = await settledRunOver(extractorId, {
      'page-1.txt': 'Invoice number: INV-77\nDate: 2024-03-01\n',
      'page-2.txt': 'Total: 12.50 EUR\n',
    });
    expect(run.combineFiles).toBe(true);
    expect(run.status).toBe('completed');
    expect(run.documents).toHaveLength(1);
    const [document] = run.documents;
    expect(document!.name).toBe('page-1.txt, page-2.txt');
    expect(document!.files).toHaveLength(2);
    expect(document!.file).toBe(document!.files![0]);
    const [record] = (JSON.parse(await results(run.id, 'json')) as RunResults).documents;
    expect(record!.data).toMatchObject({ invoice_number: 'INV-77', total: 12.5 });
    const sources = (JSON.parse(run.resultMetadata!) as ResultMetadata).documents[0]!.sources;
    expect(sources['/invoice_number']).toMatchObject({ file: 'page-1.txt' });
    expect(sources['/total']).toMatchObject({ file: 'page-2.txt' });
  });

  it('is off by default: a run whose every document fails is failed, naming each', async () => {
    const extractorId = await createExtractor();
    const run = await settledRunOver(extractorId, {
      'blank-1.txt': '   \n\n',
      'blank-2.txt': '\n   \n',
    });
    expect(run.combineFiles).toBe(false);
    expect(run.status).toBe('failed');
    expect(run.documents.map((document) => document.status)).toEqual(['failed', 'failed']);
    expect(run.error).toMatch(/^All 2 documents failed: .*blank-1\.txt.*; .*blank-2\.txt/);
    expect((await service.request(`/api/extraction_runs/${run.id}/results`)).status).toBe(409);
  });
});
