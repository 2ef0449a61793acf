import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { readDocuments } from './documents.js';
import {
  buildDocx,
  buildEncryptedPdf,
  buildPdf,
  buildZip,
  renderTextImage,
} from './testing/build-documents.js';
import { useSourceFolder } from './testing/source-files.js';
import { ExtractionError, type ContentOptions, type SourceFile } from './types.js';

const textOnly: ContentOptions = {
  includeText: true,
  includeEmbeddedImages: false,
  markEmbeddedImages: false,
  includePageImages: false,
  markPageImages: false,
};

const docxType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const xlsxType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const folder = useSourceFolder('engine-documents-');
const store = folder.store;

async function read(file: SourceFile, options: ContentOptions = textOnly) {
  return readDocuments([file], options, { cacheDir: folder.cacheDir });
}

/** A small red square as PNG, the kind of picture a document embeds. */
async function redSquare(): Promise<Buffer> {
  const canvas = createCanvas(40, 40);
  const context = canvas.getContext('2d');
  context.fillStyle = '#d00';
  context.fillRect(0, 0, 40, 40);
  return canvas.encode('png');
}

describe('readDocuments', () => {
  it('reads plain text, with a form feed starting a new page', async () => {
    const pages = await read(
      await store('note.txt', 'text/plain', '\ufeffInvoice 7\r\nTotal 5.00\fPage two'),
    );
    expect(pages).toEqual([
      { fileId: 'id-note.txt', fileName: 'note.txt', page: 1, text: 'Invoice 7\nTotal 5.00' },
      { fileId: 'id-note.txt', fileName: 'note.txt', page: 2, text: 'Page two' },
    ]);
  });

  it('reads CSV as one tab-separated line per record, quotes and delimiters resolved', async () => {
    const csv = 'Description;Qty;Amount\n"Cable; 2 m";1;"5,00"\n"Plug ""EU""";2;3,50\n';
    const [page] = await read(await store('items.csv', 'text/csv', csv));
    expect(page!.text).toBe('Description\tQty\tAmount\nCable; 2 m\t1\t5,00\nPlug "EU"\t2\t3,50');
  });

  it('reads Markdown without its markup, tables as tab-separated rows, underscores in words kept', async () => {
    const markdown =
      '# Invoice **INV_2024_01**\n\nSee [terms](https://example.com/terms).\n\n| Item | Amount |\n|---|---:|\n| Cable | 5.00 |\n';
    const [page] = await read(await store('invoice.md', 'text/markdown', markdown));
    expect(page!.text).toBe(
      'Invoice INV_2024_01\n\nSee terms (https://example.com/terms).\n\nItem\tAmount\nCable\t5.00\n',
    );
  });

  it('reads HTML as the text a browser shows: no scripts or styles, blocks on lines, cells tab-separated, entities decoded', async () => {
    const html = `<!doctype html><html><head><title>x</title><style>p{color:red}</style></head><body>
      <h1>Rechnung&nbsp;Nr.&#160;2024-17</h1><p>Datum: 03.08.2014<br>Betrag: 1.234,50&nbsp;&euro;</p>
      <script>document.write('Total 999')</script><!-- Total 888 -->
      <table><tr><th>Artikel</th><th>Menge</th></tr><tr><td>Kabel &amp; Stecker</td><td>2</td></tr></table>
      <ul><li>first</li><li>second</li></ul></body></html>`;
    const [page] = await read(await store('invoice.html', 'text/html', html));
    expect(page!.text).toBe(
      'Rechnung\u00a0Nr.\u00a02024-17\nDatum: 03.08.2014\nBetrag: 1.234,50\u00a0€\nArtikel\tMenge\nKabel & Stecker\t2\n- first\n- second',
    );
  });

  it('reads DOCX paragraphs and tables, and its pictures when asked', async () => {
    const docx = buildDocx([
      { paragraph: 'Factuurnummer: 2024-0042' },
      {
        table: [
          ['Omschrijving', 'Aantal', 'Bedrag'],
          ['Kabel', '2', '€ 10,00'],
        ],
      },
      { image: await redSquare() },
      { paragraph: 'Totaal € 10,00' },
    ]);
    const file = await store(
      'factuur.docx',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      docx,
    );
    const [plain] = await read(file);
    expect(plain!.text).toBe(
      'Factuurnummer: 2024-0042\nOmschrijving\tAantal\tBedrag\nKabel\t2\t€ 10,00\nTotaal € 10,00',
    );
    expect(plain!.images).toBeUndefined();

    const [withImages] = await read(file, {
      ...textOnly,
      includeEmbeddedImages: true,
      markEmbeddedImages: true,
    });
    expect(withImages!.text).toContain('Kabel\t2\t€ 10,00\n[image: factuur.docx, image 1]\nTotaal');
    expect(withImages!.images).toHaveLength(1);
    const image = withImages!.images![0]!;
    expect(image).toMatchObject({
      kind: 'embedded',
      label: 'factuur.docx, image 1',
      mediaType: 'image/png',
      width: 40,
      height: 40,
    });
    expect(withImages!.text.slice(image.offset)).toMatch(/^\[image: factuur\.docx, image 1\]/);
  });

  it('reads XLSX as one page per visible sheet, one line of tab-separated cells per row', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Invoice');
    sheet.addRow(['Invoice number', 'INV-9']);
    sheet.addRow(['Date', new Date(Date.UTC(2024, 2, 31))]);
    sheet.addRow([]);
    sheet.addRow(['Description', 'Quantity', 'Unit price', 'Amount']);
    sheet.addRow(['Cable', 2, 2.5, { formula: 'B5*C5', result: 5 }]);
    workbook.addWorksheet('Notes').addRow(['Thank you']);
    workbook.addWorksheet('Hidden', { state: 'hidden' }).addRow(['secret']);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const pages = await read(
      await store(
        'invoice.xlsx',
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        bytes,
      ),
    );
    expect(pages.map((page) => page.text)).toEqual([
      'Invoice number\tINV-9\nDate\t2024-03-31\n\nDescription\tQuantity\tUnit price\tAmount\nCable\t2\t2.5\t5',
      'Thank you',
    ]);
    expect(pages.map((page) => page.page)).toEqual([1, 2]);
  });

  it('reads a workbook whose drawing part holds a chart’s shapes rather than pictures', async () => {
    // Excel writes the shapes drawn on a chart as xl/drawings/drawingN.xml with a
    // c:userShapes root (and its own relationships); exceljs 4.4 took such a file for
    // damaged ("reading 'anchors'").
    const xml = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
    const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
    const relationships = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
    const bytes = buildZip({
      '[Content_Types].xml': `${xml}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/drawings/drawing1.xml" ContentType="application/vnd.openxmlformats-officedocument.drawingml.chartshapes+xml"/></Types>`,
      '_rels/.rels': `${xml}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${relationships}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      'xl/workbook.xml': `${xml}<workbook xmlns="${main}" xmlns:r="${relationships}"><sheets><sheet name="Invoice" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      'xl/_rels/workbook.xml.rels': `${xml}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${relationships}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
      'xl/worksheets/sheet1.xml': `${xml}<worksheet xmlns="${main}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Total</t></is></c><c r="B1"><v>42.5</v></c></row></sheetData></worksheet>`,
      'xl/drawings/_rels/drawing1.xml.rels': `${xml}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>`,
      'xl/drawings/drawing1.xml': `${xml}<c:userShapes xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:cdr="http://schemas.openxmlformats.org/drawingml/2006/chartDrawing"><cdr:relSizeAnchor><cdr:from><cdr:x>0.1</cdr:x><cdr:y>0.1</cdr:y></cdr:from><cdr:to><cdr:x>0.3</cdr:x><cdr:y>0.2</cdr:y></cdr:to></cdr:relSizeAnchor></c:userShapes>`,
    });
    const pages = await read(
      await store(
        'with-chart-shapes.xlsx',
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        bytes,
      ),
    );
    expect(pages.map((page) => page.text)).toEqual(['Total\t42.5']);
  });
});

