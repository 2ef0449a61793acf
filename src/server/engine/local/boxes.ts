/**
 * Values of numbered form boxes: a field whose name, title or description names a line or
 * a box ("Line 1: name of …", `box_1_amount`) is filled from under the caption that
 * number starts ("1   Name of individual …"), in the caption's column, as a person reads
 * a printed form whose typed values sit below their captions.
 */
import { boxConfidence } from './confidence.js';
import type { FieldPlan } from './fields.js';
import type { Cell, Line, Reading } from './reading.js';
import { readValue, type ValueHit } from './values.js';

/** A caption's number: alone in its cell, or followed by the caption's words. */
const captionCell = /^[([]?(\d{1,2}[a-z]?)[)\].]?(?:\s+(\p{L}.*))?$/iu;

/** How far left of its caption's number a value may start (forms indent both ways). */
const slack = 3;

/** The value under the caption of the field's box, or undefined. */
export function boxValue(field: FieldPlan, reading: Reading): ValueHit | undefined {
  const number = field.box;
  if (!number) return undefined;
  for (const line of reading.lines) {
    for (const [index, cell] of line.cells.entries()) {
      const match = captionCell.exec(cell.text);
      if (!match || match[1]!.toLowerCase() !== number) continue;
      const words = match[2] ?? line.cells[index + 1]?.text ?? '';
      if (!/^\p{L}{2}/u.test(words)) continue;
      // The caption's column runs to the next numbered caption on its line.
      const next = line.cells.slice(index + 1).find((other) => isCaption(other, line));
      const hit = valueUnder(field, reading, line, cell.column - slack, next?.column ?? Infinity);
      if (hit) return withCaptionDateOrder(field, reading, hit, words);
    }
  }
  return undefined;
}

/**
 * A caption under which no value is typed: a number alone in its cell, words in the next
 * ("5     Taxpayer identification number"). "12 Sample Street" is a value.
 */
function isCaption(cell: Cell, line: Line): boolean {
  if (!/^[([]?\d{1,2}[a-z]?[)\].]?$/i.test(cell.text)) return false;
  return /^\p{L}{2}/u.test(line.cells[cell.position + 1]?.text ?? '');
}

/**
 * A date under a caption that says its order ("Date of birth (MM-DD-YYYY)"), read in that
 * order whatever order the rest of the document writes.
 */
function withCaptionDateOrder(
  field: FieldPlan,
  reading: Reading,
  hit: ValueHit,
  caption: string,
): ValueHit {
  if (field.kind !== 'date') return hit;
  const order = /\b(MM|DD)[-./ ](DD|MM)[-./ ]YY(?:YY)?\b/i.exec(caption);
  const date = /^(\d{1,2})[-./](\d{1,2})[-./](\d{4})$/.exec(reading.text.slice(hit.start, hit.end));
  if (!order || !date) return hit;
  const [month, day] = order[1]!.toUpperCase() === 'MM' ? [date[1], date[2]] : [date[2], date[1]];
  if (Number(month) > 12 || Number(day) > 31) return hit;
  return { ...hit, value: `${date[3]}-${month!.padStart(2, '0')}-${day!.padStart(2, '0')}` };
}

/** The first value in [from, to) of the two lines under a caption line. */
function valueUnder(
  field: FieldPlan,
  reading: Reading,
  caption: Line,
  from: number,
  to: number,
): ValueHit | undefined {
  for (let down = 1; down <= 2; down++) {
    const below = reading.lines[caption.index + down];
    if (!below) break;
    const cells = below.cells.filter((cell) => cell.column >= from && cell.column < to);
    if (cells.length === 0) continue;
    // The next caption: its box is empty.
    if (cells.some((cell) => isCaption(cell, below))) break;
    const hit = readValue(field, reading, cells[0]!.start, cells[cells.length - 1]!.end);
    return hit && { ...hit, confidence: boxConfidence };
  }
  return undefined;
}
