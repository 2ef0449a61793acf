/**
 * Hostile pictures for the code readers, read in a document worker as a run reads them:
 * ten thousand QR codes on one image, a 50-megapixel page of barcodes, and a page covered
 * in lines shaped like a machine-readable zone. Each is read within the limits of one
 * document (at most `maxCodesPerPicture` codes, `maxZonesPerPage` zones read again), and
 * the worker answers the next document afterwards.
 */
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { afterAll, describe, expect, it } from 'vitest';
import { DocumentPool } from '../isolation/pool.js';
import { defaultDocumentLimits } from '../limits.js';
import { renderPassportPage, td3Lines, writeCode } from '../testing/build-codes.js';
import { textContent } from '../testing/invoice-fixtures.js';
import { useSourceFolder } from '../testing/source-files.js';
import type { Chunk, SourceFile } from '../types.js';
import { maxCodesPerPicture } from './barcodes.js';
import { maxZonesPerPage } from './mrz.js';

const folder = useSourceFolder('engine-hostile-codes-');
// Two minutes for one document: well above what each takes here, far below the default.
const limits = { ...defaultDocumentLimits, timeMs: 120_000 };
const pool = new DocumentPool({ size: 1, limits });
const quickPool = new DocumentPool({ size: 1, limits: { ...limits, timeMs: 30_000 } });
afterAll(() => Promise.all([pool.close(), quickPool.close()]));

/** The document read in the worker; its pages' codes counted from the chunks' text. */
async function read(file: SourceFile, workers = pool): Promise<{ chunks: Chunk[]; codes: number }> {
  const chunks = await workers.prepare({
    files: [file],
    options: textContent,
    cacheDir: folder.cacheDir,
    chunkSize: 200_000,
  });
  const text = chunks.map((chunk) => chunk.text).join('\n');
  return { chunks, codes: text.match(/\[code: /g)?.length ?? 0 };
}

/** The worker still answers: a small text document read after the hostile one. */
async function stillAnswers(workers = pool): Promise<void> {
  const file = await folder.store('after.txt', 'text/plain', 'Invoice 7 total 12.00');
  const { chunks } = await read(file, workers);
  expect(chunks[0]!.text).toBe('Invoice 7 total 12.00');
}

/** A white page `width` × `height` covered with one code, `gap` pixels apart. */
async function coveredPage(code: Buffer, width: number, height: number, gap: number) {
  const image = await loadImage(code);
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  for (let y = gap; y + image.height <= height; y += image.height + gap)
    for (let x = gap; x + image.width <= width; x += image.width + gap)
      context.drawImage(image, x, y);
  return canvas.encode('png');
}

describe('hostile pictures of codes', () => {
  it('an image of 10,000 QR codes is read with at most the ceiling of codes, or fails with the time limit', async () => {
    // 100 x 100 codes of 29 x 29 pixels (21 modules and the quiet zone, a pixel each).
    const qr = await writeCode('TICKET 0001', 'QRCode', 1);
    const png = await coveredPage(qr, 2900, 2900, 0);
    const file = await folder.store('qr-wall.png', 'image/png', png);
    // OCR of such a picture runs for minutes here (tesseract takes every module for a
    // speck of a letter): the document's time limit ends it, lowered to keep the test short.
    const outcome = await read(file, quickPool).catch((error: unknown) => error as Error);
    if (outcome instanceof Error)
      expect(outcome.message).toBe(
        'qr-wall.png took longer than 30 s to read; the limit is 30 s per document',
      );
    else expect(outcome.codes).toBeLessThanOrEqual(maxCodesPerPicture);
    await stillAnswers(quickPool);
  }, 120_000);

  it('a 50-megapixel page of barcodes is read, reduced, within the limits', async () => {
    // 8,640 x 5,760 pixels (49.8 megapixels, the limit is 50) of Code 128 labels.
    const label = await writeCode('PARCEL 1234567890', 'Code128', 4);
    const png = await coveredPage(label, 8640, 5760, 60);
    const file = await folder.store('labels.png', 'image/png', png);
    const { codes } = await read(file);
    expect(codes).toBeGreaterThan(0);
    expect(codes).toBeLessThanOrEqual(maxCodesPerPicture);
    await stillAnswers();
  }, 180_000);

  it('a page covered in lines shaped like a machine-readable zone reads at most the ceiling of zones', async () => {
    const zone = td3Lines({
      issuingState: 'NLD',
      surname: 'DE BRUIJN',
      givenNames: 'WILLEKE',
      documentNumber: 'SPECI2014',
      nationality: 'NLD',
      birthDate: '650310',
      sex: 'F',
      expiryDate: '340309',
    });
    const png = await renderPassportPage(zone, { height: 2400, repeat: 20 });
    const file = await folder.store('zones.png', 'image/png', png);
    const { codes } = await read(file);
    expect(codes).toBeGreaterThan(0);
    expect(codes).toBeLessThanOrEqual(maxZonesPerPage);
    await stillAnswers();
  }, 180_000);
});
