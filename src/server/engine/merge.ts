/**
 * Putting the chunks' findings together, and the final shape of a run's data.
 *
 * Merging is first-found-wins for single values: a later chunk fills only what is still
 * missing (an invoice states its number once, on the first page, and a later "Invoice
 * number" in small print must not overwrite it), or replaces a guess (a value below the
 * review threshold, such as a receipt's total guessed from its figures) with a value found
 * surely enough (the total under its label on the next page). Lists gather: the items of every chunk
 * are appended, except an item identical to one already there (a table header row repeated
 * on every page, or a model repeating a row it saw in the overlap). Each value keeps the
 * source it was found at, under its JSON pointer.
 */
import {
  encodePointerToken,
  primaryType,
  resolveRef,
  type TargetSchema,
} from '../../contract/json-schema.js';
import type { ChunkExtraction, ValueSource } from './types.js';

export interface MergedExtraction {
  data: Record<string, unknown>;
  sources: Record<string, ValueSource>;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Nothing found: null, undefined, an empty string or an empty list. */
function isMissing(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    value === '' ||
    (Array.isArray(value) && value.length === 0)
  );
}

/** What `merged` and a chunk's findings make together; `merged` itself is left as it was. */
export function mergeExtractions(
  schema: TargetSchema,
  merged: MergedExtraction,
  next: ChunkExtraction,
): MergedExtraction {
  const copy = { data: structuredClone(merged.data), sources: { ...merged.sources } };
  mergeExtractionsInto(schema, copy, next);
  return copy;
}

/**
 * Adds a chunk's findings to `merged` itself: the run worker's accumulator, which would
 * otherwise copy everything found so far for every chunk (the square of a long run).
 */
export function mergeExtractionsInto(
  schema: TargetSchema,
  merged: MergedExtraction,
  next: ChunkExtraction,
): void {
  mergeInto(schema, schema, merged.data, next.data, '', next.sources, merged.sources);
}

/**
 * The items of each list merged into, by their canonical JSON, so that telling whether an
 * item is there already does not compare it with every item before it.
 */
const listItems = new WeakMap<unknown[], Set<string>>();

function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, child: unknown) =>
    isPlainObject(child)
      ? Object.fromEntries(Object.entries(child).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : child,
  );
}

function itemsOf(list: unknown[]): Set<string> {
  let items = listItems.get(list);
  if (!items) listItems.set(list, (items = new Set(list.map(canonicalJson))));
  return items;
}

function mergeInto(
  rawSchema: TargetSchema,
  root: TargetSchema,
  target: Record<string, unknown>,
  incoming: Record<string, unknown>,
  pointer: string,
  incomingSources: Record<string, ValueSource>,
  sources: Record<string, ValueSource>,
): void {
  const schema = resolveRef(rawSchema, root);
  for (const [key, value] of Object.entries(incoming)) {
    if (isMissing(value)) continue;
    const childPointer = `${pointer}/${encodePointerToken(key)}`;
    const childSchema = schema.properties?.[key] ?? {};
    const existing = target[key];
    if (Array.isArray(existing) && Array.isArray(value)) {
      const known = itemsOf(existing);
      for (const [index, item] of value.entries()) {
        const key = canonicalJson(item);
        if (known.has(key)) continue;
        known.add(key);
        copySources(
          incomingSources,
          `${childPointer}/${index}`,
          sources,
          `${childPointer}/${existing.length}`,
        );
        existing.push(structuredClone(item));
      }
    } else if (isPlainObject(existing) && isPlainObject(value)) {
      mergeInto(childSchema, root, existing, value, childPointer, incomingSources, sources);
    } else if (
      isMissing(existing) ||
      (isGuess(sources[childPointer]) && !isGuess(incomingSources[childPointer]))
    ) {
      target[key] = structuredClone(value);
      copySources(incomingSources, childPointer, sources, childPointer);
    }
  }
}

/** A value found with a confidence below the review threshold; one without a source is not. */
function isGuess(source: ValueSource | undefined): boolean {
  return source?.confidence !== undefined && source.confidence < reviewThreshold;
}

/** Copies the sources at `from` and below to `to`, as a value moves in the merged data. */
function copySources(
  from: Record<string, ValueSource>,
  fromPointer: string,
  to: Record<string, ValueSource>,
  toPointer: string,
): void {
  for (const [pointer, source] of Object.entries(from)) {
    if (pointer === fromPointer || pointer.startsWith(`${fromPointer}/`))
      to[toPointer + pointer.slice(fromPointer.length)] = source;
  }
}

/**
 * Values found with less confidence than this are marked for review: those no label named
 * (a date or a currency guessed from the page alone). README.md says how confidence is set.
 */
export const reviewThreshold = 0.6;

/**
 * The JSON pointers of the values a person should check, in order of pointer: those found
 * with little confidence, and those a failed check of the extractor involves.
 */
export function valuesForReview(
  sources: Record<string, ValueSource>,
  failedChecks: readonly { pointers: readonly string[] }[] = [],
): string[] {
  const unsure = Object.entries(sources)
    .filter(([, source]) => source.confidence !== undefined && source.confidence < reviewThreshold)
    .map(([pointer]) => pointer);
  return [...new Set([...unsure, ...failedChecks.flatMap((failure) => failure.pointers)])].sort();
}

/**
 * The run's final data: every property of the schema present, what was not found as null
 * (a list as an empty list), nested objects and list items completed the same way.
 * Properties the schema forbids (`additionalProperties: false`) are dropped; values are
 * otherwise left as found, and checking them against the schema is the validator's job.
 */
export function finaliseResult(
  schema: TargetSchema,
  data: Record<string, unknown>,
): Record<string, unknown> {
  return finaliseObject(schema, schema, data);
}

function finaliseObject(
  rawSchema: TargetSchema,
  root: TargetSchema,
  value: Record<string, unknown>,
): Record<string, unknown> {
  const schema = resolveRef(rawSchema, root);
  const result: Record<string, unknown> = {};
  for (const [name, childSchema] of Object.entries(schema.properties ?? {})) {
    result[name] = finaliseValue(childSchema, root, value[name]);
  }
  if (schema.additionalProperties !== false) {
    for (const [name, child] of Object.entries(value)) if (!(name in result)) result[name] = child;
  }
  return result;
}

function finaliseValue(rawSchema: TargetSchema, root: TargetSchema, value: unknown): unknown {
  const schema = resolveRef(rawSchema, root);
  if (value === undefined || value === null) return primaryType(schema) === 'array' ? [] : null;
  if (Array.isArray(value) && schema.items)
    return value.map((item) => finaliseValue(schema.items!, root, item));
  if (isPlainObject(value) && (schema.properties || primaryType(schema) === 'object'))
    return finaliseObject(schema, root, value);
  return value;
}
