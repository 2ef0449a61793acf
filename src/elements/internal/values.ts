/**
 * Reading and changing the results by path, and how a value shows in a text box. Changes
 * copy only along the path (structural sharing), so an edit in a table of thousands of rows
 * copies one row and one array, not the whole data. What typed text means is each field
 * kind's to say (field-kinds/).
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

/** A number as the text box shows it: the locale's decimal separator, no grouping. */
export function formatNumber(value: number, locale?: string): string {
  return formatEditableNumber(value, locale);
}

/** How a value shows in a text box; numbers in the person's locale. */
export function displayValue(value: unknown, locale?: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return formatNumber(value, locale);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
