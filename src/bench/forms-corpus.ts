/**
 * The layout of a corpus of documents of several kinds (`corpus-forms`): one folder per
 * kind with its `schema.json`, and beside each document `NAME.ext` its truth `NAME.json`
 * (the expected value of every scalar field, `null` = not judged; `_eye` lists the fields
 * read by eye, `_accept` other forms that also count). Judging, as the corpus's README
 * says: strings trimmed, case-insensitive, inner whitespace collapsed; dates as ISO
 * `YYYY-MM-DD` (a date-time by its date); numbers to 2 decimals (a numeric string counts
 * as its number); anything else exactly; a null, empty or missing answer is a miss.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TargetSchema } from '../contract/json-schema.js';
import { sniffMediaType } from '../server/engine/formats/recognise.js';
import type { SourceFile } from '../server/engine/types.js';

export interface FormDocument {
  file: SourceFile;
  /** Judged fields only (truth not null). */
  expected: Record<string, unknown>;
  eye: Set<string>;
  accept: Record<string, unknown[]>;
  picture: boolean;
}

export interface FormKind {
  name: string;
  schema: TargetSchema;
  documents: FormDocument[];
}

/** Whether `dir` is laid out one folder per kind, each with a schema.json. */
export async function isFormsCorpus(dir: string): Promise<boolean> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries.some(
    (entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'schema.json')),
  );
}

export async function loadFormsCorpus(dir: string): Promise<FormKind[]> {
  const kinds: FormKind[] = [];
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
    a.name.localeCompare(b.name),
  );
  for (const entry of entries) {
    const folder = join(dir, entry.name);
    if (!entry.isDirectory() || !existsSync(join(folder, 'schema.json'))) continue;
    const schema = JSON.parse(await readFile(join(folder, 'schema.json'), 'utf8')) as TargetSchema;
    const names = (await readdir(folder)).sort();
    const documents: FormDocument[] = [];
    for (const name of names) {
      const truthName = name.replace(/\.[^.]+$/, '.json');
      if (name.endsWith('.json') || truthName === name || !names.includes(truthName)) continue;
      const path = join(folder, name);
      const mediaType = await sniffMediaType(path);
      if (!mediaType) continue;
      const bytes = await readFile(path);
      const truth = JSON.parse(await readFile(join(folder, truthName), 'utf8')) as Record<
        string,
        unknown
      >;
      const expected: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(truth))
        if (!key.startsWith('_') && value !== null) expected[key] = value;
      documents.push({
        file: {
          id: name,
          name,
          path,
          mediaType,
          sha256: createHash('sha256').update(bytes).digest('hex'),
        },
        expected,
        eye: new Set(Array.isArray(truth._eye) ? (truth._eye as string[]) : []),
        accept: (truth._accept ?? {}) as Record<string, unknown[]>,
        picture: mediaType.startsWith('image/'),
      });
    }
    kinds.push({ name: entry.name, schema, documents });
  }
  return kinds;
}

/** The field's type as the tables group it: date, number, enum, boolean or string. */
export function fieldType(schema: TargetSchema | undefined): string {
  if (!schema) return 'string';
  if (schema.enum) return 'enum';
  if (schema.format === 'date' || schema.format === 'date-time') return 'date';
  const types = [schema.type ?? []].flat();
  if (types.includes('number') || types.includes('integer')) return 'number';
  if (types.includes('boolean')) return 'boolean';
  return 'string';
}

function normalise(type: string, value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (type === 'number') {
    const number = typeof value === 'number' ? value : Number(String(value).trim());
    return Number.isFinite(number) ? number.toFixed(2) : String(value).trim().toLowerCase();
  }
  if (type === 'date') {
    const text = String(value).trim();
    return /^\d{4}-\d{2}-\d{2}/.test(text) ? text.slice(0, 10) : text.toLowerCase();
  }
  if (type === 'boolean') return String(value);
  const text = String(value).trim().replace(/\s+/g, ' ').toLowerCase();
  return text === '' ? undefined : text;
}

/** Whether `actual` counts as the truth `expected` (or one of its `_accept` forms). */
export function isFormMatch(
  schema: TargetSchema | undefined,
  actual: unknown,
  expected: unknown,
  accepted: unknown[] = [],
): boolean {
  const type = fieldType(schema);
  const got = normalise(type, actual);
  if (got === undefined) return false;
  return [expected, ...accepted].some((wanted) => normalise(type, wanted) === got);
}
