import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildZip } from '../testing/build-documents.js';
import { invoiceFixture, sampleFiles } from '../../testing/sample-files.js';
import { sniffMediaType } from './recognise.js';

const directory = mkdtempSync(join(tmpdir(), 'extractor-sniff-'));

afterAll(() => rmSync(directory, { recursive: true, force: true }));

let counter = 0;
async function sniff(bytes: Uint8Array | string): Promise<string | undefined> {
  const path = join(directory, `sample-${counter++}`);
  writeFileSync(path, bytes);
  return sniffMediaType(path);
}

describe('sniffMediaType', () => {
  it('knows the accepted binary formats by their signatures', async () => {
    expect(await sniff(sampleFiles.pdf())).toBe('application/pdf');
    expect(await sniff(sampleFiles.png())).toBe('image/png');
    expect(await sniff(invoiceFixture('oyo.png'))).toBe('image/png');
    expect(await sniff(sampleFiles.jpeg())).toBe('image/jpeg');
    expect(await sniff(sampleFiles.webp())).toBe('image/webp');
    expect(await sniff(sampleFiles.tiff())).toBe('image/tiff');
    expect(await sniff(Buffer.from([0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 8]))).toBe('image/tiff');
  });

  it('tells Word and Excel documents from other ZIP archives by their parts', async () => {
    expect(await sniff(sampleFiles.docx())).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(await sniff(sampleFiles.xlsx())).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(await sniff(sampleFiles.zip())).toBeUndefined();
    expect(
      await sniff(
        buildZip({ 'META-INF/MANIFEST.MF': 'Manifest-Version: 1.0', 'a.class': 'cafebabe' }),
      ),
    ).toBeUndefined();
    expect(
      await sniff(buildZip({ '[Content_Types].xml': '<Types/>', 'ppt/presentation.xml': '<p/>' })),
    ).toBeUndefined();
  });

  it('tells text, CSV, Markdown and HTML apart by their content', async () => {
    expect(await sniff(invoiceFixture('Orlen.txt'))).toBe('text/plain');
    expect(await sniff('Invoice 42\nTotal: 12.50 EUR\n')).toBe('text/plain');
    expect(await sniff('number,total\n42,12.50\n43,"1,000.00"\n')).toBe('text/csv');
    expect(await sniff('# Invoice\n\n- one line\n- another\n')).toBe('text/markdown');
    expect(await sniff('<!doctype html><title>Invoice</title><p>42</p>')).toBe('text/html');
    expect(await sniff('\ufeffplain text after a byte order mark')).toBe('text/plain');
  });

  it('reads text whose sample ends in the middle of a multi-byte character', async () => {
    expect(await sniff('é'.repeat(5000))).toBe('text/plain');
  });

  it('refuses everything else, whatever it is called', async () => {
    const refused: [string, Uint8Array | string][] = [
      ['an empty file', ''],
      ['an ELF executable', sampleFiles.elf()],
      [
        'a Windows executable',
        Buffer.concat([Buffer.from('MZ'), Buffer.alloc(62), Buffer.from('PE\0\0')]),
      ],
      ['a GIF', sampleFiles.gif()],
      ['an SVG', sampleFiles.svg()],
      ['XML', '<?xml version="1.0"?><invoice/>'],
      ['binary with NUL bytes', Buffer.from([0x68, 0x69, 0, 0, 0x01, 0x02])],
      ['Latin-1 text that is not UTF-8', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x21])],
      ['UTF-16 text', Buffer.from('\ufeffhello', 'utf16le')],
      ['gzip', Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3])],
    ];
    for (const [what, bytes] of refused) expect(await sniff(bytes), what).toBeUndefined();
  });
});
