/** From a place in a chunk's text back to the file, page and offset it came from. */
import type { Chunk, ValueSource } from './types.js';

/**
 * The source of chunk text [start, end): the page whose span holds `start` (a value never
 * spans two pages: pages are joined by a blank line, and values are read within a line).
 */
export function sourceOf(chunk: Chunk, start: number, end: number): ValueSource | undefined {
  const span = chunk.spans.find(
    (candidate) => start >= candidate.chunkStart && start < candidate.chunkStart + candidate.length,
  );
  if (!span) return undefined;
  return {
    file: span.fileName,
    fileId: span.fileId,
    page: span.page,
    offset: span.pageStart + (start - span.chunkStart),
    text: chunk.text.slice(start, Math.min(end, span.chunkStart + span.length)),
  };
}
