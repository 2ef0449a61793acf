/** From a place in a chunk's text back to the file, page and offset it came from. */
import { boxesOfRange } from './geometry.js';
import type { Chunk, ValueSource } from './types.js';

/**
 * The source of chunk text [start, end): the page whose span holds `start` (a value never
 * spans two pages: pages are joined by a blank line, and values are read within a line).
 */
export function sourceOf(chunk: Chunk, start: number, end: number): ValueSource | undefined {
  const index = chunk.spans.findIndex(
    (candidate) => start >= candidate.chunkStart && start < candidate.chunkStart + candidate.length,
  );
  const span = chunk.spans[index];
  if (!span) return undefined;
  const text = chunk.text.slice(start, Math.min(end, span.chunkStart + span.length));
  const offset = span.pageStart + (start - span.chunkStart);
  const source: ValueSource = {
    file: span.fileName,
    fileId: span.fileId,
    page: span.page,
    offset,
    text,
  };
  // Pages that are pictures say where the value is printed; text formats do not.
  const boxes = chunk.boxes?.[index];
  if (boxes) source.boxes = boxesOfRange(boxes, span.page, offset, offset + text.length);
  return source;
}