describe('readDocuments on PDFs', () => {
  it('reads a hyphen that the font’s ToUnicode map gives as U+0000 as a hyphen', async () => {
    const pdf = buildPdf([
      {
        lines: ['Invoice number: B172FB37-0003', 'Total - 12.50'],
        font: { toUnicode: { '-': '\u0000' } },
      },
    ]);
    const [page] = await read(await store('null-hyphen.pdf', 'application/pdf', pdf));
    expect(page!.text).toBe('Invoice number: B172FB37-0003\nTotal 12.50');
  });

  it('renders a page set in a Type 3 font with its glyphs (Node 20 lacks transferToFixedLength)', async () => {
    const pdf = buildPdf([{ lines: ['Boxes drawn by the document itself'], font: 'type3' }]);
    const [page] = await read(await store('type3.pdf', 'application/pdf', pdf), {
      ...textOnly,
      includePageImages: true,
    });
    const picture = await loadImage(Buffer.from(page!.images![0]!.data, 'base64'));
    const canvas = createCanvas(picture.width, picture.height);
    const context = canvas.getContext('2d');
    context.drawImage(picture, 0, 0);
    const pixels = context.getImageData(0, 0, picture.width, picture.height).data;
    let dark = 0;
    for (let index = 0; index < pixels.length; index += 4) if (pixels[index]! < 128) dark++;
    // A line of 34 boxes of 12 points at 1200 px for 612 points: thousands of dark pixels.
    expect(dark).toBeGreaterThan(5000);
  });

  it('reads a PDF’s text layer page by page, laid out as on the page', async () => {
    const pdf = buildPdf([
      { lines: ['Invoice number: 42-A', 'Total due: 12.50 EUR'] },
      { lines: ['Second page, terms and conditions'] },
    ]);
    const pages = await read(await store('two-pages.pdf', 'application/pdf', pdf));
    expect(pages.map((page) => [page.page, page.text])).toEqual([
      [1, 'Invoice number: 42-A\nTotal due: 12.50 EUR'],
      [2, 'Second page, terms and conditions'],
    ]);
  });

  it('renders PDF pages as pictures and marks them when asked', async () => {
    const pdf = buildPdf([{ lines: ['Invoice 1 for services rendered'] }]);
    const [page] = await read(await store('render.pdf', 'application/pdf', pdf), {
      ...textOnly,
      includePageImages: true,
      markPageImages: true,
    });
    expect(page!.text).toBe('[page image: render.pdf, page 1]\nInvoice 1 for services rendered');
    expect(page!.images).toHaveLength(1);
    const image = page!.images![0]!;
    expect(image).toMatchObject({
      kind: 'page',
      label: 'render.pdf, page 1',
      mediaType: 'image/png',
      width: 1200,
      offset: 0,
    });
    expect(Buffer.from(image.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
  });

  it('finds the pictures embedded in a PDF page and marks where they sit', async () => {
    const canvas = createCanvas(60, 30);
    const context = canvas.getContext('2d');
    context.fillStyle = '#04a';
    context.fillRect(0, 0, 60, 30);
    const jpeg = await canvas.encode('jpeg');
    // The picture sits between the two lines of text (y from the bottom of a 792 pt page).
    const pdf = buildPdf([
      {
        lines: ['Above the logo', '', '', '', '', 'Below the logo'],
        image: { jpeg, width: 60, height: 30, box: [72, 660, 60, 30] },
      },
    ]);
    const file = await store('logo.pdf', 'application/pdf', pdf);
    const [page] = await read(file, {
      ...textOnly,
      includeEmbeddedImages: true,
      markEmbeddedImages: true,
    });
    expect(
      page!.text
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
    ).toEqual(['Above the logo', '[image: logo.pdf, page 1, image 1]', 'Below the logo']);
    expect(page!.images).toHaveLength(1);
    expect(page!.images![0]).toMatchObject({
      kind: 'embedded',
      width: 60,
      height: 30,
      mediaType: 'image/png',
    });
    expect(page!.text.slice(page!.images![0]!.offset)).toMatch(
      /^\[image: logo\.pdf, page 1, image 1\]/,
    );

    const [unmarked] = await read(file);
    expect(unmarked!.text).not.toContain('[image');
    expect(unmarked!.images).toBeUndefined();
  });

  it('leaves the text out when includeText is off, and refuses a run that would send nothing', async () => {
    const file = await store(
      'pictures-only.pdf',
      'application/pdf',
      buildPdf([{ lines: ['Secret text'] }]),
    );
    const [page] = await read(file, { ...textOnly, includeText: false, includePageImages: true });
    expect(page!.text).toBe('');
    expect(page!.images).toHaveLength(1);
    await expect(read(file, { ...textOnly, includeText: false })).rejects.toMatchObject({
      name: 'ExtractionError',
      message: expect.stringMatching(/^There is nothing to extract from/),
      code: 'misconfigured',
    });
  });
});

describe('a document that cannot be read', () => {
  // Each fails with the service's sentence naming the file and the code the interface
  // words in the person's language (contract/resources.ts: documentErrorCodes).
  const fails = async (file: SourceFile, message: string | RegExp, code: string) => {
    const error = await read(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExtractionError);
    expect(error).toMatchObject({
      message: typeof message === 'string' ? message : expect.stringMatching(message),
      code,
    });
  };

  it('a damaged PDF, Word file or workbook', async () => {
    const notAZip = 'PK\u0003\u0004 and then nothing a ZIP reader could use';
    await fails(
      await store('broken.pdf', 'application/pdf', '%PDF-1.4\nthis is not a PDF at all'),
      'broken.pdf could not be read as a PDF; it may be damaged',
      'damaged_file',
    );
    await fails(
      await store('broken.docx', docxType, notAZip),
      'broken.docx could not be read as a Word document; it may be damaged',
      'damaged_file',
    );
    await fails(
      await store('broken.xlsx', xlsxType, notAZip),
      'broken.xlsx could not be read as an Excel workbook; it may be damaged',
      'damaged_file',
    );
  });

  it('a PDF locked by a password', async () => {
    const locked = buildEncryptedPdf(['Invoice number: SECRET-7'], 'hunter2');
    await fails(
      await store('locked.pdf', 'application/pdf', locked),
      'locked.pdf is protected by a password; upload it without one',
      'password_protected',
    );
  });

  // A PDF of a blank scan: ocr.test.ts.
  it('a picture with no text in it', async () => {
    const blank = await renderTextImage([], { width: 400, height: 300 });
    await fails(
      await store('blank.png', 'image/png', blank),
      'blank.png is a picture and OCR found no text in it',
      'no_text',
    );
  });

  it('a picture cut off half way, without taking the process down with it', async () => {
    // tesseract.js used to throw this one from its message listener, out of every reach.
    const picture = await renderTextImage(['Invoice 42'], { width: 400, height: 300 });
    await fails(
      await store('cut.png', 'image/png', picture.subarray(0, Math.floor(picture.length / 2))),
      'cut.png could not be read as an image; it may be damaged',
      'damaged_file',
    );
  });

  it('a type the engine does not read', async () => {
    await fails(
      await store('archive.zip', 'application/zip', buildZip({ 'a.txt': 'a' })),
      'archive.zip is of a type we cannot read (application/zip)',
      'unsupported_type',
    );
  });
});

describe('the cache of what was read', () => {
  it('reads one new file twelve times at once, each write of the cache its own', async () => {
    const cacheDir = join(folder.dir, 'concurrent-cache');
    const file = await store('shared.txt', 'text/plain', 'Invoice 12\nTotal 3.00');
    const reads = await Promise.allSettled(
      Array.from({ length: 12 }, () => readDocuments([file], textOnly, { cacheDir })),
    );
    expect(reads.map((read) => read.status)).toEqual(Array(12).fill('fulfilled'));
    // One entry, and no temporary file left behind.
    expect(await readdir(cacheDir)).toHaveLength(1);
  });

  it('keeps what it read in the cache, keyed by content and options, and reads it from there next time', async () => {
    const cacheDir = join(folder.dir, 'own-cache');
    const file = await store('cached.txt', 'text/plain', 'Invoice 1');
    const first = await readDocuments([file], textOnly, { cacheDir });
    expect(await readdir(cacheDir)).toHaveLength(1);
    // The same content under another name and id: served from the cache, with its own name.
    await rm(file.path);
    const copy = { ...file, id: 'other-id', name: 'copy.txt' };
    const again = await readDocuments([copy], textOnly, { cacheDir });
    expect(again).toEqual([{ ...first[0], fileId: 'other-id', fileName: 'copy.txt' }]);
    // Other options are another entry: this one needs the file, which is gone.
    await expect(
      readDocuments([copy], { ...textOnly, markPageImages: true }, { cacheDir }),
    ).rejects.toThrow();
  });
});
