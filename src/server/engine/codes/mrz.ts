/**
 * Machine-readable zones of passports, identity cards and visas (ICAO Doc 9303: TD1, three
 * lines of 30 characters; TD2, two of 36; TD3, two of 44), found among the lines a first
 * OCR pass read, read again from the page's picture by OCR limited to the zone's alphabet
 * (`A–Z`, `0–9`, `<`), and parsed by the `mrz` package, which checks every check digit.
 *
 * A zone whose check digits (or whose state codes, dates or sex) do not hold is kept, but
 * as unverified: its parts are flagged, and no labelled line offers them to the rules.
 */
import { parse, type Details, type ParseResult } from 'mrz';
import { boxesBetween } from '../geometry.js';
import { ocr } from '../ocr/ocr.js';
import type { CodePart, TextBox } from '../types.js';
import type { CodeBox } from './barcodes.js';

/** The alphabet of a machine-readable zone, for the second OCR pass. */
export const mrzCharacters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';

/** Line lengths of the three layouts, and how many lines each has. */
const layouts = [
  { name: 'TD1', lines: 3, length: 30 },
  { name: 'TD2', lines: 2, length: 36 },
  { name: 'TD3', lines: 2, length: 44 },
] as const;

/**
 * Zones read again per page. A passport page has one, a scan of both sides of a card two;
 * a page of MRZ-like lines (a hostile pattern, a specimen sheet) costs no more than this.
 */
export const maxZonesPerPage = 3;

/**
 * How far above and below a lone zone line the second pass looks, in the line's heights:
 * OCR-B is set 6 lines to the inch, about twice its height, and a box of fillers is lower.
 */
const loneLinePitch = 2.5;

/** A zone found among a page's lines: where its text is, and where it is printed. */
export interface ZoneCandidate {
  start: number;
  end: number;
  box: CodeBox;
}

export interface ReadZone {
  /** TD1, TD2 or TD3. */
  layout: string;
  /** The zone's lines as the second pass read them. */
  lines: string[];
  /** Every check digit holds, and every field is well-formed (state codes, dates, sex). */
  verified: boolean;
  /** What did not hold, as the parser says it ("invalid check digit: 7. Must be 6"). */
  problems: string[];
  parts: CodePart[];
}

/** A line that looks like one of a zone's: mostly `A–Z0–9<`, with fillers, of a zone's length. */
function zoneLineLength(line: string): number | undefined {
  const compact = line.replace(/\s+/g, '').replace(/«/g, '<<');
  if (compact.length < 26 || compact.length > 50) return undefined;
  const alphabet = compact.replace(/[^A-Z0-9<]/g, '').length;
  return alphabet >= compact.length * 0.85 && /<.*</.test(compact) ? compact.length : undefined;
}

/**
 * Runs of two or three neighbouring lines that look like a zone's, in the page's text, with
 * the box around their words. At most `maxZonesPerPage`.
 */
export function findZones(text: string, boxes: readonly TextBox[]): ZoneCandidate[] {
  const lines: { start: number; end: number; length?: number }[] = [];
  let start = 0;
  for (const line of text.split('\n')) {
    lines.push({ start, end: start + line.length, length: zoneLineLength(line) });
    start += line.length + 1;
  }
  const zones: ZoneCandidate[] = [];
  for (let index = 0; index < lines.length && zones.length < maxZonesPerPage; index++) {
    const length = lines[index]!.length;
    if (length === undefined) continue;
    // Lines of about 30 characters come three to a zone (TD1), longer ones two.
    const size = length <= 33 ? 3 : 2;
    let last = index;
    while (last + 1 < lines.length && lines[last + 1]!.length && last - index < size - 1) last++;
    const zoneStart = lines[index]!.start;
    const zoneEnd = lines[last]!.end;
    const box = boxAround(boxesBetween(boxes, zoneStart, zoneEnd));
    if (box && last > index) zones.push({ start: zoneStart, end: zoneEnd, box });
    // A lone line of a two-line zone: the other is mostly fillers (a short name's, or an
    // empty optional field's), which a first reading drops as no words. The second pass
    // reads a line's height above and below it too.
    else if (box && size === 2)
      zones.push({
        start: zoneStart,
        end: zoneEnd,
        box: {
          ...box,
          y: box.y - box.height * loneLinePitch,
          height: box.height * (1 + 2 * loneLinePitch),
        },
      });
    index = last;
  }
  return zones;
}

