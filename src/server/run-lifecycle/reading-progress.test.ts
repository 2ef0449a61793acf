/**
 * Reading told page by page (issue 14): a scanned PDF is read by OCR, seconds a page, and
 * the run's document says how many of its pages are read while it is, through the event
 * stream, REST and GraphQL, with the real worker, document workers and OCR.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEventData } from '../../contract/events.js';
import { runSchema, type DocumentSummary, type Run } from '../../contract/resources.js';
import { buildPdf, renderTextImage } from '../engine/testing/build-documents.js';
import { readEvents } from '../testing/event-stream.js';
import { demoExtractorId } from '../testing/fixtures.js';
import { startTestService, type TestService } from '../testing/test-service.js';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ WORKER_CONCURRENCY: '1', WORKER_POLL_MS: '50' });
});
afterAll(async () => {
  await service.dispose();
});

/** A PDF of `pages` scanned pages: pictures of text without a text layer, as a scanner makes. */
async function scannedPdf(pages: string[][]): Promise<Uint8Array> {
  const scans = await Promise.all(
    pages.map((lines) =>
      renderTextImage(lines, { width: 1275, height: 1650, fontSize: 32, format: 'jpeg' }),
    ),
  );
  return buildPdf(scans.map((jpeg) => ({ image: { jpeg, width: 1275, height: 1650 } })));
}

describe('reading a scanned document', () => {
  it('tells its pages read, one by one, until all are read, then extracts', async () => {
    const bytes = await scannedPdf([
      ['Invoice number: SCAN-3', 'Date: 2025-03-04'],
      ['Item: Paper, 2 boxes'],
      ['Total due: 42.00 EUR'],
    ]);
    const bucket = (await (await service.json('POST', '/api/buckets', {})).json()) as {
      id: string;
    };
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), 'scan.pdf');
    const upload = await service.request(`/api/buckets/${bucket.id}/files`, {
      method: 'POST',
      body: form,
    });
    expect(upload.status).toBe(201);
    const created = await service.json('POST', '/api/extraction_runs', {
      bucket: bucket.id,
      savedExtractor: await demoExtractorId(service),
    });
    expect(created.status).toBe(201);
    const run = runSchema.parse(await created.json());

    // The stream ends when the run does; from its first event on (Last-Event-ID 0), however
    // far the run has gone already.
    const stream = await service.request(`/api/extraction_runs/${run.id}/events`, {
      headers: { Accept: 'text/event-stream', 'Last-Event-ID': '0' },
    });
    const events = await readEvents(stream);
    const documents = events.map((event) => (event.data as RunEventData).documents[0]!);
    const reading = documents.filter((document) => document.stage === 'reading');
    const pagesRead = reading
      .filter((document) => document.pagesTotal !== null)
      .map((document) => [document.pagesRead, document.pagesTotal]);
    // Each page is told as it is read (OCR takes far longer than the stores are spaced).
    expect(pagesRead).toEqual([
      [0, 3],
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    const extracting = documents.findIndex((document) => document.stage === 'extracting');
    expect(extracting).toBeGreaterThan(documents.indexOf(reading.at(-1)!));
    expect(documents[extracting]).toMatchObject({ pagesRead: 3, pagesTotal: 3 });
    expect(events.at(-1)!.event).toBe('extraction_run.completed');

    const done = runSchema.parse(
      await (await service.json('GET', `/api/extraction_runs/${run.id}`)).json(),
    );
    expect(done.documents[0]).toMatchObject({
      status: 'completed',
      stage: null,
      pagesRead: 3,
      pagesTotal: 3,
    } satisfies Partial<DocumentSummary>);

    const graphql = await service.json('POST', '/api/graphql', {
      query: `{ run(id: "${run.id}") { documents { stage pagesRead pagesTotal } } }`,
    });
    const body = (await graphql.json()) as { data: { run: Pick<Run, 'documents'> } };
    expect(body.data.run.documents).toEqual([{ stage: null, pagesRead: 3, pagesTotal: 3 }]);
  }, 120_000);
});
