/**
 * The codes of a page that is a picture (an image file, a PDF page read by OCR), added to
 * what OCR read of it: each barcode and each machine-readable zone becomes a block at the
 * end of the page's text, every line of it printed where the code is (its box), so that
 * the rules read a code's parts as they read a labelled value, and review shows the code:
 *
 *     [code: QR Code, SEPA credit transfer (EPC QR)]
 *     BCD
 *     …the code's text…
 *     Beneficiary name: Red Cross
 *     IBAN: BE72000000001616
 *
 * The marker line is blanked by the local rules like a picture's; the structured record of
 * each code (`PageCode`) goes with the page as `codes`.
 */
import { codeMarker } from '../markers.js';
import type { CodePart, PageCode, TextBox } from '../types.js';
import { readBarcodes } from './barcodes.js';
import { parseBoardingPass } from './boarding-pass.js';
import { findZones, readZone } from './mrz.js';
import { parseEpcQr, parseSwissQrBill, type ParsedCode } from './payment-qr.js';

/** Characters of one code's text written into the page; longer content is cut (a binary blob). */
const maxCodeText = 4000;

export interface PageWithCodes {
  text: string;
  boxes: TextBox[];
  codes: PageCode[];
}

/** A code's text in a public format, read into its parts; undefined for any other text. */
export function parseCodeText(text: string): ParsedCode | undefined {
  return parseEpcQr(text) ?? parseSwissQrBill(text) ?? parseBoardingPass(text);
}

/**
 * Reads the barcodes and machine-readable zones of `picture`, the page as a picture, and
 * adds their blocks to the page's text and boxes (which OCR read of the same picture).
 */
export async function withPageCodes(
  picture: Uint8Array,
  page: { text: string; boxes: TextBox[] },
  signal?: AbortSignal,
): Promise<PageWithCodes> {
  const result: PageWithCodes = { text: page.text, boxes: [...page.boxes], codes: [] };
  for (const code of await readBarcodes(picture, signal)) {
    const parsed = parseCodeText(code.text);
    const label = parsed ? `${code.kind}, ${parsed.title}` : code.kind;
    appendBlock(result, {
      kind: code.kind,
      ...(parsed && { format: parsed.format }),
      text: code.text,
      box: code.box,
      parts: parsed?.parts ?? [],
      label,
    });
  }
  for (const zone of findZones(page.text, page.boxes)) {
    const read = await readZone(picture, zone, signal);
    if (!read) continue;
    const label = read.verified
      ? `machine-readable zone ${read.layout}, check digits valid`
      : `machine-readable zone ${read.layout}, NOT VERIFIED: ${read.problems.join('; ')}`;
    appendBlock(result, {
      kind: `MRZ ${read.layout}`,
      format: 'icao-9303',
      text: read.lines.join('\n'),
      box: zone.box,
      parts: read.parts,
      verified: read.verified,
      label,
    });
  }
  return result;
}

/**
 * Writes a code's block at the end of the page: its marker, its text, and its parts as
 * `Label: value` lines, all in the code's box. A zone that is not verified offers no parts.
 */
function appendBlock(
  page: PageWithCodes,
  code: Omit<PageCode, 'start' | 'end'> & { label: string },
): void {
  const { label, ...record } = code;
  const offered: CodePart[] = record.verified === false ? [] : record.parts;
  const lines = [
    codeMarker(label),
    ...printable(record.text).split('\n'),
    ...offered.map((part) => `${part.label}: ${printable(part.value)}`),
  ].filter((line) => line.trim() !== '');
  const start = page.text === '' ? 0 : page.text.length + 2;
  page.text = page.text === '' ? '' : `${page.text}\n\n`;
  for (const [index, line] of lines.entries()) {
    // The marker is ours, not printed on the page: like a picture's, it has no box.
    if (index > 0) {
      page.text += '\n';
      page.boxes.push({
        start: page.text.length,
        end: page.text.length + line.length,
        ...record.box,
      });
    }
    page.text += line;
  }
  page.codes.push({ ...record, start, end: page.text.length });
}

/** Control characters (a GS1 code's group separators) as spaces; very long content cut. */
function printable(text: string): string {
  const cut = text.length > maxCodeText ? `${text.slice(0, maxCodeText)}…` : text;
  return cut.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, ' ');
}

/** The same codes for the text moved `by` characters (a marker put before it). */
export function shiftCodes(codes: readonly PageCode[], by: number): PageCode[] {
  return codes.map((code) => ({ ...code, start: code.start + by, end: code.end + by }));
}
