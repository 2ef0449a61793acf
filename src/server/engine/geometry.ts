/**
 * Where text is printed on a page. The readers of pages that are pictures (PDFs, images)
 * keep, beside each page's text, the box of every piece of it (a PDF's text item, an OCR
 * word) with the range of the text it became (`TextBox`). A value's source, a range of the
 * page's text, then maps to the boxes of the words it spans (`boxesOfRange`), which is
 * what a reviewer is shown over the page.
 *
 * Boxes are in fractions of the page (0 to 1 from its top-left corner), so that they fit
 * the page drawn at any size, and rounded to 1/10,000 of it (a tenth of a pixel on a page
 * 1000 pixels wide), which keeps the cached pages small.
 */
import type { LaidOutPiece } from './layout.js';
import type { SourceBox, TextBox } from './types.js';

const round = (value: number) => Math.round(value * 10_000) / 10_000;
const clamp = (value: number) => Math.min(1, Math.max(0, value));

/** A box clamped to the page and rounded; `undefined` when nothing of it is on the page. */
function onPage(
  left: number,
  top: number,
  right: number,
  bottom: number,
): Omit<SourceBox, 'page'> | undefined {
  const x = round(clamp(left));
  const y = round(clamp(top));
  const width = round(clamp(right) - x);
  const height = round(clamp(bottom) - y);
  return width > 0 && height > 0 ? { x, y, width, height } : undefined;
}

/**
 * The boxes of laid-out pieces on a page `pageWidth` × `pageHeight` (in the pieces' units).
 * `transform` maps a point of the pieces to the page first (an OCR'd image that was
 * turned upright before it was read).
 */
export function boxesOfPieces(
  placed: readonly LaidOutPiece[],
  pageWidth: number,
  pageHeight: number,
  transform?: (x: number, y: number) => [number, number],
): TextBox[] {
  const boxes: TextBox[] = [];
  if (!(pageWidth > 0 && pageHeight > 0)) return boxes;
  for (const { piece, start, end } of placed) {
    const top = piece.top ?? piece.y - piece.height / 2;
    const bottom = piece.bottom ?? piece.y + piece.height / 2;
    let corners: [number, number][] = [
      [piece.x, top],
      [piece.x + piece.width, top],
      [piece.x, bottom],
      [piece.x + piece.width, bottom],
    ];
    if (transform) corners = corners.map(([x, y]) => transform(x, y));
    const xs = corners.map(([x]) => x / pageWidth);
    const ys = corners.map(([, y]) => y / pageHeight);
    const box = onPage(Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys));
    if (box) boxes.push({ start, end, ...box });
  }
  return boxes;
}

/** The same boxes for the text moved `by` characters (a marker put before it). */
export function shiftBoxes(boxes: readonly TextBox[], by: number): TextBox[] {
  return boxes.map((box) => ({ ...box, start: box.start + by, end: box.end + by }));
}

/** Index of the first box that ends after `offset` (boxes are in the order of the text). */
function firstEndingAfter(boxes: readonly TextBox[], offset: number): number {
  let low = 0;
  let high = boxes.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (boxes[middle]!.end <= offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The boxes that hold some of text [start, end). */
export function boxesBetween(boxes: readonly TextBox[], start: number, end: number): TextBox[] {
  const found: TextBox[] = [];
  for (let index = firstEndingAfter(boxes, start); index < boxes.length; index++) {
    const box = boxes[index]!;
    if (box.start >= end) break;
    found.push(box);
  }
  return found;
}

/** Words further apart than this many of their characters are not merged into one box. */
const wordGapCharacters = 2;

/**
 * Where text [start, end) of a page is printed: the part of each box that holds it
 * (characters taken as equally wide within a box), with neighbours on one line merged, so
 * that a value of three words is one box and a value over two lines is two.
 */
export function boxesOfRange(
  boxes: readonly TextBox[],
  page: number,
  start: number,
  end: number,
): SourceBox[] {
  const parts: (SourceBox & { charWidth: number })[] = [];
  for (const box of boxesBetween(boxes, start, end)) {
    const length = box.end - box.start;
    if (length <= 0) continue;
    const from = (Math.max(start, box.start) - box.start) / length;
    const to = (Math.min(end, box.end) - box.start) / length;
    const part = onPage(
      box.x + box.width * from,
      box.y,
      box.x + box.width * to,
      box.y + box.height,
    );
    if (!part) continue;
    const charWidth = box.width / length;
    const previous = parts[parts.length - 1];
    if (previous && sameLine(previous, part, Math.max(previous.charWidth, charWidth))) {
      const right = Math.max(previous.x + previous.width, part.x + part.width);
      const bottom = Math.max(previous.y + previous.height, part.y + part.height);
      previous.x = Math.min(previous.x, part.x);
      previous.y = Math.min(previous.y, part.y);
      previous.width = round(right - previous.x);
      previous.height = round(bottom - previous.y);
      previous.charWidth = Math.max(previous.charWidth, charWidth);
    } else parts.push({ page, ...part, charWidth });
  }
  return parts.map(({ charWidth: _width, ...box }) => box);
}

/** A word printed on a page: its text and where it is, in fractions of the page. */
export interface PageWord {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The words of a page (runs of text between spaces) with the box of each, for a person who
 * picks words on the picture of the page: the same boxes as a value's source
 * (`boxesOfRange`), so what is picked lines up with what is highlighted. Text without a box
 * (a marker the engine put in) is not a word of the page.
 */
export function wordsOfPage(text: string, boxes: readonly TextBox[]): PageWord[] {
  const words: PageWord[] = [];
  for (const match of text.matchAll(/\S+/g)) {
    const [box, ...more] = boxesOfRange(boxes, 1, match.index, match.index + match[0].length);
    if (!box) continue;
    // A word split over two boxes (a hyphenated line end) is still one word: their union.
    const right = Math.max(box.x + box.width, ...more.map((each) => each.x + each.width));
    const bottom = Math.max(box.y + box.height, ...more.map((each) => each.y + each.height));
    const x = Math.min(box.x, ...more.map((each) => each.x));
    const y = Math.min(box.y, ...more.map((each) => each.y));
    words.push({ text: match[0], x, y, width: round(right - x), height: round(bottom - y) });
  }
  return words;
}

/** Two boxes side by side on one line, no further apart than a word space or two. */
function sameLine(a: Omit<SourceBox, 'page'>, b: Omit<SourceBox, 'page'>, charWidth: number) {
  const overlap = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  const gap = Math.max(a.x, b.x) - Math.min(a.x + a.width, b.x + b.width);
  return overlap > Math.min(a.height, b.height) / 2 && gap <= charWidth * wordGapCharacters;
}
