/**
 * Whether a value fits the field's schema: its type, `format` (date, date-time, email,
 * uri), `pattern`, `enum` (after normalising case, accents and language: "Ja" fits `true`
 * and "yes"), `minimum`/`maximum` and `maxLength`/`minLength`. A candidate that does not
 * fit is dropped for the next one; when none fits the field stays null. A text value that
 * is itself a label, a box number or a form code is no value.
 *
 * Patterns run on RE2 (`testPatternLinearly`), linear in the text: a user's pattern never
 * meets document text on a backtracking RegExp.
 */
import { testPatternLinearly } from '../../extractors/patterns.js';
import type { FieldPlan } from './fields.js';

/** Yes and no in the ten interface languages, for booleans and yes/no enums. */
const yes = new Set([
  'yes',
  'y',
  'true',
  'ja',
  'oui',
  'si',
  'sí',
  'sim',
  'tak',
  'はい',
  'نعم',
  'x',
  '☒',
  '✓',
]);
const no = new Set(['no', 'n', 'false', 'nein', 'non', 'nee', 'não', 'nao', 'nie', 'いいえ', 'لا']);

/** Case, accents and separators aside: what enum values are compared by. */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\s_\-.]+/g, ' ')
    .trim();
}

/**
 * The value as the schema wants it, or undefined when it does not fit: an enum's own
 * option for a value that matches it after folding, a boolean for a yes or no. An `exact`
 * value (a code's part) is no caption: it is never taken for a box number or a label.
 */
export function fitValue(field: FieldPlan, value: unknown, exact = false): unknown {
  const schema = field.schema;
  if (value === null || value === undefined) return undefined;
  if (schema.enum) {
    const options = schema.enum.filter((option) => option !== null);
    const folded = typeof value === 'string' ? foldText(value) : undefined;
    const option = options.find(
      (candidate) =>
        candidate === value ||
        (folded !== undefined && typeof candidate === 'string' && foldText(candidate) === folded) ||
        (typeof candidate === 'boolean' &&
          folded !== undefined &&
          (candidate ? yes : no).has(folded)),
    );
    return option;
  }
  const types = [schema.type ?? []].flat();
  if (typeof value === 'string') {
    if (types.includes('boolean') && !types.includes('string')) {
      const folded = foldText(value);
      return yes.has(folded) ? true : no.has(folded) ? false : undefined;
    }
    if (types.length > 0 && !types.includes('string')) return undefined;
    if (!fitsString(field, value, exact)) return undefined;
    return value;
  }
  if (typeof value === 'number') {
    if (types.length > 0 && !types.includes('number') && !types.includes('integer'))
      return undefined;
    if (types.includes('integer') && !types.includes('number') && !Number.isInteger(value))
      return undefined;
    if (typeof schema.minimum === 'number' && value < schema.minimum) return undefined;
    if (typeof schema.maximum === 'number' && value > schema.maximum) return undefined;
    if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum)
      return undefined;
    if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum)
      return undefined;
    return value;
  }
  return value;
}

const formats: Record<string, RegExp> = {
  date: /^\d{4}-\d{2}-\d{2}$/,
  'date-time':
    /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/,
  email: /^[^\s@]{1,64}@[^\s@]{1,253}\.[^\s@]{2,}$/,
  uri: /^(?:[a-z][a-z0-9+.-]*:\/\/)?[^\s/]+\.[^\s]+$/i,
};

/** A box number ("1", "2a", "(3)", "15b"), a line number or a form code ("W-8BEN", "1099-INT"). */
const boxNumber = /^[([]?\d{1,2}[a-z]?[)\].:]?$/i;

function fitsString(field: FieldPlan, value: string, exact: boolean): boolean {
  const schema = field.schema;
  const text = value.trim();
  if (text === '') return false;
  if (typeof schema.maxLength === 'number' && [...text].length > schema.maxLength) return false;
  if (typeof schema.minLength === 'number' && [...text].length < schema.minLength) return false;
  const format = schema.format && formats[schema.format];
  // A short value, since ours are one line: the format regexes are anchored and simple.
  if (format && (text.length > 300 || !format.test(text))) return false;
  if (schema.pattern) {
    try {
      if (!testPatternLinearly(schema.pattern, text)) return false;
    } catch {
      return false; // a pattern RE2 cannot run, which saving the extractor refuses
    }
  }
  if (!exact && (field.kind === 'text' || field.kind === 'identifier')) {
    if (boxNumber.test(text) && field.kind === 'text') return false;
    if (field.ownLabels.some((label) => foldText(label) === foldText(text))) return false;
  }
  return true;
}
