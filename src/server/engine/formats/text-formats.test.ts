/**
 * The text readers on what a hostile file may hold: each reads in time linear in its input.
 * Linearity is shown by growth, not by a clock limit: the same pattern sixteen times as long
 * must take well under the 256 times that a quadratic reader needs (the least CPU time of a
 * few tries each, so a busy machine does not decide). The bound, 100, leaves room for the garbage
 * collector, which works harder on larger inputs: a linear reader that allocates a string
 * per field measured up to 71 on a machine at load 10; the old regular-expression readers
 * measured 146 to 290 on HTML and ran for minutes on Markdown. The readers' ordinary output is tested through
 * readDocuments in documents.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv.js';
import { readHtml } from './html.js';
import { readMarkdown } from './markdown.js';
import type { ContentOptions } from '../types.js';

const marked: ContentOptions = {
  includeText: true,
  includeEmbeddedImages: true,
  markEmbeddedImages: true,
  includePageImages: false,
  markPageImages: false,
};

/** The least CPU time (ms) of a few reads: other processes' work on a busy machine is not ours. */
function fastest(read: () => unknown): number {
  let best = Infinity;
  for (let attempt = 0; attempt < 3; attempt++) {
    const started = process.cpuUsage();
    read();
    const { user, system } = process.cpuUsage(started);
    best = Math.min(best, (user + system) / 1000);
  }
  return best;
}

/** How much longer sixteen times the input takes: about 16 when linear, 256 when quadratic. */
function growth(
  build: (size: number) => string,
  read: (text: string) => unknown,
  size = 10_000,
): number {
  const small = build(size);
  const large = build(size * 16);
  read(small); // warm-up: the parsers' first call compiles their code
  return (
    fastest(() => read(large)) /
    Math.max(
      fastest(() => read(small)),
      0.5,
    )
  );
}

const patterns: Record<string, (size: number) => string> = {
  'unclosed link brackets on one line': (size) => '[a'.repeat(size / 2),
  'emphasis marks that never close': (size) => '**a _b '.repeat(size / 7),
  'a table row of many cells': (size) => `|${' x |'.repeat(size / 4)}\n|${'---|'.repeat(size / 4)}`,
  'many short paragraphs': (size) => 'Total: 5\n\n'.repeat(size / 10),
};

describe('readMarkdown', () => {
  it.each(Object.entries(patterns))('is linear on %s', (_, build) => {
    expect(growth(build, (text) => readMarkdown(text, 'x.md', marked))).toBeLessThan(100);
  });

  it('keeps list markers, code and links, and the lines blocks had', () => {
    const source =
      'Items:\n\n- Cable `C-1`\n- Plug\n\n1. [Terms](https://example.com/t)\n\n```\nA  B\n```\n';
    expect(readMarkdown(source, 'x.md', marked)[0]!.text).toBe(
      'Items:\n\n- Cable C-1\n- Plug\n\n1. Terms (https://example.com/t)\n\nA  B\n',
    );
  });

  it('marks pictures where they sit', () => {
    expect(readMarkdown('Logo ![ACME](logo.png) here', 'x.md', marked)[0]!.text).toBe(
      'Logo [image: x.md, image 1 (ACME)] here',
    );
  });
});

describe('readHtml', () => {
  const html: Record<string, (size: number) => string> = {
    'many paragraphs': (size) => '<p>Total: 5</p>'.repeat(size / 15),
    'many cells in one row': (size) => `<table><tr>${'<td>x</td>'.repeat(size / 10)}</tr></table>`,
    'many line breaks': (size) => 'a<br>'.repeat(size / 5),
    'unclosed tags': (size) => '<div a="'.repeat(size / 8),
    // htmlparser2, which read HTML before, took 11 s over 100,000 of these (0.5 MB).
    'deeply nested elements': (size) => `${'<div>'.repeat(size / 5)}x`,
    'end tags of elements never opened': (size) =>
      `${'<div>'.repeat(size / 20)}${'</span>'.repeat(size / 10)}`,
  };

  it.each(Object.entries(html))('is linear on %s', (_, build) => {
    expect(growth(build, (text) => readHtml(text, 'x.html', marked))).toBeLessThan(100);
  });

  it('keeps <pre> lines, drops what a browser does not show, and finds inline pictures', () => {
    const pixel =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const [page] = readHtml(
      `<svg/><p>Net&nbsp;total</p><pre>A   1\nB   2</pre><noscript>x</noscript><img alt="Stamp" src="data:image/png;base64,${pixel}"><p>End</p>`,
      'x.html',
      marked,
    );
    expect(page!.text).toBe('Net\u00a0total\nA   1\nB   2\n[image: x.html, image 1 (Stamp)]\nEnd');
    expect(page!.images).toHaveLength(1);
    expect(page!.text.slice(page!.images[0]!.offset)).toMatch(/^\[image: x\.html, image 1/);
  });
});

describe('parseCsv', () => {
  it('is linear on one long quoted field and on many rows', () => {
    expect(growth((size) => `"${'a""'.repeat(size / 3)}"`, parseCsv, 100_000)).toBeLessThan(100);
    expect(growth((size) => 'a,b,c\n'.repeat(size / 6), parseCsv, 100_000)).toBeLessThan(100);
  });

  it('reads quotes, doubled quotes, empty fields and a last line without a break', () => {
    expect(parseCsv('a,"b,""c""",\n,x\n"multi\nline",y')).toEqual([
      ['a', 'b,"c"', ''],
      ['', 'x'],
      ['multi\nline', 'y'],
    ]);
  });
});