function boxAround(boxes: readonly TextBox[]): CodeBox | undefined {
  if (boxes.length === 0) return undefined;
  const left = Math.min(...boxes.map((box) => box.x));
  const top = Math.min(...boxes.map((box) => box.y));
  const right = Math.max(...boxes.map((box) => box.x + box.width));
  const bottom = Math.max(...boxes.map((box) => box.y + box.height));
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/**
 * Reads a zone again from the page's picture: its box with a margin (OCR's boxes are
 * tight, and a first pass may have missed a line's ends), by OCR limited to the zone's
 * alphabet, then parsed. Undefined when what the second pass read is no zone's layout.
 */
export async function readZone(
  picture: Uint8Array,
  zone: ZoneCandidate,
  signal?: AbortSignal,
): Promise<ReadZone | undefined> {
  const { default: sharp } = await import('sharp');
  const upright = sharp(picture).rotate();
  const { width = 0, height = 0 } = await upright
    .metadata()
    .then((metadata) =>
      (metadata.orientation ?? 1) >= 5
        ? { width: metadata.height, height: metadata.width }
        : metadata,
    );
  if (width === 0 || height === 0) return undefined;
  const marginX = zone.box.width * 0.08;
  const marginY = zone.box.height * 0.25;
  const left = Math.max(0, Math.floor((zone.box.x - marginX) * width));
  const top = Math.max(0, Math.floor((zone.box.y - marginY) * height));
  const right = Math.min(width, Math.ceil((zone.box.x + zone.box.width + marginX) * width));
  const bottom = Math.min(height, Math.ceil((zone.box.y + zone.box.height + marginY) * height));
  if (right - left < 10 || bottom - top < 10) return undefined;
  const crop = await upright
    .extract({ left, top, width: right - left, height: bottom - top })
    .png()
    .toBuffer();
  const { text } = await ocr.recognize(crop, { characters: mrzCharacters, signal });
  return parseZone(text.split('\n'));
}

/** The zone in lines of text (OCR's), or undefined when they are no zone's layout. */
export function parseZone(read: readonly string[]): ReadZone | undefined {
  const lines = read
    .map((line) => line.replace(/[^A-Z0-9<]/g, ''))
    .filter((line) => line.length >= 26);
  // The zone's lines, in a reading that may hold a line of print above or below them
  // (a lone line's neighbours): the last run of lines of one layout's count and length.
  let zone: { layout: (typeof layouts)[number]; fitted: string[]; result: ParseResult } | undefined;
  for (const layout of layouts)
    for (let first = 0; first + layout.lines <= lines.length; first++) {
      const run = lines.slice(first, first + layout.lines);
      if (!run.every((line) => Math.abs(line.length - layout.length) <= 2)) continue;
      // OCR drops or doubles a filler at a line's end now and then: fillers make up the length.
      const fitted = endNames(
        run.map((line) =>
          line.length >= layout.length
            ? line.slice(0, layout.length)
            : line.padEnd(layout.length, '<'),
        ),
        layout.name,
      );
      try {
        zone = { layout, fitted, result: parse(fitted, { autocorrect: true }) };
      } catch {
        continue;
      }
    }
  if (!zone) return undefined;
  const { layout, fitted, result } = zone;
  const problems = result.details
    .filter((detail) => !detail.valid)
    .map((detail) => `${detail.label}: ${detail.error ?? 'invalid'}`);
  return {
    layout: layout.name,
    lines: fitted,
    verified: result.valid,
    problems,
    parts: zoneParts(result, fitted),
  };
}

/**
 * The names field ends in fillers, which OCR reads as a run of letters now and then
 * (`AN<<<<LLLLLLLL`). Names are parted by one `<`, surname from given names by two: after
 * three, all is fillers.
 */
function endNames(lines: string[], layout: string): string[] {
  const [index, from] = layout === 'TD1' ? [2, 0] : [0, 5];
  const line = lines[index]!;
  const end = line.indexOf('<<<', from);
  if (end < 0) return lines;
  const ended = [...lines];
  ended[index] = line.slice(0, end).padEnd(line.length, '<');
  return ended;
}

const documentKinds: Record<string, string> = {
  P: 'passport',
  I: 'identity card',
  A: 'identity card',
  C: 'identity card',
  V: 'visa',
};

/** The named parts of a parsed zone, each flagged valid or not by the parser. */
function zoneParts(result: ParseResult, lines: readonly string[]): CodePart[] {
  const byField = new Map<string, Details>();
  for (const detail of result.details) if (detail.field) byField.set(detail.field, detail);
  const part = (
    field: string,
    name: string,
    label: string,
    shape: (raw: string) => string = (raw) => raw,
  ): CodePart | undefined => {
    const detail = byField.get(field);
    if (!detail) return undefined;
    const raw = lines[detail.line]!.slice(detail.start, detail.end);
    const value = shape(raw.replace(/</g, ' ').replace(/\s+/g, ' ').trim());
    // A field is as valid as the parser finds it and its own check digit, where it has one.
    const valid = detail.valid && (byField.get(`${field}CheckDigit`)?.valid ?? true);
    return value === '' ? undefined : { name, label, value, valid };
  };
  const parts = [
    part(
      'documentCode',
      'documentKind',
      'Document kind',
      (code) => documentKinds[code[0]!] ?? 'travel document',
    ),
    part('documentCode', 'documentCode', 'Document code'),
    part('issuingState', 'issuingState', 'Issuing state'),
    part('lastName', 'surname', 'Surname'),
    part('firstName', 'givenNames', 'Given names'),
    part('documentNumber', 'documentNumber', 'Document number'),
    part('nationality', 'nationality', 'Nationality'),
    part('birthDate', 'birthDate', 'Date of birth', (raw) => isoDate(raw, 'past')),
    part('sex', 'sex', 'Sex'),
    part('expirationDate', 'expiryDate', 'Date of expiry', (raw) => isoDate(raw, 'future')),
    part('personalNumber', 'personalNumber', 'Personal number'),
    part('optional1', 'optionalData', 'Optional data'),
  ];
  // The document number as printed on the document, which a long TD1 number spreads over
  // the optional data: the parser puts it together (null when a part of it is invalid).
  const documentNumber = parts.find((each) => each?.name === 'documentNumber');
  if (documentNumber && result.documentNumber) documentNumber.value = result.documentNumber;
  return parts.filter((each): each is CodePart => each !== undefined);
}

/**
 * YYMMDD as YYYY-MM-DD. The century is not written: a birth date is taken as the latest
 * that is not in the future, an expiry date as this century's (documents run ten years).
 */
function isoDate(raw: string, kind: 'past' | 'future'): string {
  if (!/^\d{6}$/.test(raw)) return raw;
  const year = Number(raw.slice(0, 2));
  const thisYear = new Date().getUTCFullYear() % 100;
  const century = kind === 'past' && year > thisYear ? 1900 : 2000;
  return `${century + year}-${raw.slice(2, 4)}-${raw.slice(4, 6)}`;
}
