/**
 * What a completed run gives the person who reviews it, through the real service, worker
 * and engine: boxes that sit over the value's words on the page pictures the pages route
 * draws, offsets into the text the pages route answers for text documents, and the
 * extractor's checks that failed, with their values marked for review.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckFailure } from '../../contract/checks.js';
import {
  runSchema,
  type BucketFile,
  type DocumentMetadata,
  type ResultMetadata,
  type Run,
} from '../../contract/resources.js';
import { isFinalRunStatus } from '../../contract/run-status.js';
import { buildPdf, renderTextImage } from '../engine/testing/build-documents.js';
import { createBucket, createExtractor, demoExtractorId, upload } from '../testing/fixtures.js';
import { startTestService, type TestService } from '../testing/test-service.js';

let service: TestService;
let invoiceExtractorId: string;

beforeAll(async () => {
  service = await startTestService({ WORKER_CONCURRENCY: '2', WORKER_POLL_MS: '50' });
  invoiceExtractorId = await demoExtractorId(service);
});

afterAll(async () => {
  await service.dispose();
});

/**
 * Uploads the files into a new bucket, runs the extractor over it and waits for the end;
 * `metadata` is the first document's, `documents` every document's.
 */
async function completedRun(
  parts: { name: string; bytes: Uint8Array | string }[],
  extractorId = invoiceExtractorId,
): Promise<{
  run: Run;
  metadata: DocumentMetadata;
  documents: ResultMetadata['documents'];
  files: BucketFile[];
}> {
  const bucket = await createBucket(service);
  const uploaded = await upload(service, bucket.id, parts);
  expect(uploaded.status).toBe(201);
  const files = (await uploaded.json()) as BucketFile[];
  const created = await service.json('POST', '/api/extraction_runs', {
    bucket: bucket.id,
    savedExtractor: extractorId,
  });
  expect(created.status).toBe(201);
  let run = runSchema.parse(await created.json());
  const deadline = Date.now() + 60_000;
  while (!isFinalRunStatus(run.status)) {
    if (Date.now() > deadline) throw new Error(`run ${run.id} stayed ${run.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    run = runSchema.parse(
      await (await service.json('GET', `/api/extraction_runs/${run.id}`)).json(),
    );
  }
  expect([run.status, run.error]).toEqual(['completed', null]);
  const { documents } = JSON.parse(run.resultMetadata!) as ResultMetadata;
  return { run, metadata: documents[0]!, documents, files };
}

/** A page as the pages route draws it, as grey pixels. */
async function pagePicture(file: BucketFile, page: number) {
  const response = await service.request(
    `${file.bucket}/files/${file.id}/pages/${page}?width=1200`,
    { headers: { Accept: 'image/png' } },
  );
  expect(response.status).toBe(200);
  const { data, info } = await sharp(new Uint8Array(await response.arrayBuffer()))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    /** Dark pixels within a rectangle given in fractions of the page. */
    darkIn(box: { x: number; y: number; width: number; height: number }) {
      let dark = 0;
      const [left, right] = [box.x * info.width, (box.x + box.width) * info.width];
      const [top, bottom] = [box.y * info.height, (box.y + box.height) * info.height];
      for (let y = Math.floor(top); y < Math.ceil(bottom); y++)
        for (let x = Math.floor(left); x < Math.ceil(right); x++)
          if (data[y * info.width + x]! < 128) dark++;
      return dark;
    },
  };
}

describe('boxes of the values found', () => {
  const lines = [
    'Invoice number: INV-2024-0042',
    'Invoice date: 2024-03-12',
    'Total due: 1,250.00 EUR',
  ];

  // Where each line is printed, in fractions of the page: a Letter page with the lines in
  // 12 points at 72 points from the left, baselines from 72 points down, 18 apart; the
  // picture with lines in 40 pixels at 40 pixels from the left, baselines 64 pixels apart.
  const documents = [
    {
      name: 'invoice.pdf',
      bytes: () => buildPdf([{ lines: ['Cover page'] }, { lines }]),
      page: 2,
      left: 72 / 612,
      baseline: (line: number) => (72 + 18 * line) / 792,
      fontSize: 12 / 792,
    },
    {
      name: 'scan.png',
      bytes: () => renderTextImage(lines, { width: 1400, height: 400 }),
      page: 1,
      left: 40 / 1400,
      baseline: (line: number) => (64 * (line + 1)) / 400,
      fontSize: 40 / 400,
    },
  ];

  it.each(documents)(
    '$name: every value has boxes inside its page, over its words on the page picture',
    async (document) => {
      const { metadata, files } = await completedRun([
        { name: document.name, bytes: await document.bytes() },
      ]);
      const found = Object.entries(metadata.sources);
      expect(found.map(([pointer]) => pointer)).toEqual(
        expect.arrayContaining(['/invoice_number', '/date', '/total']),
      );
      const picture = await pagePicture(files[0]!, document.page);
      for (const [pointer, source] of found) {
        expect(source.page, pointer).toBe(document.page);
        const line = lines.findIndex((candidate) => candidate.includes(source.text));
        expect(line, `${pointer}: "${source.text}" is on a line`).toBeGreaterThanOrEqual(0);
        expect(source.boxes, pointer).toHaveLength(1);
        const [box] = source.boxes!;
        expect(box!.page).toBe(document.page);
        for (const side of [box!.x, box!.y, box!.x + box!.width, box!.y + box!.height]) {
          expect(side).toBeGreaterThanOrEqual(0);
          expect(side).toBeLessThanOrEqual(1);
        }
        // On its line, right of the label: from no higher than the letters reach above the
        // baseline to no lower than they reach below it.
        const baseline = document.baseline(line);
        expect(box!.y, pointer).toBeLessThan(baseline - document.fontSize * 0.5);
        expect(box!.y, pointer).toBeGreaterThan(baseline - document.fontSize * 1.1);
        expect(box!.y + box!.height, pointer).toBeGreaterThan(baseline);
        expect(box!.y + box!.height, pointer).toBeLessThan(baseline + document.fontSize * 0.35);
        expect(box!.x, pointer).toBeGreaterThan(document.left);
        // The value's words are printed in it: ink, about as wide as its letters.
        expect(picture.darkIn(box!), pointer).toBeGreaterThan(source.text.length * 10);
        const share = source.text.length / lines[line]!.length;
        const lineWidth = 1 - document.left * 2;
        expect(box!.width, pointer).toBeLessThan(lineWidth * share * 1.5);
      }
    },
    120_000,
  );

  it("gives a text document's values offsets into the text its pages route answers", async () => {
    const text = 'Cover letter\fInvoice number: T-77\nInvoice date: 2024-03-12\nTotal: 5.00 EUR';
    const { run, metadata, files } = await completedRun([{ name: 'invoice.txt', bytes: text }]);
    const found = Object.entries(metadata.sources);
    expect(found.length).toBeGreaterThanOrEqual(3);
    for (const [pointer, source] of found) {
      expect(source.boxes, pointer).toBeUndefined();
      const page = await service.request(
        `${files[0]!.bucket}/files/${files[0]!.id}/pages/${source.page}?run=${run.id}`,
      );
      expect(page.status).toBe(200);
      const pageText = await page.text();
      expect(pageText.slice(source.offset, source.offset + source.text.length), pointer).toBe(
        source.text,
      );
    }
    // A run of another bucket, or none, reads no page of this one.
    const other = await completedRun([{ name: 'other.txt', bytes: 'Invoice number: O-1' }]);
    for (const runId of [other.run.id, 'no-such-run']) {
      const page = await service.request(
        `${files[0]!.bucket}/files/${files[0]!.id}/pages/1?run=${runId}`,
      );
      expect(page.status).toBe(404);
    }
  });
});

describe('checks of the extractor', () => {
  it('marks the values of a failed check for review, with the failure saying why', async () => {
    // The demo Invoice extractor's checks: the lines add up to more than the total, and
    // the second line's quantity times its price is far more than its amount.
    const text = [
      'Invoice number: C-1',
      'Description\tQty\tUnit price\tAmount',
      'Cable\t2\t2.50\t5.00',
      'Plug\t3\t3.20\t3.20',
      '',
      'Total\t\t\t4.00',
    ].join('\n');
    const { metadata } = await completedRun([{ name: 'sums.txt', bytes: text }]);
    expect(metadata.checks).toEqual<CheckFailure[]>([
      {
        check: 0,
        message: 'The line items add up to more than the total.',
        pointers: ['/line_items/0/amount', '/line_items/1/amount', '/total'],
      },
      {
        check: 1,
        message: 'Quantity times unit price is more than the amount of this line.',
        pointers: ['/line_items/1/quantity', '/line_items/1/unit_price', '/line_items/1/amount'],
      },
    ]);
    expect(metadata.review).toEqual(
      expect.arrayContaining([
        '/line_items/0/amount',
        '/line_items/1/amount',
        '/line_items/1/quantity',
        '/line_items/1/unit_price',
        '/total',
      ]),
    );
    // The first line's quantity and price hold: nothing marks them.
    expect(metadata.review).not.toContain('/line_items/0/quantity');
  });

  it("checks each document of a bucket against its own record, into that document's metadata", async () => {
    // One invoice whose lines add up to more than its total, one whose lines hold: the
    // failure and its review marks belong to the first alone.
    const breaks = [
      'Invoice number: D-1',
      'Description\tQty\tUnit price\tAmount',
      'Cable\t2\t2.50\t5.00',
      '',
      'Total\t\t\t4.00',
    ].join('\n');
    const holds = breaks.replace('D-1', 'D-2').replace('Total\t\t\t4.00', 'Total\t\t\t6.05');
    const { documents, files } = await completedRun([
      { name: 'breaks.txt', bytes: breaks },
      { name: 'holds.txt', bytes: holds },
    ]);
    expect(documents.map((document) => document.file)).toEqual(
      files.map((file) => `${file.bucket}/files/${file.id}`),
    );
    expect(documents[0]!.checks).toEqual<CheckFailure[]>([
      {
        check: 0,
        message: 'The line items add up to more than the total.',
        pointers: ['/line_items/0/amount', '/total'],
      },
    ]);
    expect(documents[0]!.review).toEqual(
      expect.arrayContaining(['/line_items/0/amount', '/total']),
    );
    expect(documents[1]!.checks).toEqual([]);
    expect(documents[1]!.review ?? []).not.toContain('/total');
  });

  it('marks nothing when the checks hold, and names fields by their titles without a message', async () => {
    // Taxes make the total more than the lines: the demo's checks allow that.
    const holds = [
      'Invoice number: C-2',
      'Description\tQty\tUnit price\tAmount',
      'Cable\t2\t2.50\t5.00',
      '',
      'Total\t\t\t6.05',
    ].join('\n');
    const { metadata } = await completedRun([{ name: 'holds.txt', bytes: holds }]);
    expect(metadata.checks).toEqual([]);
    expect(metadata.review ?? []).not.toContain('/total');

    const extractor = await createExtractor(service, {
      jsonSchema: JSON.stringify({
        type: 'object',
        properties: {
          invoice_number: { type: ['string', 'null'], title: 'Invoice number' },
          total: { type: ['number', 'null'], title: 'Total' },
        },
      }),
      checks: [{ left: '/total', op: '>=', right: 10 }],
    });
    const { metadata: small } = await completedRun(
      [{ name: 'small.txt', bytes: 'Invoice number: C-3\nTotal: 4.00' }],
      extractor.id,
    );
    expect(small.checks).toEqual([
      { check: 0, message: 'Total (4) should be at least 10.', pointers: ['/total'] },
    ]);
    expect(small.review).toContain('/total');
  });
});
