/**
 * A run's results as a file a person downloads or a program reads: JSON, XML or CSV. Pure
 * functions of the results, `{"documents": [{file, name, status, data, error}]}` (each
 * document's data an object shaped by the target schema, or null); the route picks the
 * format and sends the headers.
 *
 * - JSON is the results, indented by two spaces. The same body serves the download button
 *   and API clients, and a file people open and diff is worth the few bytes of whitespace.
 * - XML is well-formed XML 1.0 in UTF-8: `<results>` holds a `<document file name status>`
 *   per document (`files` too when several files make one), with its `<data>` and `<error>`.
 *   Property names become element names, made valid where they are not (the original kept
 *   in a `key` attribute), arrays become the property's element repeated (an empty one, one
 *   element with `items="0"`), null becomes `xsi:nil="true"`, and text XML 1.0 cannot carry
 *   becomes its JSON string literal, marked by `escaped`.
 * - CSV follows RFC 4180 through formats/csv.ts (null an empty field, empty text `""`),
 *   formula injection neutralised there. The columns `file`, `name`, `status` and `error`
 *   come first, then the fields: one row per document. Nested objects become dotted columns
 *   (`vendor.name`); lists are JSON array text in one cell. The first array of objects,
 *   looked for level by level from the top (so `line_items` before `vendor.contacts`) in
 *   the first document that has one, gives each document one row per item, numbered in
 *   `line_items.#` (0 on the one row of an empty list), with its other fields repeated.
 *
 * Read with the types of the run's targetSchema, both give back exactly the JSON (docs/api/
 * results.md; testing/results-readers.ts reads them so with fast-xml-parser and csv-parse),
 * but for half a surrogate pair in CSV, which UTF-8 cannot hold.
 */
import type { DocumentResult, RunResults } from '../../contract/resources.js';
import { formatCsv } from '../formats/csv.js';

export const resultFormats = ['json', 'xml', 'csv'] as const;
export type ResultFormat = (typeof resultFormats)[number];

/** The media type of each format, as negotiation matches it against Accept. */
export const resultMediaTypes = {
  json: 'application/json',
  xml: 'application/xml',
  csv: 'text/csv',
} as const satisfies Record<ResultFormat, string>;

/** The Content-Type each format is sent with. */
export const resultContentTypes = {
  json: 'application/json; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  csv: 'text/csv; charset=utf-8; header=present',
} as const satisfies Record<ResultFormat, string>;

/**
 * Nesting below this depth is written as JSON text (an XML text node, a CSV cell) instead of
 * more elements or columns: results edited by a person may nest without limit, and
 * walking them without one would run out of stack and turn a download into a 500.
 */
const maxDepth = 64;

/**
 * The JSON text of what lies below `maxDepth`. JSON.parse reads nesting of any depth, but
 * V8's JSON.stringify recurses and gives up a few thousand levels down; such a document is
 * no one's data, so a note stands in for it rather than an error.
 */
function nestedJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (error instanceof RangeError) return '[nested too deeply to write out]';
    throw error;
  }
}

export function formatResults(results: RunResults, format: ResultFormat): string {
  switch (format) {
    case 'json':
      return resultsToJson(results);
    case 'xml':
      return resultsToXml(results);
    case 'csv':
      return resultsToCsv(results);
  }
}

