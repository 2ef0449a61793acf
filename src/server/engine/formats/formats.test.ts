/**
 * The list of formats and the upload list agree: every media type the service accepts (and
 * the interface offers, `acceptAttribute` being the contract's types and extensions) has a
 * format that recognises, counts and reads it, and every type a format reads is accepted.
 * A file of each accepted type, built here, is recognised as that type, and the pages
 * counted for it are the pages read of it.
 */
import ExcelJS from 'exceljs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { acceptedExtensions, acceptedMediaTypes } from '../../../contract/resources.js';
import { readDocuments } from '../documents.js';
import { countPages, pageKindOf } from '../pages.js';
import { buildDocx, buildPdf, renderTextImage } from '../testing/build-documents.js';
import { useSourceFolder } from '../testing/source-files.js';
import type { ContentOptions } from '../types.js';
import { formatTypes } from './index.js';
import { sniffMediaType } from './recognise.js';

const sorted = (values: readonly string[]) => [...values].sort();

describe('the formats', () => {
  it('read every media type the upload accepts, and only those', () => {
    const read = formatTypes.map((type) => type.mediaType);
    expect(new Set(read).size).toBe(read.length);
    expect(sorted(read)).toEqual(sorted(acceptedMediaTypes));
  });

  it('name the file extensions the interface offers, and only those', () => {
    const named = formatTypes.flatMap((type) => type.extensions);
    expect(new Set(named).size).toBe(named.length);
    expect(sorted(named)).toEqual(sorted(acceptedExtensions));
  });

  it('each say how a file is recognised, how its pages are counted and how it is read', () => {
    for (const { mediaType, format, recognise } of formatTypes) {
      expect(Object.keys(recognise), mediaType).toHaveLength(1);
      expect(['type', 'bytes', 'opening', 'reading'], mediaType).toContain(format.pageCount.by);
      expect(typeof format.read, mediaType).toBe('function');
    }
  });
});

const xlsxType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const docxType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

async function workbookOfTwoSheets(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('Invoice').addRow(['Invoice number', 'INV-7']);
  workbook.addWorksheet('Items').addRow(['Widget', 3]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A small file of each accepted type, with how many pages a reader makes of it. */
const samples: Record<
  (typeof acceptedMediaTypes)[number],
  { name: string; pages: number; bytes: () => Promise<Buffer> | Buffer }
> = {
  'application/pdf': {
    name: 'two-pages.pdf',
    pages: 2,
    bytes: () => buildPdf([{ lines: ['Invoice INV-7'] }, { lines: ['Total 12.00'] }]),
  },
  'image/png': { name: 'scan.png', pages: 1, bytes: () => renderTextImage(['Invoice INV-7']) },
  'image/jpeg': {
    name: 'scan.jpg',
    pages: 1,
    bytes: () => renderTextImage(['Invoice INV-7'], { format: 'jpeg' }),
  },
  'image/webp': {
    name: 'scan.webp',
    pages: 1,
    bytes: () => renderTextImage(['Invoice INV-7'], { format: 'webp' }),
  },
  'image/tiff': {
    name: 'scan.tiff',
    pages: 1,
    bytes: async () =>
      sharp(await renderTextImage(['Invoice INV-7']))
        .tiff()
        .toBuffer(),
  },
  'text/plain': { name: 'notes.txt', pages: 3, bytes: () => Buffer.from('one\fTwo\fthree\n') },
  'text/csv': {
    name: 'items.csv',
    pages: 1,
    bytes: () => Buffer.from('item,amount\nWidget,3.00\nBolt,1.50\n'),
  },
  'text/markdown': {
    name: 'invoice.md',
    pages: 1,
    bytes: () => Buffer.from('# Invoice INV-7\n\n- Widget: 3.00\n'),
  },
  'text/html': {
    name: 'invoice.html',
    pages: 1,
    bytes: () => Buffer.from('<!doctype html><p>Invoice INV-7</p>'),
  },
  [docxType]: {
    name: 'invoice.docx',
    pages: 1,
    bytes: () => buildDocx([{ paragraph: 'Invoice INV-7' }]),
  },
  [xlsxType]: { name: 'invoice.xlsx', pages: 2, bytes: workbookOfTwoSheets },
};

// Pictures are not read by OCR here (slow, and beside the point): an image is one page
// whatever its text, and its picture is what the page holds.
const withoutOcr: ContentOptions = {
  includeText: false,
  includeEmbeddedImages: false,
  markEmbeddedImages: false,
  includePageImages: true,
  markPageImages: false,
};
const textOnly: ContentOptions = { ...withoutOcr, includeText: true, includePageImages: false };

describe('a file of each accepted type', () => {
  const folder = useSourceFolder('formats-');

  it.each(acceptedMediaTypes)('%s is recognised, counted and read alike', async (mediaType) => {
    const sample = samples[mediaType];
    const file = await folder.store(sample.name, mediaType, await sample.bytes());
    expect(await sniffMediaType(file.path)).toBe(mediaType);
    const io = { cacheDir: folder.cacheDir };
    expect(await countPages(file, io)).toBe(sample.pages);
    const picture = pageKindOf(mediaType) === 'image' && mediaType !== 'application/pdf';
    const pages = await readDocuments([file], picture ? withoutOcr : textOnly, io);
    expect(pages).toHaveLength(sample.pages);
  });
});
