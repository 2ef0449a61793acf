/**
 * Runs worked by the real worker and the real engine: every fixture invoice end to end
 * (with boxes for every value found on a page that is a picture),
 * pause and resume between chunks, cancel, failures, and the webhooks a run sends. The
 * llm strategy talks to a local chat-completions stand-in that can hold a request, so a
 * test can pause or cancel while the "model" is thinking, deterministically.
 */
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { SaxesParser } from 'saxes';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  documentsOfResults,
  runSchema,
  type DocumentSummary,
  type ResultMetadata,
  type Run,
  type RunResults,
} from '../../contract/resources.js';
import { isFinalRunStatus } from '../../contract/run-status.js';
import { parseCsv } from '../formats/csv.js';
import {
  answer,
  held,
  startChatCompletionsServer,
  userText,
  type ChatCompletionsServer,
} from '../testing/chat-completions-server.js';
import { buildEncryptedPdf } from '../engine/testing/build-documents.js';
import { resourceMediaTypes } from '../http/negotiation.js';
import { demoExtractorId, insertRun } from '../testing/fixtures.js';
import { readCsv, readHtmlDefinitions } from '../testing/representations.js';
import { invoiceFixtures } from '../testing/sample-files.js';
import { startTestService, type TestService } from '../testing/test-service.js';
import type { RunTokenStats } from '../runs/documents.js';

let service: TestService;
let stand: ChatCompletionsServer;
let invoiceExtractorId: string;

async function uploadBucket(files: { name: string; bytes: Uint8Array }[]): Promise<string> {
  const bucket = (await (await service.json('POST', '/api/buckets', {})).json()) as { id: string };
  const form = new FormData();
  for (const file of files) form.append('file', new Blob([new Uint8Array(file.bytes)]), file.name);
  const response = await service.request(`/api/buckets/${bucket.id}/files`, {
    method: 'POST',
    body: form,
  });
  expect(response.status).toBe(201);
  return bucket.id;
}

async function startRun(
  bucketId: string,
  extractorId: string,
  overrides: Record<string, unknown> = {},
): Promise<Run> {
  const response = await service.json('POST', '/api/extraction_runs', {
    bucket: bucketId,
    savedExtractor: extractorId,
    ...overrides,
  });
  expect(response.status).toBe(201);
  return runSchema.parse(await response.json());
}

async function getRun(id: string): Promise<Run> {
  return runSchema.parse(await (await service.json('GET', `/api/extraction_runs/${id}`)).json());
}