export function resultsToJson(results: RunResults): string {
  return `${JSON.stringify(results, null, 2)}\n`;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---- XML --------------------------------------------------------------------------------

const xsiNamespace = 'http://www.w3.org/2001/XMLSchema-instance';

/**
 * Characters XML 1.0 does not allow anywhere, not even as character references: C0 controls
 * other than tab, line feed and carriage return, U+FFFE, U+FFFF and unpaired surrogates.
 * A value that holds one is written as a JSON string literal instead and marked (`escaped`),
 * so that it reads back exactly. (XML 1.1 would take most as character references, but
 * not NUL, and few parsers read it.)
 */
const forbiddenXmlChar =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A string as XML 1.0 can carry it: itself, or (`escaped`) its JSON string literal, quotes
 * included. JSON.stringify escapes controls and lone surrogates; U+FFFE and U+FFFF, which it
 * leaves as they are, are escaped here.
 */
function xmlCarried(value: string): { text: string; escaped: boolean } {
  if (!forbiddenXmlChar.test(value)) return { text: value, escaped: false };
  const literal = JSON.stringify(value).replace(
    /[\uFFFE\uFFFF]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16)}`,
  );
  return { text: literal, escaped: true };
}

/** Escapes markup; the caller has made sure every character is one XML 1.0 allows. */
function xmlText(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '&#xD;'); // a literal CR would be read back as LF
}

function xmlAttribute(value: string): string {
  // Attribute-value normalisation turns literal tabs and line breaks into spaces.
  return xmlText(value).replace(/"/g, '&quot;').replace(/\t/g, '&#x9;').replace(/\n/g, '&#xA;');
}

/**
 * Attributes as `name="value"`, each value carried as `xmlCarried` says; the names of those
 * written as JSON literals are listed in `escaped`, with `content` for the element's text.
 */
function xmlAttributes(
  attributes: readonly (readonly [string, string])[],
  escapedContent = false,
): string {
  const escaped: string[] = [];
  const written = attributes.map(([name, value]) => {
    const carried = xmlCarried(value);
    if (carried.escaped) escaped.push(name);
    return ` ${name}="${xmlAttribute(carried.text)}"`;
  });
  if (escapedContent) escaped.push('content');
  return written.join('') + (escaped.length > 0 ? ` escaped="${escaped.join(' ')}"` : '');
}

// NameStartChar and NameChar of XML 1.0 (fifth edition), without the colon: a colon would
// make a name a namespace prefix.
// The ranges are the specification's, code point by code point, combining marks included.
const nameStartChar =
  // eslint-disable-next-line no-misleading-character-class
  /[A-Z_a-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\u{10000}-\u{EFFFF}]/u;
// eslint-disable-next-line no-misleading-character-class
const nameChar = /[-.0-9\u00B7\u0300-\u036F\u203F\u2040]/u;

/**
 * Names that JavaScript XML parsers refuse or rename because an object property of that name
 * could reach the prototype: fast-xml-parser throws on the first three and writes the rest
 * as `__valueOf`. They are renamed here, so such a property reads back by its `key`.
 */
const prototypeNames = new Set([
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  'toString',
  'valueOf',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
]);

/** A valid element name for a property name: invalid characters become `_`, and a name that
 * cannot start an element (a digit, punctuation, the reserved `xml…`, or nothing) or that
 * names a prototype's member gets a leading `_`. */
export function xmlElementName(key: string): string {
  const name = Array.from(key, (char) =>
    nameStartChar.test(char) || nameChar.test(char) ? char : '_',
  ).join('');
  const first = Array.from(name)[0];
  return first === undefined ||
    !nameStartChar.test(first) ||
    /^xml/i.test(name) ||
    prototypeNames.has(name)
    ? `_${name}`
    : name;
}

function scalarText(value: unknown): string {
  return typeof value === 'string' ? value : String(value);
}

/** The element's name for a property, and its start tag's attributes (`key` when renamed). */
function xmlStart(key: string, more: readonly (readonly [string, string])[] = []) {
  const name = xmlElementName(key);
  const attributes: (readonly [string, string])[] = name === key ? [] : [['key', key]];
  return { name, attributes: [...attributes, ...more] };
}

/**
 * A property: one element, or for a list one element per item (an empty list: one element
 * with `items="0"`, which stands for no item).
 */
function writeXmlElement(
  lines: string[],
  indent: string,
  key: string,
  value: unknown,
  depth: number,
): void {
  if (!Array.isArray(value) || depth >= maxDepth) {
    writeXmlItem(lines, indent, key, value, depth);
  } else if (value.length === 0) {
    const { name, attributes } = xmlStart(key, [['items', '0']]);
    lines.push(`${indent}<${name}${xmlAttributes(attributes)}/>`);
  } else {
    for (const item of value) writeXmlItem(lines, indent, key, item, depth + 1);
  }
}

/**
 * Exactly one element for a value. A list inside a list has no name of its own, so it is
 * one element holding an `<item>` per item (none when it is empty).
 */
function writeXmlItem(
  lines: string[],
  indent: string,
  key: string,
  value: unknown,
  depth: number,
): void {
  const { name, attributes } = xmlStart(key);
  if (typeof value === 'object' && value !== null && depth >= maxDepth) {
    const carried = xmlCarried(nestedJson(value));
    lines.push(
      `${indent}<${name}${xmlAttributes(attributes, carried.escaped)}>${xmlText(carried.text)}</${name}>`,
    );
  } else if (value === null || value === undefined) {
    lines.push(`${indent}<${name}${xmlAttributes(attributes)} xsi:nil="true"/>`);
  } else if (Array.isArray(value)) {
    const items = value.map((item) => ['item', item] as const);
    writeXmlContainer(lines, indent, name, attributes, items, depth + 1, writeXmlItem);
  } else if (typeof value === 'object') {
    const entries = Object.entries(value);
    writeXmlContainer(lines, indent, name, attributes, entries, depth + 1, writeXmlElement);
  } else {
    const carried = xmlCarried(scalarText(value));
    lines.push(
      `${indent}<${name}${xmlAttributes(attributes, carried.escaped)}>${xmlText(carried.text)}</${name}>`,
    );
  }
}

function writeXmlContainer(
  lines: string[],
  indent: string,
  name: string,
  attributes: readonly (readonly [string, string])[],
  children: readonly (readonly [string, unknown])[],
  depth: number,
  writeChild: typeof writeXmlElement,
): void {
  const start = `${indent}<${name}${xmlAttributes(attributes)}`;
  if (children.length === 0) {
    lines.push(`${start}/>`);
    return;
  }
  lines.push(`${start}>`);
  for (const [key, child] of children) writeChild(lines, `${indent}  `, key, child, depth);
  lines.push(`${indent}</${name}>`);
}

export function resultsToXml(results: RunResults): string {
  const root = `results xmlns:xsi="${xsiNamespace}"`;
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  if (results.documents.length === 0) lines.push(`<${root}/>`);
  else {
    lines.push(`<${root}>`);
    for (const document of results.documents) writeXmlDocument(lines, document);
    lines.push('</results>');
  }
  return `${lines.join('\n')}\n`;
}

/** `<document file name status [files]>` with the record in `<data>` and the `<error>`. */
function writeXmlDocument(lines: string[], document: DocumentResult): void {
  const attributes = xmlAttributes([
    ['file', document.file],
    ...(document.files ? [['files', document.files.join(' ')] as const] : []),
    ['name', document.name],
    ['status', document.status],
  ]);
  lines.push(`  <document${attributes}>`);
  writeXmlElement(lines, '    ', 'data', document.data, 2);
  writeXmlElement(lines, '    ', 'error', document.error, 2);
  lines.push('  </document>');
}

// ---- CSV --------------------------------------------------------------------------------

type Path = readonly string[];

interface Cell {
  path: Path;
  value: unknown;
}

const pathKey = (path: Path): string => JSON.stringify(path);

/** Stands in the cells of the whole document where the row array's items go. */
const rowArrayMark = Symbol('row array');

function isScalar(value: unknown): boolean {
  return value === null || value === undefined || typeof value !== 'object';
}

/**
 * Cells of a value: objects open into dotted paths; a list is one cell of JSON array text, so
 * that an empty list, a list of one and text holding a separator all read back as they were;
 * an object without properties is `{}`. `rowArray`, when met, is left to the caller and
 * marked by a cell whose value is `rowArrayMark`.
 */
function flatten(
  value: unknown,
  path: Path,
  cells: Cell[],
  depth: number,
  rowArray?: string,
): void {
  if (rowArray !== undefined && pathKey(path) === rowArray) {
    cells.push({ path, value: rowArrayMark });
  } else if (isScalar(value)) {
    cells.push({ path, value });
  } else if (depth >= maxDepth || Array.isArray(value)) {
    cells.push({ path, value: nestedJson(value) });
  } else {
    const entries = Object.entries(value as JsonObject);
    if (entries.length === 0) cells.push({ path, value: '{}' });
    for (const [key, child] of entries) flatten(child, [...path, key], cells, depth + 1, rowArray);
  }
}

/** The path of the first non-empty array of objects, shallowest first, then in property order. */
function findRowArray(root: unknown): Path | undefined {
  let level: { path: Path; value: unknown }[] = [{ path: [], value: root }];
  for (let depth = 0; level.length > 0 && depth < maxDepth; depth++) {
    const next: typeof level = [];
    for (const { path, value } of level) {
      if (Array.isArray(value) && value.length > 0 && value.every(isObject)) return path;
      if (isObject(value)) {
        for (const [key, child] of Object.entries(value))
          next.push({ path: [...path, key], value: child });
      }
    }
    level = next;
  }
  return undefined;
}

/** The items at `path` in `root` when they are a list of objects (an empty list is one too). */
function itemsAt(root: unknown, path: Path): JsonObject[] | undefined {
  let value = root;
  for (const key of path) {
    if (!isObject(value)) return undefined;
    value = value[key];
  }
  return Array.isArray(value) && value.every(isObject) ? value : undefined;
}

function columnLabel(path: Path): string {
  return path.length === 0 ? 'value' : path.join('.');
}

/** The columns of one record, in the order a reader expects, and its rows by column key. */
interface RecordTable {
  columns: Map<string, string>;
  rows: Map<string, unknown>[];
}

/**
 * The column of the row array's item numbers: `line_items.#`. Its key cannot be a path's
 * (a path's key is a JSON array), so a property named `#` keeps a column of its own.
 */
const itemNumberColumn = (rowArray: Path) => ({
  key: `${pathKey(rowArray)}#`,
  label: columnLabel([...rowArray, '#']),
});

/**
 * One record's rows. Columns come in the order a reader expects: the fields before the
 * list, the list's item number and its fields (every item's, in the order they first
 * appear), then the fields after it. `rowArray` is where the run's rows split, if this
 * record has a list of objects there: a row per item, numbered from 1, or one row numbered
 * 0 when the list is empty.
 */
function recordTable(value: unknown, rowArray: Path | undefined): RecordTable {
  if (value === null || value === undefined) return { columns: new Map(), rows: [new Map()] };
  const items = rowArray ? itemsAt(value, rowArray) : undefined;
  const split = items ? rowArray : undefined;
  const base: Cell[] = [];
  flatten(value, [], base, 0, split ? pathKey(split) : undefined);
  const itemRows =
    split && items && items.length > 0
      ? items.map((item) => {
          const cells: Cell[] = [];
          // An item without fields is a row of nulls (a record's missing field reads as null).
          if (Object.keys(item).length > 0) flatten(item, split, cells, split.length);
          return cells;
        })
      : [[]];

  const columns = new Map<string, string>();
  const numbers = split ? itemNumberColumn(split) : undefined;
  for (const cell of base) {
    if (cell.value === rowArrayMark) {
      columns.set(numbers!.key, numbers!.label);
      for (const cells of itemRows)
        for (const item of cells) columns.set(pathKey(item.path), columnLabel(item.path));
    } else {
      columns.set(pathKey(cell.path), columnLabel(cell.path));
    }
  }
  const baseValues = new Map(
    base
      .filter((cell) => cell.value !== rowArrayMark)
      .map((cell) => [pathKey(cell.path), cell.value]),
  );
  const rows = itemRows.map((cells, index) => {
    const values = new Map(baseValues);
    if (numbers) values.set(numbers.key, items!.length === 0 ? 0 : index + 1);
    for (const cell of cells) values.set(pathKey(cell.path), cell.value);
    return values;
  });
  return { columns, rows };
}

/** The document's own columns, before its fields; keyed apart from any field's path. */
const documentColumns = ['file', 'name', 'status', 'error'] as const;
const documentColumnKey = (name: string) => `document:${name}`;

export function resultsToCsv(results: RunResults): string {
  // One place to split rows for every document, so the columns line up: the first
  // document with a list of objects chooses it.
  let rowArray: Path | undefined;
  for (const document of results.documents) {
    rowArray = findRowArray(document.data);
    if (rowArray) break;
  }
  const columns = new Map<string, string>(
    documentColumns.map((name) => [documentColumnKey(name), name]),
  );
  const rows: Map<string, unknown>[] = [];
  for (const document of results.documents) {
    const table = recordTable(document.data, rowArray);
    // A column first seen in a later document goes after the earlier documents' columns.
    for (const [key, label] of table.columns) if (!columns.has(key)) columns.set(key, label);
    for (const row of table.rows) {
      for (const name of documentColumns) row.set(documentColumnKey(name), document[name]);
      rows.push(row);
    }
  }
  const keys = [...columns.keys()];
  return formatCsv(
    uniqueLabels([...columns.values()]),
    rows.map((row) => keys.map((key) => row.get(key) ?? null)),
  );
}

/** `a.b` can name both `{"a":{"b":…}}` and `{"a.b":…}`; the second one met becomes `a.b (2)`. */
function uniqueLabels(labels: string[]): string[] {
  const seen = new Set<string>();
  return labels.map((label) => {
    let unique = label;
    for (let count = 2; seen.has(unique); count++) unique = `${label} (${count})`;
    seen.add(unique);
    return unique;
  });
}

// ---- Download names ---------------------------------------------------------------------

/** The label as a file name stem in ASCII: accents dropped, anything else a hyphen. */
function asciiStem(label: string): string {
  return label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 60)
    .replace(/^-+|-+$/g, '');
}

/**
 * `invoice-1a2b3c4d.csv`: the extractor's label and the end of the run id. The end, not the
 * start, because run ids are UUIDv7: their first digits are the creation time and repeat for
 * runs made within a minute, their last are random.
 */
export function resultsFileName(
  extractorLabel: string,
  runId: string,
  format: ResultFormat,
): string {
  const stem = asciiStem(extractorLabel) || 'results';
  const short =
    runId
      .replace(/[^0-9A-Za-z]/g, '')
      .slice(-8)
      .toLowerCase() || 'run';
  return `${stem}-${short}.${format}`;
}

/**
 * The name of a download in the label's own letters where they are not ASCII
 * (`Rechnungen-Müller-2e3f4a5b.csv`, `請求書-2e3f4a5b.csv`), which current browsers show;
 * otherwise, and for every other client, `resultsFileName`.
 */
export function resultsDownloadName(
  extractorLabel: string,
  runId: string,
  format: ResultFormat,
): { name: string; asciiName: string } {
  const asciiName = resultsFileName(extractorLabel, runId, format);
  // Cut by code points, not code units: never half a surrogate pair.
  const unicodeStem = Array.from(extractorLabel.normalize('NFC').replace(/[^\p{L}\p{N}]+/gu, '-'))
    .slice(0, 60)
    .join('')
    .replace(/^-+|-+$/g, '');
  if (!unicodeStem || /^[\x20-\x7e]*$/.test(unicodeStem)) return { name: asciiName, asciiName };
  return { name: `${unicodeStem}${asciiName.slice(asciiName.lastIndexOf('-'))}`, asciiName };
}
