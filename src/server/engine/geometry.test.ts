/**
 * Where text is printed: the boxes the readers keep beside each page's text, and the boxes
 * a range of the text maps to. The PDF's boxes are compared with pdf.js's own text layer;
 * an image's with where the test drew each word, straight and askew (OCR reads an askew
 * picture turned level, and its boxes must come back to the picture as it was).
 */
import { createCanvas } from '@napi-rs/canvas';
import { getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { chunkPages } from './chunks.js';
import { readDocuments } from './documents.js';
import { boxesBetween, boxesOfRange } from './geometry.js';
import { sourceOf } from './sources.js';
import { buildDocx, buildPdf } from './testing/build-documents.js';
import { useSourceFolder } from './testing/source-files.js';
import { textContent } from './testing/invoice-fixtures.js';
import type { SourceBox, TextBox } from './types.js';

const folder = useSourceFolder('engine-geometry-');
const sourceFile = folder.store;

type Rect = Omit<SourceBox, 'page'>;

function overlapShare(box: Rect, truth: Rect): number {
  const width = Math.min(box.x + box.width, truth.x + truth.width) - Math.max(box.x, truth.x);
  const height = Math.min(box.y + box.height, truth.y + truth.height) - Math.max(box.y, truth.y);
  return width > 0 && height > 0 ? (width * height) / (truth.width * truth.height) : 0;
}

/** The boxes of the first place `value` is in the page's text. */
function boxesOf(text: string, boxes: TextBox[], value: string): SourceBox[] {
  const start = text.indexOf(value);
  expect(start, `"${value}" in the page's text`).toBeGreaterThanOrEqual(0);
  return boxesOfRange(boxes, 1, start, start + value.length);
}

describe('boxes of a range of text', () => {
  const line: TextBox[] = [
    { start: 0, end: 8, x: 0.1, y: 0.1, width: 0.08, height: 0.02 }, // "Invoice:"
    { start: 9, end: 12, x: 0.19, y: 0.1, width: 0.03, height: 0.02 }, // "ABC"
    { start: 13, end: 16, x: 0.23, y: 0.1, width: 0.03, height: 0.02 }, // "123"
    { start: 17, end: 21, x: 0.8, y: 0.1, width: 0.04, height: 0.02 }, // "Paid", a column away
    { start: 22, end: 26, x: 0.1, y: 0.13, width: 0.04, height: 0.02 }, // "Next" line
  ];

  it('merges the words of a value on one line into one box', () => {
    expect(boxesOfRange(line, 3, 9, 16)).toEqual([
      { page: 3, x: 0.19, y: 0.1, width: 0.07, height: 0.02 },
    ]);
  });

  it('keeps words a column apart and words on the next line in boxes of their own', () => {
    const boxes = boxesOfRange(line, 1, 13, 26);
    expect(boxes.map((box) => [box.x, box.y])).toEqual([
      [0.23, 0.1],
      [0.8, 0.1],
      [0.1, 0.13],
    ]);
  });

  it('takes the share of a box that the range covers, characters equally wide', () => {
    // "Invoice:" is 8 characters over 0.08: "voice" is characters 2 to 7.
    expect(boxesOfRange(line, 1, 2, 7)).toEqual([
      { page: 1, x: 0.12, y: 0.1, width: 0.05, height: 0.02 },
    ]);
  });

  it('finds the boxes that hold some of a range, and none outside the text', () => {
    expect(boxesBetween(line, 10, 14).map((box) => box.start)).toEqual([9, 13]);
    expect(boxesBetween(line, 8, 9)).toEqual([]);
    expect(boxesOfRange(line, 1, 30, 40)).toEqual([]);
  });
});

describe('boxes kept by the readers', () => {
  it('keeps where each piece of a PDF text layer is, as pdf.js places it', async () => {
    const lines = [
      'Invoice number: INV-2024-0042',
      'Invoice date: 12 March 2024',
      'Total due: 1,250.00 EUR',
    ];
    const bytes = buildPdf([{ lines }, { lines: ['Page two', 'Reference: REF-77'] }]);
    const file = await sourceFile('layer.pdf', 'application/pdf', bytes);
    const pages = await readDocuments([file], textContent, { cacheDir: folder.cacheDir });

    // The text layer's own positions: each line is one item, its baseline at 720 - 18 n
    // points from the bottom of a 612 x 792 page, in Helvetica 12 points high.
    const pdf = await getDocumentProxy(new Uint8Array(bytes));
    const items = (await (await pdf.getPage(1)).getTextContent()).items.flatMap((item) =>
      'str' in item ? [item] : [],
    );
    await pdf.destroy();
    for (const line of lines) {
      const item = items.find((candidate) => candidate.str === line)!;
      const left = item.transform[4] / 612;
      const right = (item.transform[4] + item.width) / 612;
      const baseline = (792 - item.transform[5]) / 792;
      const value = line.slice(line.indexOf(':') + 2);
      const [box, ...rest] = boxesOf(pages[0]!.text, pages[0]!.boxes!, value);
      expect(rest).toEqual([]);
      // Across the item from where the value starts to where the item ends, about as wide
      // as the value's share of the item's letters.
      expect(box!.x).toBeGreaterThan(left);
      expect(box!.x + box!.width).toBeCloseTo(right, 3);
      const share = value.length / line.length;
      expect(box!.width / (right - left)).toBeGreaterThan(share * 0.7);
      expect(box!.width / (right - left)).toBeLessThan(share * 1.3);
      // From the top of the capitals (0.72 of the size in Helvetica) to below the baseline, and
      // not into the line above, 18 points higher.
      expect(box!.y).toBeLessThanOrEqual(baseline - (0.7 * 12) / 792);
      expect(box!.y).toBeGreaterThan(baseline - 18 / 792);
      expect(box!.y + box!.height).toBeGreaterThan(baseline);
      expect(box!.y + box!.height).toBeLessThan(baseline + 6 / 792);
    }
    // The second page's boxes are its own.
    const [other] = boxesOf(pages[1]!.text, pages[1]!.boxes!, 'REF-77');
    expect(other!.y).toBeGreaterThan((792 - 702 - 12) / 792);
    expect(other!.y).toBeLessThan((792 - 702) / 792);
  });

  it('gives text formats no boxes', async () => {
    const docx = await sourceFile(
      'letter.docx',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      buildDocx([{ paragraph: 'Invoice number: D-1' }]),
    );
    const [page] = await readDocuments([docx], textContent, { cacheDir: folder.cacheDir });
    expect(page!.boxes).toBeUndefined();
    const [chunk] = chunkPages([page!], 4000);
    const start = chunk!.text.indexOf('D-1');
    expect(sourceOf(chunk!, start, start + 3)).toEqual({
      file: 'letter.docx',
      fileId: 'id-letter.docx',
      page: 1,
      offset: page!.text.indexOf('D-1'),
      text: 'D-1',
    });
  });

  it("keeps OCR's word boxes, straight and on a picture taken askew", async () => {
    const words = ['Invoice', 'number:', 'OCR-4471', 'Total:', '98.60'];
    for (const degrees of [0, 4]) {
      // Two lines of words drawn one by one, so the test knows where each one is.
      const canvas = createCanvas(1400, 700);
      const context = canvas.getContext('2d');
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, 1400, 700);
      context.translate(120, 160);
      context.rotate((degrees * Math.PI) / 180);
      context.fillStyle = '#000000';
      context.font = '44px "Liberation Sans", "DejaVu Sans", sans-serif';
      const truth = new Map<string, Rect>();
      const placements: [string, number, number][] = [
        ['Invoice', 0, 0],
        ['number:', 200, 0],
        ['OCR-4471', 420, 0],
        ['Total:', 0, 160],
        ['98.60', 420, 160],
      ];
      for (const [word, x, baseline] of placements) {
        context.fillText(word, x, baseline);
        const metrics = context.measureText(word);
        const corners = [
          [x, baseline - metrics.actualBoundingBoxAscent],
          [x + metrics.width, baseline - metrics.actualBoundingBoxAscent],
          [x, baseline + metrics.actualBoundingBoxDescent],
          [x + metrics.width, baseline + metrics.actualBoundingBoxDescent],
        ].map(([cx, cy]) => {
          const point = context.getTransform().transformPoint({ x: cx!, y: cy! });
          return [point.x / 1400, point.y / 700] as const;
        });
        const xs = corners.map(([cx]) => cx);
        const ys = corners.map(([, cy]) => cy);
        truth.set(word, {
          x: Math.min(...xs),
          y: Math.min(...ys),
          width: Math.max(...xs) - Math.min(...xs),
          height: Math.max(...ys) - Math.min(...ys),
        });
      }
      const file = await sourceFile(
        `words-${degrees}.png`,
        'image/png',
        await canvas.encode('png'),
      );
      const [page] = await readDocuments([file], textContent, { cacheDir: folder.cacheDir });
      for (const word of words) {
        const [box, ...rest] = boxesOf(page!.text, page!.boxes!, word);
        expect(rest).toEqual([]);
        const drawn = truth.get(word)!;
        // Most of the drawn word is under the box, and the box is not much larger.
        expect(overlapShare(box!, drawn), `${word} at ${degrees}°`).toBeGreaterThan(0.75);
        expect(box!.width * box!.height).toBeLessThan(drawn.width * drawn.height * 1.6);
      }
    }
  }, 60_000);
});
