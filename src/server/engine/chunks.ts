/**
 * Cuts the pages of a run into chunks of at most `chunkSize` characters, the unit a
 * strategy works on and the run stores progress by.
 *
 * - Pages are packed whole into a chunk while they fit, separated by a blank line that
 *   belongs to no page; a page that does not fit starts the next chunk.
 * - A page longer than a chunk is cut at a line break when there is one in the second
 *   half of the chunk (a label and its value share a line), else at a space: a word is
 *   never split. (Only a "word" longer than
 *   a whole chunk, such as a pasted base64 blob, has to be cut inside.)
 * - Each chunk records which stretch of which page each part of its text is (`spans`), so
 *   an offset in a chunk leads back to file, page and offset in the page.
 * - Each span takes the boxes of its stretch of the page (`Chunk.boxes`), where the page
 *   has them, so a value's source can say where on the page it is printed.
 * - Pictures go with the chunk that holds their place in the page's text, and each counts
 *   as `imageCharacterCost` characters, so a chunk does not collect every page picture of
 *   a long document.
 *
 * The result depends only on the pages and the size, so a resumed run gets the same chunks.
 */
import { boxesBetween } from './geometry.js';
import type { Chunk, ChunkSpan, EmbeddedValue, PageImage, PageText, TextBox } from './types.js';

export const imageCharacterCost = 1000;
const pageSeparator = '\n\n';

export function chunkPages(pages: readonly PageText[], chunkSize: number): Chunk[] {
  const size = Math.max(1, Math.floor(chunkSize));
  const chunks: Chunk[] = [];
  const empty = () => ({
    text: '',
    spans: [] as ChunkSpan[],
    images: [] as PageImage[],
    boxes: [] as (TextBox[] | undefined)[],
    embedded: [] as EmbeddedValue[],
    cost: 0,
  });
  let current = empty();

  const flush = () => {
    if (current.spans.length === 0) return;
    const chunk: Chunk = { index: chunks.length, text: current.text, spans: current.spans };
    if (current.images.length > 0) chunk.images = current.images;
    if (current.boxes.some(Boolean)) chunk.boxes = current.boxes;
    if (current.embedded.length > 0) chunk.embedded = current.embedded;
    chunks.push(chunk);
    current = empty();
  };

  const append = (page: PageText, pageStart: number, length: number, images: PageImage[]) => {
    if (current.spans.length > 0) current.text += pageSeparator;
    current.spans.push({
      fileId: page.fileId,
      fileName: page.fileName,
      page: page.page,
      chunkStart: current.text.length,
      pageStart,
      length,
    });
    current.text += page.text.slice(pageStart, pageStart + length);
    current.boxes.push(page.boxes && boxesBetween(page.boxes, pageStart, pageStart + length));
    current.images.push(...images);
    // A document's embedded values go with the chunk that starts its first page.
    if (pageStart === 0 && page.embedded) current.embedded.push(...page.embedded);
    current.cost = current.text.length + current.images.length * imageCharacterCost;
  };

  for (const page of pages) {
    const images = page.images ?? [];
    if (page.text.trim() === '' && images.length === 0) continue;
    let start = 0;
    const end = page.text.length;
    for (;;) {
      const room = () =>
        size - current.cost - (current.spans.length > 0 ? pageSeparator.length : 0);
      const imagesFrom = (from: number, to: number, last: boolean) =>
        images.filter(
          (image) => image.offset >= from && (image.offset < to || (last && image.offset >= to)),
        );
      const restCost = end - start + imagesFrom(start, end, true).length * imageCharacterCost;
      if (restCost <= room()) {
        append(page, start, end - start, imagesFrom(start, end, true));
        break;
      }
      if (current.spans.length > 0 && restCost <= size) {
        // The rest of the page fits a fresh chunk: keep it whole rather than cut it.
        flush();
        continue;
      }
      if (room() <= 0 || (current.spans.length > 0 && room() < size / 5)) {
        flush();
        continue;
      }
      // Pictures take their share of the room, but never more than half of it, so that
      // a page crowded with pictures still moves on by whole words.
      const imagesCost = imagesFrom(start, start + room(), false).length * imageCharacterCost;
      const budget = Math.max(Math.floor(room() / 2), room() - imagesCost, 1);
      const cut = findCut(page.text, start, Math.min(end, start + budget));
      if (cut <= start) {
        // Not even one word fits what is left of this chunk.
        if (current.spans.length > 0) {
          flush();
          continue;
        }
      }
      const stop = cut > start ? cut : Math.min(end, start + budget);
      append(page, start, stop - start, imagesFrom(start, stop, false));
      flush();
      start = stop;
      while (start < end && /\s/.test(page.text[start]!)) start++;
      if (start >= end) {
        // Pictures placed in the whitespace that was skipped go with the next part.
        const left = images.filter((image) => image.offset >= stop);
        if (left.length > 0) append(page, end, 0, left);
        break;
      }
    }
  }
  flush();
  return chunks;
}

/**
 * Where to end a part of `text` that starts at `start` and may reach `limit`: at the
 * last line break in the second half, else at the last whitespace, so the part ends
 * between words. Returns `start` when there is no such place.
 */
function findCut(text: string, start: number, limit: number): number {
  if (limit >= text.length) return text.length;
  // Cutting at `limit` is fine when a word boundary is there already.
  if (/\s/.test(text[limit]!)) return trimEnd(text, start, limit);
  const floor = start + Math.floor((limit - start) / 2);
  const newline = text.lastIndexOf('\n', limit - 1);
  if (newline > floor) return trimEnd(text, start, newline);
  for (let index = limit - 1; index > start; index--) {
    if (/\s/.test(text[index]!)) return trimEnd(text, start, index);
  }
  return start;
}

function trimEnd(text: string, start: number, end: number): number {
  let stop = end;
  while (stop > start && /\s/.test(text[stop - 1]!)) stop--;
  return stop > start ? stop : end;
}
