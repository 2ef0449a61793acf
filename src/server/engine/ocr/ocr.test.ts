/**
 * OCR is slow on two cores, so this file does few recognitions: the fixture screenshot,
 * two scanned pages, one blank scan, and one small image in a child process.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { chunkPages } from '../chunks.js';
import { readDocuments } from '../documents.js';
import { createStrategy } from '../index.js';
import { imageDimensions } from '../limits.js';
import { ocr } from './ocr.js';
import { prepareForOcr } from './prepare.js';
import { buildPdf, renderTextImage } from '../testing/build-documents.js';
import {
  demoSchema,
  extractWithLocalStrategy,
  isMatch,
  judgedFields,
  loadInvoiceFixtures,
  textContent,
} from '../testing/invoice-fixtures.js';
import { useSourceFolder } from '../testing/source-files.js';
import { ExtractionError } from '../types.js';

const here = fileURLToPath(new URL('.', import.meta.url));

const folder = useSourceFolder('engine-ocr-');
const sourceFile = folder.store;

/** Paper lit from one side: `lit` at the left edge, darkening to `shaded` at the right. */
function unevenlyLitPaper(width: number, height: number, lit: string, shaded: string) {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  const light = context.createLinearGradient(0, 0, width, 0);
  light.addColorStop(0, lit);
  light.addColorStop(1, shaded);
  context.fillStyle = light;
  context.fillRect(0, 0, width, height);
  return { canvas, context };
}

describe('OCR', () => {
  it('reads a screenshot of an invoice well enough for the local strategy to find its fields', async () => {
    const fixture = (await loadInvoiceFixtures()).find(
      (candidate) => candidate.file.name === 'FlipkartInvoice.png',
    )!;
    const { data } = await extractWithLocalStrategy(fixture.file, folder.cacheDir);
    for (const field of judgedFields) {
      expect(
        isMatch(field, data[field], fixture.expected[field]!),
        `${field}: ${JSON.stringify(data[field])}`,
      ).toBe(true);
    }
  });

  it('reads a PDF page that has no text layer by rendering it and recognising the text', async () => {
    // A Letter page scanned at 150 dpi: one picture filling the page, no text layer.
    const scan = await renderTextImage(
      ['Invoice number: SCAN-2024-77', 'Invoice date: 12 March 2024', 'Total due: 1,250.00 EUR'],
      {
        width: 1275,
        height: 1650,
        fontSize: 32,
        format: 'jpeg',
      },
    );
    const pdf = buildPdf([{ image: { jpeg: scan, width: 1275, height: 1650 } }]);
    const file = await sourceFile('scan.pdf', 'application/pdf', pdf);
    const [page] = await readDocuments([file], textContent, { cacheDir: folder.cacheDir });
    expect(page!.text).toMatch(/Invoice number: SCAN-2024-77/);
    const { data } = await extractWithLocalStrategy(file, folder.cacheDir);
    expect(data).toMatchObject({
      invoice_number: 'SCAN-2024-77',
      date: '2024-03-12',
      total: 1250,
      currency: 'EUR',
    });
  });

  it('lets the local strategy read the page pictures when the text is left out', async () => {
    const scan = await renderTextImage(['Invoice number: PIC-5', 'Total due: 7.00 EUR'], {
      width: 1275,
      height: 1650,
      fontSize: 32,
      format: 'jpeg',
    });
    const file = await sourceFile(
      'pictures.pdf',
      'application/pdf',
      buildPdf([{ image: { jpeg: scan, width: 1275, height: 1650 } }]),
    );
    const pages = await readDocuments(
      [file],
      { ...textContent, includeText: false, includePageImages: true },
      { cacheDir: folder.cacheDir },
    );
    const [chunk] = chunkPages(pages, 4000);
    expect(chunk!.text).toBe('');
    const extraction = await createStrategy('local', {
      baseUrl: undefined,
      apiKey: undefined,
      models: [],
      timeoutMs: 1000,
    }).extractChunk(chunk!, {
      schema: demoSchema,
      outputInstructions: '',
      model: 'local',
      merged: {},
      signal: new AbortController().signal,
    });
    expect(extraction.data).toMatchObject({ invoice_number: 'PIC-5', total: 7, currency: 'EUR' });
    expect(extraction.sources['/invoice_number']).toMatchObject({
      file: 'pictures.pdf',
      page: 1,
      offset: 0,
      text: 'PIC-5',
    });
  });

  it('reads a photographed receipt: faded print, a shadow across it, the lines sloping', async () => {
    // Grey print on paper lit unevenly from one side, photographed 5 degrees askew: what
    // a phone gives of a till receipt. Preparation evens the light, darkens the ink and
    // turns the lines level before tesseract reads them.
    const lines = [
      'KEDAI RUNCIT MAJU SDN BHD',
      'Date: 08/02/2023 14:05',
      'Invoice No: CS 24198',
      'SUBTOTAL              18.40',
      'GST 6%                 1.10',
      'TOTAL RM19.50',
      'CASH                  20.00',
      'CHANGE                 0.50',
    ];
    const { canvas, context } = unevenlyLitPaper(900, 1000, '#f4f4f0', '#45453f');
    context.translate(60, 80);
    context.rotate((5 * Math.PI) / 180);
    context.fillStyle = '#727272';
    context.font = '24px "DejaVu Sans Mono", monospace';
    lines.forEach((line, index) => context.fillText(line, 0, 40 + index * 70));
    const file = await sourceFile('receipt.jpg', 'image/jpeg', await canvas.encode('jpeg', 85));
    const { data } = await extractWithLocalStrategy(file, folder.cacheDir);
    expect(data).toMatchObject({ date: '2023-02-08', total: 19.5, currency: 'MYR' });
  });
});

