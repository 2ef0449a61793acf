/**
 * `GET /api/buckets/{id}/files/{fileId}/pages/{n}/words`: the words printed on a page that
 * is a picture, each with its box, for a reviewer who picks words on the page. The boxes
 * must sit where the page prints the words (checked against the drawn page's ink), come
 * from the PDF's text layer or OCR, be kept on disk, and follow the pages route's rules.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { BucketFile } from '../../../contract/resources.js';
import type { PageWords } from '../../../contract/review.js';
import { buildPdf, renderTextImage } from '../../engine/testing/build-documents.js';
import {
  createBucket,
  createExtractor,
  createSession,
  expectProblem,
  expectUnauthorized,
  uploaded,
} from '../../testing/fixtures.js';
import { useTestService } from '../../testing/test-service.js';

const service = useTestService();

const wordsPath = (file: BucketFile, page: number | string) =>
  `${file.bucket}/files/${file.id}/pages/${page}/words`;

async function wordsOf(file: BucketFile, page = 1): Promise<PageWords> {
  const response = await service.request(wordsPath(file, page));
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return (await response.json()) as PageWords;
}

/** How many dark pixels of a drawn page fall in a box given in fractions of the page. */
async function inkIn(
  file: BucketFile,
  box: { x: number; y: number; width: number; height: number },
) {
  const response = await service.request(`${file.bucket}/files/${file.id}/pages/1?width=1200`, {
    headers: { Accept: 'image/png' },
  });
  const { data, info } = await sharp(new Uint8Array(await response.arrayBuffer()))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let dark = 0;
  for (
    let y = Math.floor(box.y * info.height);
    y < Math.ceil((box.y + box.height) * info.height);
    y++
  )
    for (
      let x = Math.floor(box.x * info.width);
      x < Math.ceil((box.x + box.width) * info.width);
      x++
    )
      if (data[y * info.width + x]! < 128) dark++;
  return dark;
}

function expectOnPage(words: PageWords['words']) {
  for (const word of words) {
    expect(word.x).toBeGreaterThanOrEqual(0);
    expect(word.y).toBeGreaterThanOrEqual(0);
    expect(word.width).toBeGreaterThan(0);
    expect(word.height).toBeGreaterThan(0);
    expect(word.x + word.width).toBeLessThanOrEqual(1);
    expect(word.y + word.height).toBeLessThanOrEqual(1);
  }
}

describe('the words of a page', () => {
  it("gives a PDF page's words from its text layer, each boxed where it is printed", async () => {
    const bucket = await createBucket(service);
    const lines = ['Invoice number: INV-2024-0042', 'Total due: 1,250.00 EUR'];
    const [pdf] = await uploaded(service, bucket.id, [
      { name: 'invoice.pdf', bytes: buildPdf([{ lines }, { lines: ['Second page'] }]) },
    ]);

    const { page, words } = await wordsOf(pdf!);
    expect(page).toBe(1);
    expect(words.map((word) => word.text)).toEqual([
      'Invoice',
      'number:',
      'INV-2024-0042',
      'Total',
      'due:',
      '1,250.00',
      'EUR',
    ]);
    expectOnPage(words);
    const number = words[2]!;
    const total = words[5]!;
    // The text layer puts the first line 72 points from the left of a Letter page, its
    // baseline 72 points down; the value follows its label on the line, the total below.
    expect(number.x).toBeGreaterThan(72 / 612);
    expect(number.x).toBeGreaterThan(words[1]!.x + words[1]!.width);
    expect(number.y).toBeLessThan(72 / 792);
    expect(number.y + number.height).toBeGreaterThan(66 / 792);
    expect(total.y).toBeGreaterThan(number.y + number.height / 2);
    // Where a box is, the drawn page has ink; beside the end of the line, none.
    expect(await inkIn(pdf!, number)).toBeGreaterThan(50);
    expect(await inkIn(pdf!, { ...number, x: 0.8, width: 0.15 })).toBe(0);

    expect((await wordsOf(pdf!, 2)).words.map((word) => word.text)).toEqual(['Second', 'page']);
    // Kept on disk beside the pictures, by content and page.
    expect(readdirSync(join(service.dataDir, 'cache', 'pages'))).toEqual(
      expect.arrayContaining([`${pdf!.sha256}-1.words.json`, `${pdf!.sha256}-2.words.json`]),
    );
    expect((await wordsOf(pdf!)).words).toEqual(words);
  });

  it("gives a scan's words as OCR reads them", async () => {
    const bucket = await createBucket(service);
    const [scan] = await uploaded(service, bucket.id, [
      {
        name: 'scan.png',
        bytes: await renderTextImage(['Invoice 4711', 'Total 12.00'], { width: 900 }),
      },
    ]);
    const { words } = await wordsOf(scan!);
    expect(words.map((word) => word.text)).toEqual(['Invoice', '4711', 'Total', '12.00']);
    expectOnPage(words);
    expect(await inkIn(scan!, words[3]!)).toBeGreaterThan(50);
    // The total's line is below the invoice's.
    expect(words[3]!.y).toBeGreaterThan(words[1]!.y + words[1]!.height / 2);
  });

  it('answers a text document with a 406 naming text/plain, and a page beyond with 404', async () => {
    const bucket = await createBucket(service);
    const [text, pdf] = await uploaded(service, bucket.id, [
      { name: 'a.txt', bytes: 'Invoice number: A-1' },
      { name: 'b.pdf', bytes: buildPdf([{ lines: ['One page'] }]) },
    ]);
    const refused = await expectProblem(await service.request(wordsPath(text!, 1)), 406);
    expect(JSON.stringify(refused)).toContain('text/plain');
    const beyond = await expectProblem(await service.request(wordsPath(pdf!, 2)), 404);
    expect(beyond.detail).toBe('b.pdf has 1 page; there is no page 2.');
    await expectProblem(await service.request(wordsPath(pdf!, 'x')), 404);
  });

  it("lets a session see its own bucket's words and nothing else", async () => {
    const extractor = await createExtractor(service);
    const [mine, other] = [await createBucket(service), await createBucket(service)];
    const [own] = await uploaded(service, mine.id, [
      { name: 'a.pdf', bytes: buildPdf([{ lines: ['Mine'] }]) },
    ]);
    const [foreign] = await uploaded(service, other.id, [
      { name: 'b.pdf', bytes: buildPdf([{ lines: ['Theirs'] }]) },
    ]);
    const session = await createSession(service, { savedExtractor: extractor.id, bucket: mine.id });

    const byHeader = await service.request(wordsPath(own!, 1), { token: session.token });
    expect(((await byHeader.json()) as PageWords).words.map((word) => word.text)).toEqual(['Mine']);
    for (const path of [
      wordsPath(foreign!, 1),
      `/api/buckets/${mine.id}/files/${foreign!.id}/pages/1/words`,
    ])
      await expectProblem(await service.request(path, { token: session.token }), 404);
    await expectUnauthorized(await service.request(wordsPath(own!, 1), { token: null }));
  });
});
