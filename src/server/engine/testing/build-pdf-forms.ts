/**
 * PDFs that carry more than their printed page, for the tests of the readers of issue 24:
 * a fillable form (AcroForm text fields, tick boxes, radio groups) filled in, and an
 * e-invoice (a PDF/A-3 with its invoice XML attached, as Factur-X and ZUGFeRD have it).
 * Written object by object, as `build-documents.ts` writes its PDFs.
 */
import { deflateSync } from 'node:zlib';
import { writePdf } from './build-documents.js';

/** Points from the bottom left of a Letter page: x, y, width, height. */
export type PdfRect = [x: number, y: number, width: number, height: number];

export type FormField =
  | { kind: 'text'; name: string; value: string; rect: PdfRect }
  | { kind: 'checkbox'; name: string; checked: boolean; rect: PdfRect; exportValue?: string }
  | {
      kind: 'radio';
      name: string;
      /** The options, each the name of its "on" state, with its widget's place. */
      options: { value: string; rect: PdfRect }[];
      chosen?: string;
    };

export interface FormPage {
  /** Printed text: each line at its own place (points from the bottom left). */
  captions: { text: string; x: number; y: number }[];
  fields: FormField[];
}

const escapeString = (text: string) =>
  text.replace(/\\/g, '\\\\').replace(/\(/g, '\\(').replace(/\)/g, '\\)');
const rectOf = ([x, y, width, height]: PdfRect) => `[${x} ${y} ${x + width} ${y + height}]`;

/**
 * A one-page form with its captions printed and its fields filled. Tick boxes and radio
 * buttons have the appearances a form editor gives them (an "on" state and /Off), which
 * is how a reader tells a ticked box from an empty one. `flatten` prints the values
 * instead, with no fields left: what "print to PDF" or a flattening tool makes of it.
 */
