import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkPages } from './chunks.js';
import { sourceOf } from './sources.js';
import type { Chunk, PageImage, PageText, TextBox } from './types.js';

const page = (text: string, number = 1, fileId = 'file-1', images?: PageImage[]): PageText => ({
  fileId,
  fileName: `${fileId}.pdf`,
  page: number,
  text,
  ...(images ? { images } : {}),
});

const image = (offset: number, label = `picture at ${offset}`): PageImage => ({
  kind: 'embedded',
  label,
  mediaType: 'image/png',
  data: 'iVBORw0KGgo=',
  width: 1,
  height: 1,
  offset,
});

/** Every span's text in the chunk is the same text in its page. */
function expectSpansTrue(chunks: Chunk[], pages: PageText[]): void {
  for (const chunk of chunks) {
    for (const span of chunk.spans) {
      const source = pages.find(
        (candidate) => candidate.fileId === span.fileId && candidate.page === span.page,
      )!;
      expect(chunk.text.slice(span.chunkStart, span.chunkStart + span.length)).toBe(
        source.text.slice(span.pageStart, span.pageStart + span.length),
      );
    }
  }
}

describe('chunkPages', () => {
  it('packs whole pages into a chunk while they fit, and starts a new chunk for the next', () => {
    const pages = [
      page('Invoice 1 first page', 1),
      page('second page', 2),
      page('x'.repeat(30), 3),
    ];
    const chunks = chunkPages(pages, 40);
    expect(chunks.map((chunk) => chunk.text)).toEqual([
      'Invoice 1 first page\n\nsecond page',
      'x'.repeat(30),
    ]);
    expect(chunks[0]!.spans.map((span) => [span.page, span.chunkStart, span.length])).toEqual([
      [1, 0, 20],
      [2, 22, 11],
    ]);
    expect(chunks.map((chunk) => chunk.index)).toEqual([0, 1]);
  });

  it('cuts a long page between words, preferring a line break, and keeps offsets into the page', () => {
    const text = 'Invoice number 42\nDate 2024-01-31\nTotal 1,234.50 EUR due in thirty days';
    const pages = [page(text)];
    const chunks = chunkPages(pages, 25);
    for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(25);
    expect(chunks[0]!.text).toBe('Invoice number 42');
    expect(
      chunks
        .map((chunk) => chunk.text)
        .join(' ')
        .split(/\s+/),
    ).toEqual(text.split(/\s+/));
    expectSpansTrue(chunks, pages);
    expect(chunks[1]!.spans[0]!.pageStart).toBe(text.indexOf('Date'));
  });

  it('never splits a word, never exceeds the size, and loses no text (any pages, any size)', () => {
    const word = fc.stringMatching(/^[A-Za-z0-9€.,-]{1,12}$/);
    const textOf = fc
      .array(fc.tuple(word, fc.constantFrom(' ', '\n', '  ', '\t')), {
        minLength: 1,
        maxLength: 60,
      })
      .map((parts) =>
        parts
          .map(([w, gap]) => w + gap)
          .join('')
          .trimEnd(),
      );
    fc.assert(
      fc.property(
        fc.array(textOf, { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 12, max: 300 }),
        (texts, size) => {
          const pages = texts.map((text, index) => page(text, index + 1));
          const chunks = chunkPages(pages, size);
          const words = (text: string) => text.split(/\s+/).filter(Boolean);
          for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(size);
          expectSpansTrue(chunks, pages);
          // Each page's words, read back from the spans in order, are the page's words.
          for (const source of pages) {
            const spans = chunks.flatMap((chunk) =>
              chunk.spans
                .filter((span) => span.page === source.page)
                .map((span) => ({ chunk, span })),
            );
            const readBack = spans
              .map(({ chunk, span }) =>
                chunk.text.slice(span.chunkStart, span.chunkStart + span.length),
              )
              .join(' ');
            expect(words(readBack)).toEqual(words(source.text));
          }
          expect(chunkPages(pages, size)).toEqual(chunks); // deterministic: a resumed run gets the same chunks
        },
      ),
      { numRuns: 150 },
    );
  });

  it('gives each span the boxes of its stretch, so a word found in a chunk has its own box', () => {
    const word = fc.stringMatching(/^[A-Za-z0-9]{1,10}$/);
    fc.assert(
      fc.property(
        fc.array(fc.array(word, { minLength: 1, maxLength: 40 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 12, max: 200 }),
        (pageWords, size) => {
          // Each word a box of its own, one word after the other down the page.
          const pages = pageWords.map((words, index) => {
            const boxes: TextBox[] = [];
            let text = '';
            for (const [position, word] of words.entries()) {
              if (text !== '') text += position % 5 === 0 ? '\n' : ' ';
              const y = Math.round((position / words.length) * 10_000) / 10_000;
              boxes.push({
                start: text.length,
                end: text.length + word.length,
                x: 0.1,
                y,
                width: 0.2,
                height: 0.01,
              });
              text += word;
            }
            return { ...page(text, index + 1), boxes };
          });
          for (const chunk of chunkPages(pages, size)) {
            for (const [index, span] of chunk.spans.entries()) {
              const boxes = pages[span.page - 1]!.boxes;
              expect(chunk.boxes![index]).toEqual(
                boxes.filter(
                  (box) => box.end > span.pageStart && box.start < span.pageStart + span.length,
                ),
              );
              for (const box of chunk.boxes![index]!) {
                // A word a chunk holds whole: its source is the word's own box.
                const start = span.chunkStart + box.start - span.pageStart;
                if (box.start < span.pageStart || box.end > span.pageStart + span.length) continue;
                expect(sourceOf(chunk, start, start + box.end - box.start)?.boxes).toEqual([
                  { page: span.page, x: box.x, y: box.y, width: box.width, height: box.height },
                ]);
              }
            }
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('chunkPages at the edges', () => {
  it('cuts inside a word only when the word alone is longer than a chunk', () => {
    const blob = 'A'.repeat(50);
    const chunks = chunkPages([page(`start ${blob} end`)], 20);
    expect(chunks.map((chunk) => chunk.text)).toEqual([
      'start',
      'A'.repeat(20),
      'A'.repeat(20),
      'A'.repeat(10) + ' end',
    ]);
  });

  it('skips empty pages but keeps a page that carries only pictures', () => {
    const pictures = [image(0, 'scan page 2')];
    const chunks = chunkPages([page('   ', 1), page('', 2, 'file-1', pictures)], 4000);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.images).toEqual(pictures);
    expect(chunks[0]!.spans).toEqual([
      { fileId: 'file-1', fileName: 'file-1.pdf', page: 2, chunkStart: 0, pageStart: 0, length: 0 },
    ]);
  });

  it('sends each picture with the chunk that holds its place, and counts it towards the size', () => {
    const text = `${'word '.repeat(100)}end`;
    const early = image(10, 'early');
    const late = image(text.length - 2, 'late');
    const chunks = chunkPages([page(text, 1, 'file-1', [early, late])], 300);
    const holder = (label: string) =>
      chunks.find((chunk) => chunk.images?.some((candidate) => candidate.label === label))!;
    const spanOf = (chunk: Chunk) => chunk.spans[0]!;
    expect(spanOf(holder('early')).pageStart).toBeLessThanOrEqual(10);
    expect(spanOf(holder('late')).pageStart + spanOf(holder('late')).length).toBeGreaterThanOrEqual(
      text.length - 2,
    );
    // The early picture costs more than the chunk holds; it takes half the room, no more.
    expect(chunks[0]!.text.length).toBeLessThanOrEqual(150);
    const pages = chunkPages([page('a b', 1, 'file-1', [image(0), image(1), image(2)])], 4000);
    expect(pages).toHaveLength(1);
    const many = chunkPages(
      Array.from({ length: 6 }, (_, index) => page('', index + 1, 'file-1', [image(0)])),
      2500,
    );
    expect(many.map((chunk) => chunk.images?.length)).toEqual([2, 2, 2]);
  });
});
