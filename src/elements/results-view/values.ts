/**
 * Reading and changing the results by path, and turning what a person typed into the JSON
 * value the schema asks for. Changes copy only along the path (structural sharing), so an
 * edit in a table of thousands of rows copies one row and one array, not the whole data.
 */
import {
  encodePointerToken,
  primaryType,
  resolveRef,
  typesOf,
  type TargetSchema,
} from '../../contract/json-schema.js';

export type Path = readonly (string | number)[];

export function pointerOf(path: Path): string {
  return path.map((token) => `/${encodePointerToken(token)}`).join('');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function getAt(root: unknown, path: Path): unknown {
  let current = root;
  for (const token of path) {
    if (Array.isArray(current) && typeof token === 'number') current = current[token];
    else if (isRecord(current)) current = current[String(token)];
    else return undefined;
  }
  return current;
}

/** The value at an RFC 6901 JSON pointer. */
export function valueAtPointer(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  let current = root;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current)) current = current[Number(token)];
    else if (isRecord(current)) current = current[token];
    else return undefined;
  }
  return current;
}

/** A copy of `root` with the value at `path` replaced; `undefined` removes an object key. */
export function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [token, ...rest] = path as [string | number, ...(string | number)[]];
  if (typeof token === 'number') {
    const list = Array.isArray(root) ? [...root] : [];
    list[token] = setAt(list[token], rest, value);
    return list;
  }
  const record = isRecord(root) ? { ...root } : {};
  const next = setAt(record[token], rest, value);
  if (next === undefined) delete record[token];
  else record[token] = next;
  return record;
}

/** A copy of `root` without the list item at `path` (whose last token is its index). */
export function removeItemAt(root: unknown, path: Path): unknown {
  const index = path[path.length - 1];
  const listPath = path.slice(0, -1);
  const list = getAt(root, listPath);
  if (!Array.isArray(list) || typeof index !== 'number') return root;
  return setAt(
    root,
    listPath,
    list.filter((_, position) => position !== index),
  );
}

export function allowsNull(schema: TargetSchema): boolean {
  return typesOf(schema).includes('null') || (schema.enum?.includes(null) ?? false);
}

/** What a new list item or a field with nothing in it starts as. */
export function emptyValue(schema: TargetSchema, root: TargetSchema): unknown {
  const resolved = resolveRef(schema, root);
  if (resolved.default !== undefined) return structuredClone(resolved.default);
  const type = primaryType(resolved);
  if (type === 'object') {
    const value: Record<string, unknown> = {};
    for (const [name, child] of Object.entries(resolved.properties ?? {})) {
      const empty = emptyValue(child, root);
      if (empty !== undefined) value[name] = empty;
    }
    return value;
  }
  if (type === 'array') return [];
  if (allowsNull(resolved)) return null;
  if (type === 'string' && !resolved.enum && !resolved.format) return '';
  if (type === 'boolean') return false;
  return undefined;
}

export type EditorKind = 'text' | 'number' | 'integer' | 'boolean' | 'choice' | 'date';

/** Which control edits a value of this schema. */
export function editorKind(schema: TargetSchema): EditorKind {
  if (schema.enum) return 'choice';
  const type = primaryType(schema);
  if (type === 'boolean') return 'boolean';
  if (type === 'integer') return 'integer';
  if (type === 'number') return 'number';
  if (type === 'string' && schema.format === 'date') return 'date';
  return 'text';
}

export interface InputOptions {
  /** The field must have a value (the schema requires it and does not allow null). */
  required?: boolean;
  /** The person's locale for numbers; the browser's when undefined. */
  locale?: string | undefined;
}

/**
 * The value for what was typed. Text that is not a number is kept as typed, so the schema
 * check says what is expected next to the field instead of the text silently vanishing.
 * An emptied field the schema requires has no value at all, so the check asks for one.
 */
export function valueFromInput(
  schema: TargetSchema,
  raw: string,
  options: InputOptions = {},
): unknown {
  const kind = editorKind(schema);
  const text = kind === 'text' ? raw : raw.trim();
  if (text === '') {
    if (allowsNull(schema)) return null;
    return kind === 'text' && !options.required ? '' : undefined;
  }
  if (kind === 'number' || kind === 'integer') {
    const number = parseNumber(text, options.locale);
    return Number.isFinite(number) ? number : raw;
  }
  return text;
}