async function waitForRun(
  id: string,
  done: (run: Run) => boolean,
  timeoutMs = 60_000,
): Promise<Run> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await getRun(id);
    if (done(run)) return run;
    if (Date.now() > deadline)
      throw new Error(`run ${id} stayed ${run.status} (${run.chunksCompleted}/${run.chunksTotal})`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const isFinal = (run: Run) => isFinalRunStatus(run.status);

/** The record of a one-document run in a results text. */
const recordOf = (text: string | null) => documentsOfResults(text)[0]?.data;

function parsesAsXml(text: string): void {
  const parser = new SaxesParser({ xmlns: true });
  parser.on('error', (error) => {
    throw error;
  });
  parser.write(text).close();
}

/** Several chunks of 200 characters: one line per value, so each chunk is a request. */
const longText = Array.from(
  { length: 8 },
  (_, index) => `Line ${index + 1}: ${'word '.repeat(24)}`,
).join('\n');

async function llmExtractor(
  extra: Record<string, unknown> = {},
): Promise<{ id: string; webhookSecret: string }> {
  const schema = {
    type: 'object',
    properties: {
      invoice_number: { type: ['string', 'null'] },
      total: { type: ['number', 'null'] },
    },
  };
  const response = await service.json('POST', '/api/extractors', {
    label: 'LLM test',
    jsonSchema: JSON.stringify(schema),
    strategy: 'llm',
    model: 'gpt-4o-mini',
    ...extra,
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; webhookSecret: string };
}

/**
 * A run of an llm extractor over the long text in chunks of 200 characters, the model
 * holding back its answer to the first chunk; every other chunk is answered the record
 * `fallback`.
 */
async function runHeldAtFirstChunk(fallback: unknown) {
  stand.reset();
  stand.fallback = answer(fallback);
  const first = held();
  stand.enqueue(first.reply);
  const extractor = await llmExtractor();
  const bucketId = await uploadBucket([{ name: 'long.txt', bytes: Buffer.from(longText) }]);
  const started = await startRun(bucketId, extractor.id, { chunkSize: 200 });
  return { first, started };
}

beforeAll(async () => {
  stand = await startChatCompletionsServer();
  service = await startTestService({
    WORKER_CONCURRENCY: '2',
    WORKER_POLL_MS: '50',
    LLM_BASE_URL: stand.baseUrl,
    LLM_API_KEY: 'sk-test',
    LLM_TIMEOUT_MS: '5000',
    WEBHOOK_RETRY_SCALE: '0.0002',
  });
  invoiceExtractorId = await demoExtractorId(service);
});

afterAll(async () => {
  await service.dispose();
  await stand.close();
});

describe('every fixture invoice', () => {
  const documents = readdirSync(invoiceFixtures).filter((name) => /\.(pdf|png|txt)$/.test(name));

  it.each(documents)(
    '%s: the run completes and its results come out as JSON, XML and CSV',
    async (name) => {
      const stem = name.replace(/\.\w+$/, '');
      const expected = (
        JSON.parse(readFileSync(`${invoiceFixtures}/${stem}.json`, 'utf8')) as {
          date: string;
          currency: string;
        }[]
      )[0]!;
      const bucketId = await uploadBucket([
        { name, bytes: readFileSync(`${invoiceFixtures}/${name}`) },
      ]);
      const started = await startRun(bucketId, invoiceExtractorId);
      const run = await waitForRun(started.id, isFinal);
      expect(run.error).toBeNull();
      expect(run.status).toBe('completed');
      expect(run.chunksCompleted).toBe(run.chunksTotal);
      expect(run.startedAt).not.toBeNull();
      expect(run.formattedDuration).toMatch(/^(<1s|\d+s|\d+m \d\ds)$/);
      expect(run.evaluationType).toBe('json-schema');

      const json = await service.request(`/api/extraction_runs/${run.id}/results?format=json`);
      expect(json.headers.get('content-disposition')).toMatch(
        /^attachment; filename="invoice-[0-9a-f]{8}\.json"/,
      );
      const results = (await json.json()) as RunResults;
      // A one-file bucket reads as one document, named by its file.
      expect(results.documents).toHaveLength(1);
      const [document] = results.documents;
      expect(document).toMatchObject({
        file: run.documents[0]!.file,
        name,
        status: 'completed',
        error: null,
      });
      const data = document!.data as Record<string, unknown>;
      expect(Object.keys(data).sort()).toEqual([
        'currency',
        'date',
        'invoice_number',
        'line_items',
        'total',
        'vendor',
      ]);
      expect(data.date).toBe(expected.date);
      expect(data.currency).toBe(expected.currency);

      const metadata = JSON.parse(run.resultMetadata!) as ResultMetadata;
      const sources = metadata.documents[0]!.sources;
      expect(sources['/date']).toMatchObject({ file: name, page: expect.any(Number) });
      // Pages that are pictures say where every value is printed, within the page.
      for (const [pointer, source] of Object.entries(sources)) {
        if (name.endsWith('.txt')) {
          expect(source.boxes, pointer).toBeUndefined();
          continue;
        }
        expect(source.boxes?.length, `${pointer} has boxes`).toBeGreaterThan(0);
        for (const box of source.boxes!) {
          expect(box.page, pointer).toBe(source.page);
          expect(box.width * box.height, pointer).toBeGreaterThan(0);
          for (const side of [box.x, box.y, box.x + box.width, box.y + box.height]) {
            expect(side, pointer).toBeGreaterThanOrEqual(0);
            expect(side, pointer).toBeLessThanOrEqual(1);
          }
        }
      }

      const xml = await service.request(`/api/extraction_runs/${run.id}/results`, {
        headers: { Accept: 'application/xml' },
      });
      expect(xml.headers.get('content-type')).toContain('application/xml');
      const xmlText = await xml.text();
      parsesAsXml(xmlText);
      expect(xmlText).toContain(`<date>${expected.date}</date>`);

      const csv = await service.request(`/api/extraction_runs/${run.id}/results`, {
        headers: { Accept: 'text/csv' },
      });
      const rows = parseCsv(await csv.text())!;
      const header = rows[0]!;
      expect(header).toContain('invoice_number');
      expect(rows.length).toBeGreaterThanOrEqual(2);
      expect(header[0]).toBe('file');
      for (const row of rows.slice(1)) {
        expect(row).toHaveLength(header.length);
        expect(row[0]).toBe(run.documents[0]!.file);
        expect(row[header.indexOf('date')]).toBe(expected.date);
      }
    },
    // A picture is read by OCR, its codes looked for, its language found: seconds when the
    // machine is quiet, far more when it is not.
    120_000,
  );
});

describe('pause, resume and cancel between chunks', () => {
  it('a pause lets the chunk in flight finish, keeps it, and a resume goes on with the next chunk', async () => {
    const { first, started } = await runHeldAtFirstChunk({ invoice_number: null, total: 42 });

    await first.arrived;
    const pause = await service.json('POST', `/api/extraction_runs/${started.id}/pause`);
    expect(pause.status).toBe(200);
    expect(runSchema.parse(await pause.json()).status).toBe('paused');
    first.release(answer({ invoice_number: 'INV-7', total: null }));

    const paused = await waitForRun(started.id, (run) => run.chunksCompleted === 1);
    expect(paused.status).toBe('paused');
    expect(recordOf(paused.partialResultJson)).toMatchObject({ invoice_number: 'INV-7' });
    expect(paused.documents[0]).toMatchObject({ status: 'running', chunksCompleted: 1 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stand.received).toHaveLength(1);

    const resume = await service.json('POST', `/api/extraction_runs/${started.id}/resume`);
    expect(runSchema.parse(await resume.json()).status).toBe('queued');
    const done = await waitForRun(started.id, isFinal);
    expect(done.status).toBe('completed');
    expect(done.chunksTotal).toBeGreaterThan(2);
    // Every chunk was asked about exactly once: the first was not computed again.
    expect(stand.received).toHaveLength(done.chunksTotal!);
    const texts = stand.received.map(userText);
    expect(new Set(texts).size).toBe(texts.length);
    expect(recordOf(done.resultJson)).toEqual({ invoice_number: 'INV-7', total: 42 });
    const stats = JSON.parse(done.tokenStats!) as RunTokenStats;
    expect(stats.chunks.map((entry) => entry.chunk)).toEqual([...Array(done.chunksTotal).keys()]);
    expect(stats.totalInputTokens).toBe(321 * done.chunksTotal!);
    expect(stats.documents).toEqual([
      {
        file: done.documents[0]!.file,
        totalInputTokens: 321 * done.chunksTotal!,
        totalOutputTokens: stats.totalOutputTokens,
      },
    ]);
    expect(done.totalInputTokens).toBe(String(321 * done.chunksTotal!));
  });

  it('a cancel stops the chunk in flight and nothing more is asked', async () => {
    const { first, started } = await runHeldAtFirstChunk({ invoice_number: null, total: null });
    await first.arrived;
    const cancel = await service.json('POST', `/api/extraction_runs/${started.id}/cancel`);
    expect(cancel.status).toBe(200);
    first.release(answer({ invoice_number: 'late', total: 1 }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const run = await getRun(started.id);
    expect(run.status).toBe('cancelled');
    expect(run.chunksCompleted).toBe(0);
    expect(run.resultJson).toBeNull();
    // Its document was at work when it was cancelled; it is no longer.
    expect(run.documents.map((document) => document.status)).toEqual(['queued']);
    expect(stand.received).toHaveLength(1);
  });
});

describe('runs at the same time', () => {
  it('twelve runs over one new file all complete', async () => {
    const bytes = Buffer.from(`Invoice number: CONC-${Date.now()}\nTotal: 12.00 EUR\n`);
    const buckets = await Promise.all(
      Array.from({ length: 12 }, () => uploadBucket([{ name: 'same.txt', bytes }])),
    );
    const runs = await Promise.all(buckets.map((bucket) => startRun(bucket, invoiceExtractorId)));
    const done = await Promise.all(runs.map((run) => waitForRun(run.id, isFinal)));
    expect(done.map((run) => [run.status, run.error])).toEqual(Array(12).fill(['completed', null]));
  });
});

describe('failures a person can act on', () => {
  it('says when the model provider cannot be reached, in plain words, the particulars in the log', async () => {
    // A service of its own, whose provider address has nobody listening.
    const unreachable = await startTestService({
      WORKER_CONCURRENCY: '1',
      WORKER_POLL_MS: '50',
      LLM_BASE_URL: 'http://127.0.0.1:9/v1',
      LLM_API_KEY: 'x',
    });
    const warned = vi.spyOn(unreachable.services.logger, 'warn');
    try {
      const schema = JSON.stringify({ type: 'object', properties: { n: { type: 'string' } } });
      const created = (await (
        await unreachable.json('POST', '/api/extractors', {
          label: 'x',
          jsonSchema: schema,
          strategy: 'llm',
          model: 'gpt-4o-mini',
        })
      ).json()) as { id: string };
      const bucket = (await (await unreachable.json('POST', '/api/buckets', {})).json()) as {
        id: string;
      };
      const form = new FormData();
      form.append('file', new Blob(['Invoice number: 12']), 'short.txt');
      await unreachable.request(`/api/buckets/${bucket.id}/files`, { method: 'POST', body: form });
      const run = runSchema.parse(
        await (
          await unreachable.json('POST', '/api/runs', {
            bucket: bucket.id,
            savedExtractor: created.id,
          })
        ).json(),
      );
      const deadline = Date.now() + 60_000;
      let current = run;
      while (!isFinal(current) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        current = runSchema.parse(
          await (await unreachable.json('GET', `/api/runs/${run.id}`)).json(),
        );
      }
      expect(current.status).toBe('failed');
      // Whoever sees the run (a partner's customer, through the interface or the partner's
      // program) reads what happened, not the provider's address or the service's settings.
      expect(current.error).toBe(
        'short.txt: The language model could not be reached or stayed busy; try the run again later.',
      );
      expect(current.documents[0]!.errorCode).toBe('model_unavailable');
      expect(JSON.stringify(current)).not.toMatch(/127\.0\.0\.1|LLM_|ECONNREFUSED/);
      expect(warned).toHaveBeenCalledWith(
        expect.objectContaining({
          run: run.id,
          detail: expect.stringMatching(/127\.0\.0\.1:9 could not be reached.*check LLM_BASE_URL/),
        }),
        'document failed',
      );
      expect(current.finishedAt).not.toBeNull();
    } finally {
      await unreachable.dispose();
    }
  });

  it('says when a file holds no text', async () => {
    const bucketId = await uploadBucket([
      { name: 'blank.txt', bytes: Buffer.from('   \n\n   \n') },
    ]);
    const run = await waitForRun((await startRun(bucketId, invoiceExtractorId)).id, isFinal);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/text/i);
    expect(run.documents[0]!.errorCode).toBe('no_text');
  });
});

describe('failures a person can act on: codes and the whole run', () => {
  it('says why with a code beside the words, in every representation of the run', async () => {
    // Read in a document worker (engine/isolation/pool.ts), whose error crosses to the
    // service as a message: the code must cross with it.
    const locked = buildEncryptedPdf(['Invoice number: SECRET-7'], 'hunter2');
    const note = Buffer.from('Invoice number: INV-9\nTotal: 12.00\n');
    const bucketId = await uploadBucket([
      { name: 'locked.pdf', bytes: locked },
      { name: 'note.txt', bytes: note },
    ]);
    const run = await waitForRun((await startRun(bucketId, invoiceExtractorId)).id, isFinal);
    expect(run.status).toBe('partially_completed');
    const [failed, read] = run.documents as [DocumentSummary, DocumentSummary];
    expect(failed).toMatchObject({
      status: 'failed',
      error: 'locked.pdf is protected by a password; upload it without one',
      errorCode: 'password_protected',
    });
    expect(read).toMatchObject({ status: 'completed', error: null, errorCode: null });
    // The run's own error is the English sentence it was, codes or not.
    expect(run.error).toBe(`1 of 2 documents failed: ${failed.error}`);

    const codesIn = async (accept: string): Promise<unknown[]> => {
      const response = await service.request(`/api/extraction_runs/${run.id}`, {
        headers: { Accept: accept },
      });
      expect(response.status, accept).toBe(200);
      const text = await response.text();
      const documentsOf = (): unknown => {
        switch (accept) {
          case 'application/vnd.api+json':
            return (JSON.parse(text) as { data: { attributes: Run } }).data.attributes.documents;
          case 'text/csv': {
            const [header, record] = readCsv(text);
            return JSON.parse(record![header!.indexOf('documents')]!);
          }
          case 'text/html': {
            const definitions = new Map(readHtmlDefinitions(text));
            return (definitions.get('documents') as string[]).map((item) => JSON.parse(item));
          }
          default:
            return (JSON.parse(text) as Run).documents;
        }
      };
      return (documentsOf() as DocumentSummary[]).map((document) => document.errorCode);
    };
    for (const accept of resourceMediaTypes)
      expect(await codesIn(accept), accept).toEqual(['password_protected', null]);

    const graphql = await service.json('POST', '/api/graphql', {
      query: `{ run(id: "${run.id}") { documents { name errorCode } } }`,
    });
    expect(await graphql.json()).toEqual({
      data: {
        run: {
          documents: [
            { name: 'locked.pdf', errorCode: 'password_protected' },
            { name: 'note.txt', errorCode: null },
          ],
        },
      },
    });
  });

  it('fails every document with the run when the run cannot be worked at all', async () => {
    const bucketId = await uploadBucket([{ name: 'a.txt', bytes: Buffer.from('Invoice 1') }]);
    const [file] = await service.services.db
      .selectFrom('files')
      .select(['id', 'name'])
      .where('bucket_id', '=', bucketId)
      .execute();
    // A schema stored before the checks of today refused it: nothing can be extracted.
    const inserted = await insertRun(service, {
      bucketId,
      extractorId: invoiceExtractorId,
      target_schema: '{"type": "object", "properties": 7}',
      documents: [{ fileId: file!.id, name: file!.name }],
    });
    service.services.signals.runQueued();
    const run = await waitForRun(inserted.id, isFinal);
    expect(run.status).toBe('failed');
    expect(run.documents[0]).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^a\.txt: The extractor's schema /),
      errorCode: 'misconfigured',
    });
  });
});

describe('webhooks of a run', () => {
  let receiver: Server;
  const deliveries: { id: string; timestamp: string; signature: string; body: string }[] = [];

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        deliveries.push({
          id: String(request.headers['webhook-id']),
          timestamp: String(request.headers['webhook-timestamp']),
          signature: String(request.headers['webhook-signature']),
          body,
        });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => receiver.close(resolve)));

  it('posts every event of a run, signed, in order, through to the submission', async () => {
    stand.reset();
    stand.fallback = answer({ invoice_number: 'INV-9', total: 9.5 });
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const extractor = await llmExtractor({
      enableWebhook: true,
      webhookUrl: url,
      redirectUrl: 'https://partner.example/thanks',
    });
    const bucketId = await uploadBucket([{ name: 'long.txt', bytes: Buffer.from(longText) }]);
    const run = await waitForRun(
      (await startRun(bucketId, extractor.id, { chunkSize: 400 })).id,
      isFinal,
    );
    expect(run.status).toBe('completed');
    expect((await service.json('POST', `/api/runs/${run.id}/submit`)).status).toBe(200);

    const deadline = Date.now() + 20_000;
    const arrived = () =>
      deliveries.map((delivery) => JSON.parse(delivery.body) as { type: string });
    while (arrived().at(-1)?.type !== 'extraction_run.submitted' && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 25));
    const key = Buffer.from(extractor.webhookSecret.replace(/^whsec_/, ''), 'base64');
    const payloads = deliveries.map((delivery) => {
      const expected = createHmac('sha256', key)
        .update(`${delivery.id}.${delivery.timestamp}.${delivery.body}`)
        .digest('base64');
      expect(delivery.signature.split(' ')).toContain(`v1,${expected}`);
      return JSON.parse(delivery.body) as {
        type: string;
        data: {
          run: string;
          status: string;
          resultJson: string | null;
          chunksCompleted: number;
          documents: DocumentSummary[];
          redirectUrl?: string;
        };
      };
    });
    // Progress is announced as the document's one page is read, then as chunks complete,
    // at most a few times a second: quick chunks share an announcement, and the last one
    // counts them all.
    const types = payloads.map((payload) => payload.type);
    expect(types[0]).toBe('extraction_run.started');
    expect(types.slice(-3)).toEqual([
      'extraction_run.document_completed',
      'extraction_run.completed',
      'extraction_run.submitted',
    ]);
    const [reading, ...progress] = payloads.slice(1, -3);
    expect(reading).toMatchObject({ type: 'extraction_run.progress' });
    expect(reading!.data.documents[0]).toMatchObject({
      stage: 'reading',
      pagesRead: 1,
      pagesTotal: 1,
    });
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress.length).toBeLessThanOrEqual(run.chunksTotal!);
    expect(progress.every((payload) => payload.type === 'extraction_run.progress')).toBe(true);
    const counts = progress.map((payload) => payload.data.chunksCompleted);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(counts.at(-1)).toBe(run.chunksTotal);
    expect(new Set(deliveries.map((delivery) => delivery.id)).size).toBe(deliveries.length);
    expect(payloads.every((payload) => payload.data.run === `/api/runs/${run.id}`)).toBe(true);
    const submitted = payloads.at(-1)!;
    expect(recordOf(submitted.data.resultJson)).toEqual({ invoice_number: 'INV-9', total: 9.5 });
    const documentCompleted = payloads.at(-3)! as (typeof payloads)[number] & {
      data: { document: { name: string; data: unknown } };
    };
    expect(documentCompleted.data.document).toMatchObject({
      name: 'long.txt',
      status: 'completed',
      data: { invoice_number: 'INV-9', total: 9.5 },
    });
    expect(submitted.data.redirectUrl).toBe('https://partner.example/thanks');
  });
});