describe("OCR: preparing images, empty scans and the engine's idle exit", () => {
  it('prepares an image for OCR: paper white in the shadow too, faded ink dark', async () => {
    const { canvas, context } = unevenlyLitPaper(1000, 600, '#f0f0f0', '#505050');
    context.fillStyle = '#909090';
    context.font = '40px "DejaVu Sans", sans-serif';
    for (let line = 0; line < 6; line++)
      context.fillText('TOTAL 19.50 CASH 20.00', 40, 80 + line * 90);
    const prepared = await loadImage(Buffer.from(await prepareForOcr(await canvas.encode('png'))));
    const check = createCanvas(prepared.width, prepared.height);
    const checkContext = check.getContext('2d');
    checkContext.drawImage(prepared, 0, 0);
    const { data, width, height } = checkContext.getImageData(
      0,
      0,
      prepared.width,
      prepared.height,
    );
    // The paper at the dark edge, in the gap under the last line, is white now.
    const edge = (width - 20 + Math.round(height * 0.97) * width) * 4;
    expect(data[edge]).toBeGreaterThan(220);
    // And the faded grey ink is near black.
    let darkest = 255;
    for (let index = 0; index < data.length; index += 4) darkest = Math.min(darkest, data[index]!);
    expect(darkest).toBeLessThan(40);
  });

  it('reduces print larger than tesseract needs, and still reads it', async () => {
    // A receipt photographed close up: capitals about 70 px high on an image already at
    // the width OCR works at. Tesseract reads best near 30 px, and every pixel more costs.
    const lines = ['TOTAL RM19.50', 'CASH RM20.00', 'CHANGE RM5.50', 'GST 6% RM1.10'];
    const large = await renderTextImage([...lines, ...lines], { width: 2000, fontSize: 96 });
    const reduced = imageDimensions(await prepareForOcr(large))!;
    expect(reduced.width).toBeLessThan(1300);
    expect(reduced.width).toBeGreaterThan(700);
    const { text } = await ocr.recognize(large);
    for (const line of lines) expect(text).toContain(line);
    // Print of an ordinary size keeps its pixels.
    const ordinary = await renderTextImage([...lines, ...lines], { width: 2000, fontSize: 32 });
    expect(imageDimensions(await prepareForOcr(ordinary))).toMatchObject({ width: 2000 });
  });

  it('says so when a scan holds no text at all', async () => {
    const canvas = createCanvas(400, 500);
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, 400, 500);
    const pdf = buildPdf([
      { image: { jpeg: await canvas.encode('jpeg'), width: 400, height: 500 } },
    ]);
    const file = await sourceFile('blank.pdf', 'application/pdf', pdf);
    const error = await readDocuments([file], textContent, { cacheDir: folder.cacheDir }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ExtractionError);
    expect(error).toMatchObject({
      message: 'blank.pdf has no text layer and OCR found no text',
      code: 'no_text',
    });
  });

  it('lets the process exit once OCR has been idle for a while', async () => {
    const image = join(folder.dir, 'hello.png');
    await writeFile(image, await renderTextImage(['Hello 42'], { width: 600 }));
    const script = join(folder.dir, 'ocr-then-idle.mts');
    await writeFile(
      script,
      [
        `import { readFile } from 'node:fs/promises';`,
        `import { ocr, setOcrIdleTime } from ${JSON.stringify(join(here, 'ocr.ts'))};`,
        `setOcrIdleTime(200);`,
        `const result = await ocr.recognize(await readFile(${JSON.stringify(image)}));`,
        `process.stdout.write(result.text);`,
      ].join('\n'),
    );
    const started = Date.now();
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: resolve(here, '../../../..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (data: Buffer) => (output += data.toString()));
    const code = await new Promise<number | null>((done) => {
      const guard = setTimeout(() => child.kill('SIGKILL'), 25_000);
      child.on('exit', (exitCode) => {
        clearTimeout(guard);
        done(exitCode);
      });
    });
    expect(code).toBe(0);
    expect(output).toContain('Hello 42');
    expect(Date.now() - started).toBeLessThan(25_000);
  }, 30_000);
});
