/**
 * Small files that cost their reader dearly, built by the tests that defeat them (none is
 * checked in): each is a few hundred kilobytes at most and claims, or unpacks to, far more.
 */
import { once } from 'node:events';
import { crc32, createDeflate, deflateSync } from 'node:zlib';
import { buildZip, writePdf } from '../../testing/build-documents.js';

const wordNamespace = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/** A DOCX whose document.xml inflates to `megabytes` MB (100 by default) of one paragraph. */
export function buildDocxBomb(megabytes = 100): Buffer {
  const run = '<w:r><w:t>aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa</w:t></w:r>';
  const runs = run.repeat(Math.ceil((megabytes * 1024 * 1024) / run.length));
  return buildZip(
    {
      '[Content_Types].xml':
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      '_rels/.rels':
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
      'word/document.xml': `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${wordNamespace}"><w:body><w:p>${runs}</w:p></w:body></w:document>`,
    },
    { deflate: true },
  );
}

/** An XLSX of `rows` rows (2,000 by default), each with one cell in the last column, XFD. */
export function buildXlsxWideRows(rows = 2000): Buffer {
  const cells = Array.from(
    { length: rows },
    (_, index) =>
      `<row r="${index + 1}"><c r="XFD${index + 1}" t="inlineStr"><is><t>x</t></is></c></row>`,
  ).join('');
  return buildZip(
    {
      '[Content_Types].xml':
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
      '_rels/.rels':
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
      'xl/workbook.xml':
        '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>',
      'xl/_rels/workbook.xml.rels':
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
      'xl/worksheets/sheet1.xml': `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${cells}</sheetData></worksheet>`,
    },
    { deflate: true },
  );
}

/** A white greyscale PNG of `side` x `side` pixels (16000 by default): a few hundred KB. */
export async function buildHugePng(side = 16000): Promise<Buffer> {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  // Each row: filter type 0, then the pixels; deflated as a stream, never all in memory.
  const row = Buffer.alloc(side + 1, 0xff);
  row[0] = 0;
  const deflate = createDeflate({ level: 9 });
  const packed: Buffer[] = [];
  deflate.on('data', (data: Buffer) => packed.push(data));
  for (let y = 0; y < side; y++) {
    if (!deflate.write(row)) await once(deflate, 'drain');
  }
  deflate.end();
  await once(deflate, 'end');
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', Buffer.concat(packed)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A PDF of about a kilobyte that declares `10 ** levels` pages (a million by default): a
 * page tree of `levels` levels whose every node lists the same child ten times.
 */
export function buildPageBombPdf(levels = 6): Buffer {
  const objects: string[] = ['<< /Type /Catalog /Pages 2 0 R >>'];
  for (let level = 0; level < levels; level++) {
    const self = 2 + level;
    const kids = Array.from({ length: 10 }, () => `${self + 1} 0 R`).join(' ');
    const parent = level === 0 ? '' : ` /Parent ${self - 1} 0 R`;
    objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${10 ** (levels - level)}${parent} >>`);
  }
  objects.push(
    `<< /Type /Page /Parent ${1 + levels} 0 R /MediaBox [0 0 612 792] /Resources << >> >>`,
  );
  return writePdf(objects);
}

/**
 * A one-page PDF of a few dozen kilobytes whose page takes long to draw: its compressed
 * content stream strokes a line across the page `strokes` times (a million by default,
 * a minute or more of drawing on a small machine).
 */
export function buildSlowPdf(strokes = 1_000_000): Buffer {
  const content = deflateSync(Buffer.from('0.1 w 1 1 m 611 791 l S\n'.repeat(strokes), 'latin1'));
  return writePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << >> /Contents 4 0 R >>',
    Buffer.concat([
      Buffer.from(`<< /Length ${content.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'),
      content,
      Buffer.from('\nendstream', 'latin1'),
    ]),
  ]);
}