const separatorsByLocale = new Map<string | undefined, { group: string; decimal: string }>();

function separators(locale: string | undefined): { group: string; decimal: string } {
  let found = separatorsByLocale.get(locale);
  if (!found) {
    const parts = new Intl.NumberFormat(locale).formatToParts(1234567.5);
    found = {
      group: parts.find((part) => part.type === 'group')?.value ?? ',',
      decimal: parts.find((part) => part.type === 'decimal')?.value ?? '.',
    };
    separatorsByLocale.set(locale, found);
  }
  return found;
}

/**
 * A number as a person types it, in their locale or in an unambiguous other way: "1.234,56"
 * where the locale writes it so, "1,234.56", "1 234,56", "1'234.56", "-12", Arabic-Indic
 * digits. One separator followed by exactly three digits is read as the locale reads it
 * (a thousands separator in German "1.234", a decimal point in English); with both a dot
 * and a comma the last one is the decimal separator. NaN when the text is not a number.
 */
export function parseNumber(text: string, locale?: string): number {
  const local = separators(locale);
  let normalized = text
    .trim()
    .replace(/[\u0660-\u0669]/g, (digit) => String(digit.charCodeAt(0) - 0x0660))
    .replace(/[\u06f0-\u06f9]/g, (digit) => String(digit.charCodeAt(0) - 0x06f0))
    .replace(/\u066b/g, '.')
    .replace(/[\s\u00a0\u202f'’\u066c]/g, '')
    .replace(/^[−–]/, '-');
  if (local.decimal !== '.' && local.decimal !== ',' && normalized.includes(local.decimal))
    normalized = normalized.replace(local.decimal, '.');
  const match = /^([+-]?)([\d.,]+)$/.exec(normalized);
  if (!match || !/\d/.test(match[2]!)) return Number.NaN;
  const [, sign, body] = match as unknown as [string, string, string];
  const dots = body.split('.').length - 1;
  const commas = body.split(',').length - 1;
  let decimal: string | undefined;
  if (dots > 0 && commas > 0) decimal = body.lastIndexOf('.') > body.lastIndexOf(',') ? '.' : ',';
  else if (dots + commas === 1) {
    const separator = dots ? '.' : ',';
    const groupLike = /^\d+[.,]\d{3}$/.test(body);
    decimal =
      separator !== local.decimal && separator === local.group && groupLike ? undefined : separator;
  }
  if (decimal && body.split(decimal).length > 2) return Number.NaN;
  const [integer = '', fraction] = decimal ? body.split(decimal) : [body];
  // Whatever separates the integer part groups its digits: threes, or the twos of an Indian
  // lakh ("12,34,567"), ending in a three. "12.34.5" is a typing slip, not a number.
  if (/[.,]/.test(integer) && !/^\d{1,3}(?:[.,]\d{2,3})*[.,]\d{3}$/.test(integer))
    return Number.NaN;
  if (fraction !== undefined && !/^\d*$/.test(fraction)) return Number.NaN;
  return Number(`${sign}${integer.replace(/[.,]/g, '') || '0'}.${fraction ?? ''}`);
}

/** A number as the text box shows it: the locale's decimal separator, no grouping. */
export function formatNumber(value: number, locale?: string): string {
  return new Intl.NumberFormat(locale, { useGrouping: false, maximumFractionDigits: 20 }).format(
    value,
  );
}

/** The value of a choice from its option index (options hold JSON values). */
export function choiceOptions(schema: TargetSchema): unknown[] {
  return schema.enum ?? [];
}

/** How a value shows in a text box; numbers in the person's locale. */
export function displayValue(value: unknown, locale?: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return formatNumber(value, locale);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

/** A date input shows only ISO dates; anything else stays editable as text. */
export function fitsDateInput(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    value === '' ||
    (typeof value === 'string' && isoDate.test(value))
  );
}
