/**
 * Reading one value of a given kind from a stretch of text (what follows a label, or the
 * cell under a header), and turning it into what the schema's type wants.
 */
import {
  findEmails,
  findIbans,
  findPercentages,
  findPhones,
  findUrls,
  parseAmount,
  type Found,
} from './parsers.js';
import type { FieldPlan } from './fields.js';
import type { Reading } from './reading.js';

export interface ValueHit {
  value: unknown;
  start: number;
  end: number;
  /** How sure the rule that found it is, 0 to 1 (README.md says how it is set). */
  confidence?: number;
}

/** Characters between a label and its value: colons, number signs, dashes, bars. */
const separators = /^[\s:#.°º\-–=|*,]*/u;
/**
 * What a weak label ("Invoice") needs before its value to be read as a number label: a
 * number sign, or a colon before a word with a digit in it ("INVOICE: INV-100").
 */
const numberSign =
  /^[\s:]*(?:#|n[°ºo]\.?|nr\.?|no\.|num(?:ber)?\.?)|^[ \t]*:(?=[ \t]*[\p{L}\p{N}/-]*\d)/iu;

export interface ReadOptions {
  /** The value must be introduced by a number sign ("# 123", "No. 123"). */
  needsNumberSign?: boolean;
  /** A table row: several amounts mean the last one is the row's total. */
  preferLastInRow?: boolean;
  /**
   * A figure whose decimal point OCR read as a space ("Total   41 50") is read as one
   * figure, when it is all the stretch holds and the document writes decimal points.
   */
  spacedDecimals?: boolean;
}

/** Whole units, one space, two digits, and nothing else: "41 50", "RM 6 70". */
const spacedDecimal = /^[^\p{L}\p{N}]*(?:RM|Rs\.?|[A-Z]{3})?[^\p{L}\p{N}]*?(\d{1,5}) (\d{2})\s*$/u;

/** The first value of `plan`'s kind in text[start, end), or undefined. */
export function readValue(
  plan: FieldPlan,
  reading: Reading,
  start: number,
  end: number,
  options: ReadOptions = {},
): ValueHit | undefined {
  if (end <= start) return undefined;
  const text = reading.text;
  let from = start;
  if (options.needsNumberSign) {
    const sign = numberSign.exec(text.slice(from, end));
    if (!sign) return undefined;
    from += sign[0].length;
  }
  const inRange = <T extends Found<unknown>>(found: T[]) =>
    found.filter((hit) => hit.start >= from && hit.end <= end);
  switch (plan.kind) {
    case 'date':
    case 'datetime': {
      const date = inRange(reading.dates)[0];
      return date && { value: date.value, start: date.start, end: date.end };
    }
    case 'amount':
    case 'number':
    case 'integer': {
      const amounts = inRange(reading.amounts);
      const spaced =
        options.spacedDecimals &&
        reading.decimalMark === '.' &&
        spacedDecimal.exec(text.slice(from, end));
      if (spaced && amounts.every((amount) => Number.isInteger(amount.value))) {
        const at = from + spaced.index + spaced[0].lastIndexOf(`${spaced[1]} ${spaced[2]}`);
        return {
          value: Number(`${spaced[1]}.${spaced[2]}`),
          start: at,
          end: at + spaced[1]!.length + 3,
        };
      }
      if (amounts.length === 0) return undefined;
      let chosen = amounts[0]!;
      if (options.preferLastInRow && amounts.length > 1 && isNumericRow(text.slice(from, end)))
        chosen = amounts[amounts.length - 1]!;
      if (plan.kind === 'integer' && !Number.isInteger(chosen.value)) return undefined;
      return { value: chosen.value, start: chosen.start, end: chosen.end };
    }
    case 'percent': {
      const percent = findPercentages(text.slice(from, end))[0];
      return (
        percent && { value: percent.value, start: from + percent.start, end: from + percent.end }
      );
    }
    case 'currency': {
      const currency = inRange(reading.currencies)[0];
      return (
        currency && {
          value: plan.wantsCurrencyCode ? currency.value : currency.written,
          start: currency.start,
          end: currency.end,
        }
      );
    }
    case 'email':
      return shift(findEmails(text.slice(from, end))[0], from);
    case 'iban':
      return shift(findIbans(text.slice(from, end))[0], from);
    case 'url':
      return shift(findUrls(text.slice(from, end))[0], from);
    case 'phone':
      return shift(findPhones(text.slice(from, end))[0], from);
    case 'bic': {
      const match = /(?<![A-Z0-9])[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?(?![A-Z0-9])/.exec(
        text.slice(from, end),
      );
      return match
        ? { value: match[0], start: from + match.index, end: from + match.index + match[0].length }
        : undefined;
    }
    case 'identifier':
      return readIdentifier(reading, from, end);
    case 'text':
      return readText(text, from, end);
    case 'enum':
      return readEnum(plan, text, from, end);
    case 'boolean':
      // A yes or no as written; fit.ts tells which ("Ja", "oui", "☒").
      return readText(text, from, end);
  }
}

function shift(found: Found<string> | undefined, by: number): ValueHit | undefined {
  return found && { value: found.value, start: found.start + by, end: found.end + by };
}

/** Only amounts, percentages and currency signs: the cells of a table row of figures. */
function isNumericRow(text: string): boolean {
  return /^[\s\d.,'’%()+\-−–€$£₹¥]*(?:[A-Z]{3}[\s\d.,'’%()+\-−–€$£₹¥]*)*$/u.test(
    text.replace(/Rs\.?/g, ''),
  );
}

/**
 * A document number: the first word with a digit in it, after the separators, within the
 * first cell; a short prefix of capitals before it belongs to it ("F 1234K20/1234/12").
 * A date is not a document number.
 */
function readIdentifier(reading: Reading, start: number, end: number): ValueHit | undefined {
  const text = reading.text;
  const lead = separators.exec(text.slice(start, end))![0].length;
  const from = start + lead;
  const cellEnd = Math.min(
    end,
    ...[/\t| {2,}/.exec(text.slice(from, end))].filter(Boolean).map((match) => from + match!.index),
  );
  // An IBAN is one identifier however it is grouped ("DE44 5001 0517 5407 3249 31").
  const iban = findIbans(text.slice(from, cellEnd))[0];
  if (iban && iban.start === 0)
    return { value: text.slice(from, from + iban.end), start: from, end: from + iban.end };
  const tokens = [...text.slice(from, cellEnd).matchAll(/\S+/g)].slice(0, 4);
  for (const [index, token] of tokens.entries()) {
    const word = token[0].replace(/[.,;:)\]]+$/, '').replace(/^[(#[]+/, '');
    if (!/\d/.test(word) || word.length === 0) continue;
    const tokenStart = from + token.index + token[0].indexOf(word);
    if (
      reading.dates.some((date) => tokenStart < date.end && tokenStart + word.length > date.start)
    )
      continue;
    const previous = tokens[index - 1];
    if (previous && index === 1 && /^[A-Z]{1,3}$/.test(previous[0])) {
      const prefixStart = from + previous.index;
      return { value: `${previous[0]} ${word}`, start: prefixStart, end: tokenStart + word.length };
    }
    return { value: word, start: tokenStart, end: tokenStart + word.length };
  }
  return undefined;
}

/** Free text: the first cell after the separators, without a trailing colon or comma. */
function readText(text: string, start: number, end: number): ValueHit | undefined {
  const lead = /^[\s:#.°º\-–=|*,;]*/u.exec(text.slice(start, end))![0].length;
  const from = start + lead;
  const rest = text.slice(from, end);
  // A cell ends at a gap, and a form's line at a dash or a dot between its fields
  // ("Salariée : Amandine Roux — Matricule 0087").
  const cell = rest.split(/\t| {2,}| [—–·|•] /)[0]!.replace(/[\s:;,—–-]+$/, '');
  if (!/\p{L}|\p{N}/u.test(cell) || cell.length > 200) return undefined;
  return { value: cell, start: from, end: from + cell.length };
}

function readEnum(plan: FieldPlan, text: string, start: number, end: number): ValueHit | undefined {
  const stretch = text.slice(start, end).toLowerCase();
  let best: ValueHit | undefined;
  for (const option of plan.schema.enum ?? []) {
    const written = String(option).toLowerCase();
    if (written === '') continue;
    const at = stretch.search(
      new RegExp(
        `(?<![\\p{L}\\p{N}])${written.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`,
        'u',
      ),
    );
    if (at >= 0 && (!best || start + at < best.start))
      best = { value: option, start: start + at, end: start + at + written.length };
  }
  return best;
}

/** A value as the schema's type wants it; undefined when it cannot be (text in a number field). */
export function toSchemaType(plan: FieldPlan, value: unknown): unknown {
  const types = new Set([plan.schema.type ?? []].flat());
  if (types.size === 0) return value;
  if (typeof value === 'number') {
    if (types.has('number') || (types.has('integer') && Number.isInteger(value))) return value;
    if (types.has('string')) return String(value);
    return undefined;
  }
  if (typeof value === 'string') {
    if (types.has('string')) return value;
    if (types.has('number') || types.has('integer')) {
      const number = parseAmount(value);
      return number !== undefined && (types.has('number') || Number.isInteger(number))
        ? number
        : undefined;
    }
    return undefined;
  }
  return value;
}
