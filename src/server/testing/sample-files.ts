/** Small files of each kind, built byte by byte, for upload and sniffing tests. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildZip } from '../engine/testing/build-documents.js';

export const invoiceFixtures = join(import.meta.dirname, '../../../e2e/fixtures/invoices');

export function invoiceFixture(name: string): Buffer {
  return readFileSync(join(invoiceFixtures, name));
}

export const sampleFiles = {
  docx: () =>
    buildZip({
      '[Content_Types].xml': '<Types/>',
      '_rels/.rels': '<Relationships/>',
      'word/document.xml': '<w:document/>',
    }),
  xlsx: () =>
    buildZip({
      '[Content_Types].xml': '<Types/>',
      'xl/workbook.xml': '<workbook/>',
      'xl/worksheets/sheet1.xml': '<worksheet/>',
    }),
  zip: () => buildZip({ 'notes.txt': 'a plain archive' }),
  elf: () => Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(56)]),
  gif: () =>
    Buffer.concat([
      Buffer.from('GIF89a'),
      Buffer.from([1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0x3b]),
    ]),
  svg: () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
  jpeg: () => Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]),
  webp: () => Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]),
  tiff: () => Buffer.from([0x49, 0x49, 0x2a, 0, 8, 0, 0, 0]),
  pdf: () => invoiceFixture('oyo.pdf'),
  /** A 1×1 PNG, small enough for tests with a low upload limit. */
  png: () =>
    Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    ),
} as const;