export function buildFormPdf(page: FormPage, options: { flatten?: boolean } = {}): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) + 2; // 1 catalog, 2 page tree
  const fontId = add(
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  );
  const appearance = (drawing: string) =>
    add(
      `<< /Type /XObject /Subtype /Form /BBox [0 0 12 12] /Length ${drawing.length} >>\nstream\n${drawing}\nendstream`,
    );
  const onLook = appearance('0 0 12 12 re f');
  const offLook = appearance('0 0 12 12 re S');
  const pageId = objects.length + 3 + (options.flatten ? 0 : countFieldObjects(page.fields)) + 1;
  const fieldIds: number[] = [];
  const annotationIds: number[] = [];
  const printed = page.captions.map((caption) => ({ ...caption }));
  for (const field of page.fields) {
    if (options.flatten) {
      if (field.kind === 'text')
        printed.push({ text: field.value, x: field.rect[0] + 2, y: field.rect[1] + 4 });
      continue;
    }
    if (field.kind === 'text') {
      const id = add(
        `<< /Type /Annot /Subtype /Widget /FT /Tx /T (${escapeString(field.name)}) /V (${escapeString(field.value)}) /Rect ${rectOf(field.rect)} /P ${pageId} 0 R /F 4 /DA (/Helv 10 Tf 0 g) >>`,
      );
      fieldIds.push(id);
      annotationIds.push(id);
    } else if (field.kind === 'checkbox') {
      const on = field.exportValue ?? 'Yes';
      const state = field.checked ? on : 'Off';
      const id = add(
        `<< /Type /Annot /Subtype /Widget /FT /Btn /T (${escapeString(field.name)}) /V /${state} /AS /${state} /Rect ${rectOf(field.rect)} /P ${pageId} 0 R /F 4 /AP << /N << /${on} ${onLook} 0 R /Off ${offLook} 0 R >> >> >>`,
      );
      fieldIds.push(id);
      annotationIds.push(id);
    } else {
      const parentId = objects.length + 3 + field.options.length;
      const kids = field.options.map((option) => {
        const state = option.value === field.chosen ? option.value : 'Off';
        const id = add(
          `<< /Type /Annot /Subtype /Widget /Parent ${parentId} 0 R /AS /${state} /Rect ${rectOf(option.rect)} /P ${pageId} 0 R /F 4 /AP << /N << /${option.value} ${onLook} 0 R /Off ${offLook} 0 R >> >> >>`,
        );
        annotationIds.push(id);
        return id;
      });
      const id = add(
        `<< /FT /Btn /Ff 49152 /T (${escapeString(field.name)}) /V /${field.chosen ?? 'Off'} /Kids [${kids.map((kid) => `${kid} 0 R`).join(' ')}] >>`,
      );
      fieldIds.push(id);
    }
  }
  const content = printed
    .map(({ text, x, y }) => `BT /F1 10 Tf ${x} ${y} Td (${escapeString(text)}) Tj ET`)
    .join('\n');
  const contentId = add(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  const annots = annotationIds.length
    ? ` /Annots [${annotationIds.map((id) => `${id} 0 R`).join(' ')}]`
    : '';
  const builtPageId = add(
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${fontId} 0 R >> >> /Contents ${contentId} 0 R${annots} >>`,
  );
  if (builtPageId !== pageId) throw new Error(`page object ${builtPageId}, expected ${pageId}`);
  const acroForm = fieldIds.length
    ? ` /AcroForm << /Fields [${fieldIds.map((id) => `${id} 0 R`).join(' ')}] /DA (/Helv 10 Tf 0 g) /DR << /Font << /Helv ${fontId} 0 R >> >> >>`
    : '';
  return writePdf([
    `<< /Type /Catalog /Pages 2 0 R${acroForm} >>`,
    `<< /Type /Pages /Kids [${pageId} 0 R] /Count 1 >>`,
    ...objects,
  ]);
}

/** Objects the fields take (a radio group: one per option and its parent), before the content. */
function countFieldObjects(fields: readonly FormField[]): number {
  return fields.reduce(
    (sum, field) => sum + (field.kind === 'radio' ? field.options.length + 1 : 1),
    0,
  );
}

/**
 * A PDF of `count` text fields on its one page, each filled: what a form generator run
 * wild, or someone probing the reader, would send.
 */
export function buildManyFieldsPdf(count: number): Buffer {
  const objects: string[] = [];
  const pageId = count + 3;
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const x = 20 + (index % 50) * 11;
    const y = 20 + (Math.floor(index / 50) % 70) * 11;
    objects.push(
      `<< /Type /Annot /Subtype /Widget /FT /Tx /T (f${index}) /V (v${index}) /Rect [${x} ${y} ${x + 10} ${y + 10}] /P ${pageId} 0 R >>`,
    );
    ids.push(`${index + 3} 0 R`);
  }
  const content = 'BT /F1 10 Tf 72 760 Td (A form with very many fields) Tj ET';
  return writePdf([
    `<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [${ids.join(' ')}] >> >>`,
    `<< /Type /Pages /Kids [${pageId} 0 R] /Count 1 >>`,
    ...objects,
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${count + 4} 0 R >> >> /Contents ${count + 5} 0 R /Annots [${ids.join(' ')}] >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ]);
}

/**
 * A PDF that prints `lines` and carries `xml` attached as `name` (factur-x.xml,
 * zugferd-invoice.xml, xrechnung.xml, order-x.xml), the way Factur-X attaches it: an
 * embedded file in the catalog's /Names /EmbeddedFiles tree and its /AF, deflated
 * (`packed`: `xml` is deflated already, as a test's bomb is; `subtype`: its media type
 * as a PDF name, `text#2Fxml` unless said).
 */
export function buildPdfWithAttachment(
  lines: string[],
  name: string,
  xml: string | Buffer,
  options: { packed?: boolean; subtype?: string } = {},
): Buffer {
  const data = typeof xml === 'string' ? Buffer.from(xml, 'utf8') : xml;
  const packed = options.packed ? data : deflateSync(data);
  const content = lines
    .map((line, index) => `BT /F1 12 Tf 72 ${720 - index * 18} Td (${escapeString(line)}) Tj ET`)
    .join('\n');
  const stream = Buffer.concat([
    Buffer.from(
      `<< /Type /EmbeddedFile /Subtype /${options.subtype ?? 'text#2Fxml'} /Filter /FlateDecode /Length ${packed.length} /Params << /Size ${data.length} >> >>\nstream\n`,
      'latin1',
    ),
    packed,
    Buffer.from('\nendstream', 'latin1'),
  ]);
  return writePdf([
    `<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [(${name}) 7 0 R] >> >> /AF [7 0 R] >>`,
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    stream,
    `<< /Type /Filespec /F (${name}) /UF (${name}) /AFRelationship /Data /EF << /F 6 0 R /UF 6 0 R >> >>`,
  ]);
}
