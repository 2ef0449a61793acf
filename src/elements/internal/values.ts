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
import { formatEditableNumber } from '../../locales/format.js';
import { parseNumber } from '../../locales/parse-number.js';

export { parseNumber };

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
  /** The locale numbers are typed in; the interface's when undefined. */
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

/** A number as the text box shows it: the locale's decimal separator, no grouping. */
export function formatNumber(value: number, locale?: string): string {
  return formatEditableNumber(value, locale);
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
