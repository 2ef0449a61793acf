/**
 * Builds small documents for the engine's tests, so that each test says in its own code
 * what the document holds: ZIP-based Office files written by hand (a DOCX is a handful of
 * XML parts), PDFs with a text layer, a picture, or only a picture (a "scan"), one locked
 * by a password, and images of rendered text for OCR.
 */
import { createHash } from 'node:crypto';
import { crc32, deflateRawSync } from 'node:zlib';
import { createCanvas } from '@napi-rs/canvas';

// ---------------------------------------------------------------------------------------
// ZIP (stored by default, no compression: every reader accepts it, and the tests stay fast;
// deflated when a test needs a small file that unpacks to a large one)

export function buildZip(
  entries: Record<string, string | Uint8Array>,
  options: { deflate?: boolean } = {},
): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  const method = options.deflate ? 8 : 0;
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
    const packed = options.deflate ? deflateRawSync(data, { level: 9 }) : data;
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    // The local header and the central directory's entry share a run of fields, from `at`
    // on: version needed, flags, method, time, date, CRC-32, both sizes, the name's length.
    const writeShared = (header: Buffer, at: number) => {
      header.writeUInt16LE(20, at);
      header.writeUInt16LE(method, at + 4);
      header.writeUInt32LE(crc, at + 10);
      header.writeUInt32LE(packed.length, at + 14);
      header.writeUInt32LE(data.length, at + 18);
      header.writeUInt16LE(nameBytes.length, at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeShared(local, 4);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // version made by
    writeShared(central, 6);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

// ---------------------------------------------------------------------------------------
// DOCX

export type DocxBlock = { paragraph: string } | { table: string[][] } | { image: Uint8Array };

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A Word document of paragraphs, tables and PNG pictures, in the parts Word itself writes. */
export function buildDocx(blocks: DocxBlock[]): Buffer {
  const media: Record<string, Uint8Array> = {};
  const relationships: string[] = [];
  const paragraph = (text: string) =>
    `<w:p><w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`;
  const body = blocks.map((block) => {
    if ('paragraph' in block) return paragraph(block.paragraph);
    if ('table' in block) {
      const rows = block.table.map(
        (row) => `<w:tr>${row.map((cell) => `<w:tc>${paragraph(cell)}</w:tc>`).join('')}</w:tr>`,
      );
      return `<w:tbl>${rows.join('')}</w:tbl>`;
    }
    const index = Object.keys(media).length + 1;
    media[`word/media/image${index}.png`] = block.image;
    relationships.push(
      `<Relationship Id="rIdImage${index}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/image${index}.png"/>`,
    );
    return `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="952500" cy="952500"/><wp:docPr id="${index}" name="Picture ${index}"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="${index}" name="image${index}.png"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="rIdImage${index}"/></pic:blipFill><pic:spPr/></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
  });
  return buildZip({
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    '_rels/.rels':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    'word/_rels/document.xml.rels': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${relationships.join('')}</Relationships>`,
    'word/document.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><w:body>${body.join('')}</w:body></w:document>`,
    ...media,
  });
}

// ---------------------------------------------------------------------------------------
// Images of text

export interface TextImageOptions {
  width?: number;
  /** The whole page's height, as a scanner gives it; by default just enough for the lines. */
  height?: number;
  fontSize?: number;
  format?: 'png' | 'jpeg' | 'webp';
}

/** Black lines of text on white, as a scanner or a screenshot would give them. */
export async function renderTextImage(
  lines: string[],
  options: TextImageOptions = {},
): Promise<Buffer> {
  const fontSize = options.fontSize ?? 40;
  const lineHeight = Math.round(fontSize * 1.6);
  const canvas = createCanvas(
    options.width ?? 1400,
    options.height ?? lineHeight * (lines.length + 1),
  );
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = '#000000';
  context.font = `${fontSize}px "Liberation Sans", "DejaVu Sans", sans-serif`;
  lines.forEach((line, index) => context.fillText(line, fontSize, lineHeight * (index + 1)));
  const format = options.format ?? 'png';
  return format === 'png'
    ? canvas.encode('png')
    : format === 'jpeg'
      ? canvas.encode('jpeg', 92)
      : canvas.encode('webp', 100);
}

// ---------------------------------------------------------------------------------------
// PDF

export interface PdfPage {
  /** Lines of text in Helvetica, from the top of a Letter page; none makes a page without a text layer. */
  lines?: string[];
  /**
   * How the font tells a reader which character each code is: `toUnicode` maps codes to
   * what its ToUnicode map says (a code mapped to "\u0000" is what some producers write for
   * a hyphen); `type3` draws every character as a black box with a Type 3 font, whose
   * glyphs are little drawings of their own.
   */
  font?: { toUnicode?: Record<string, string> } | 'type3';
  /** A JPEG picture and where it goes (points from the bottom left); with no box it fills the page. */
  image?: {
    jpeg: Uint8Array;
    width: number;
    height: number;
    box?: [x: number, y: number, w: number, h: number];
  };
}

/**
 * The bytes of a PDF of these objects, numbered from 1 (the first is the catalog), with
 * the cross-reference table a reader finds them by; `trailer` adds entries to the trailer.
 */
export function writePdf(objects: readonly (string | Buffer)[], trailer = ''): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(length);
    const part = Buffer.concat([
      Buffer.from(`${index + 1} 0 obj\n`, 'latin1'),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    parts.push(part);
    length += part.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} /Root 1 0 R${trailer} >>`,
    'startxref',
    String(length),
    '%%EOF',
  ].join('\n');
  parts.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(parts);
}

/**
 * A PDF written object by object. A page with only an image and no lines is what a scanner
 * produces: a picture of text and no text layer.
 */
export function buildPdf(pages: PdfPage[]): Buffer {
  const objects: (string | Buffer)[] = [];
  const add = (body: string | Buffer) => objects.push(body) + 2; // object 1 and 2 are the catalog and page tree
  const pageIds: number[] = [];
  const helveticaId = add(
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  );
  for (const page of pages) {
    const operations: string[] = [];
    const fontId = page.font ? add(fontWith(page.font, add)) : helveticaId;
    let resources = `/Font << /F1 ${fontId} 0 R >>`;
    if (page.image) {
      const { jpeg, width, height } = page.image;
      const imageId = add(
        Buffer.concat([
          Buffer.from(
            `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length ${jpeg.length} >>\nstream\n`,
          ),
          Buffer.from(jpeg),
          Buffer.from('\nendstream'),
        ]),
      );
      resources += ` /XObject << /Im1 ${imageId} 0 R >>`;
      const [x, y, w, h] = page.image.box ?? [0, 0, 612, 792];
      operations.push(`q ${w} 0 0 ${h} ${x} ${y} cm /Im1 Do Q`);
    }
    (page.lines ?? []).forEach((line, index) => {
      const escaped = line.replace(/\\/g, '\\\\').replace(/\(/g, '\\(').replace(/\)/g, '\\)');
      operations.push(`BT /F1 12 Tf 72 ${720 - index * 18} Td (${escaped}) Tj ET`);
    });
    const content = operations.join('\n');
    const contentId = add(
      `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    );
    pageIds.push(
      add(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << ${resources} >> /Contents ${contentId} 0 R >>`,
      ),
    );
  }
  const all: (string | Buffer)[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`,
    ...objects,
  ];
  return writePdf(all);
}

/**
 * A one-page PDF whose text only opens with `password`: the standard security handler of
 * PDF 1.4 at its plainest (revision 2: RC4 with a 40-bit key, ISO 32000-1 §7.6.3), the
 * content stream encrypted with its object's key as a reader expects. A reader given no
 * password finds that the empty one does not open it, and asks for one.
 */
export function buildEncryptedPdf(lines: string[], password: string): Buffer {
  const padding = Buffer.from(
    '28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a',
    'hex',
  );
  const padded = (text: string) =>
    Buffer.concat([Buffer.from(text, 'latin1'), padding]).subarray(0, 32);
  const md5 = (...parts: Buffer[]) => createHash('md5').update(Buffer.concat(parts)).digest();
  const id = md5(Buffer.from(`encrypted ${lines.join('\n')}`));
  const permissions = -44; // print and copy allowed (bits 3 and 5), the rest not
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  // Algorithm 3: the owner entry, with the owner password the same as the user's.
  const owner = rc4(md5(padded(password)).subarray(0, 5), padded(password));
  // Algorithms 2 and 4: the file's key, and the user entry a reader checks a password by.
  const key = md5(padded(password), owner, p, id).subarray(0, 5);
  const user = rc4(key, padding);
  const content = lines
    .map((line, index) => `BT /F1 12 Tf 72 ${720 - index * 18} Td (${line}) Tj ET`)
    .join('\n');
  const contentId = 4;
  // Algorithm 1: each object's key is the file's key with its number and generation.
  const objectKey = md5(key, Buffer.from([contentId, 0, 0, 0, 0])).subarray(0, 10);
  const encrypted = rc4(objectKey, Buffer.from(content, 'latin1'));
  return writePdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [5 0 R] /Count 1 >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
      Buffer.concat([
        Buffer.from(`<< /Length ${encrypted.length} >>\nstream\n`, 'latin1'),
        encrypted,
        Buffer.from('\nendstream', 'latin1'),
      ]),
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contentId} 0 R >>`,
      `<< /Filter /Standard /V 1 /R 2 /O <${owner.toString('hex')}> /U <${user.toString('hex')}> /P ${permissions} >>`,
    ],
    ` /Encrypt 6 0 R /ID [<${id.toString('hex')}> <${id.toString('hex')}>]`,
  );
}

/** RC4, which the PDF's standard security handler encrypts with (OpenSSL 3 no longer offers it). */
function rc4(key: Uint8Array, data: Uint8Array): Buffer {
  const state = Array.from({ length: 256 }, (_, index) => index);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + state[i]! + key[i % key.length]!) & 255;
    [state[i], state[j]] = [state[j]!, state[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 255;
    j = (j + state[i]!) & 255;
    [state[i], state[j]] = [state[j]!, state[i]!];
    out[n] = data[n]! ^ state[(state[i]! + state[j]!) & 255]!;
  }
  return out;
}

/** A font object that draws Helvetica with its own ToUnicode map, or a Type 3 font of boxes. */
function fontWith(font: NonNullable<PdfPage['font']>, add: (body: string) => number): string {
  if (font === 'type3') {
    // Every printable code draws a filled box 600 units wide, like a letter.
    const box = '600 0 0 0 500 700 d1 50 0 500 700 re f';
    const procId = add(`<< /Length ${box.length} >>\nstream\n${box}\nendstream`);
    return `<< /Type /Font /Subtype /Type3 /FontBBox [0 0 600 700] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << /box ${procId} 0 R >> /Encoding << /Type /Encoding /Differences [32 ${'/box '.repeat(95)}] >> /FirstChar 32 /LastChar 126 /Widths [${'600 '.repeat(95)}] /Resources << >> >>`;
  }
  const hex = (text: string) =>
    [...text].map((char) => char.charCodeAt(0).toString(16).padStart(4, '0')).join('');
  const entries = Object.entries(font.toUnicode ?? {});
  const cmap = [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
    '/CMapName /Custom def /CMapType 2 def',
    '1 begincodespacerange <00> <FF> endcodespacerange',
    `${entries.length} beginbfchar`,
    ...entries.map(
      ([code, text]) => `<${code.charCodeAt(0).toString(16).padStart(2, '0')}> <${hex(text)}>`,
    ),
    'endbfchar endcmap CMapName currentdict /CMap defineresource pop end end',
  ].join('\n');
  const cmapId = add(`<< /Length ${cmap.length} >>\nstream\n${cmap}\nendstream`);
  return `<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /ToUnicode ${cmapId} 0 R >>`;
}
