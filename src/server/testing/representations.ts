/**
 * Checks of the five representations against the `application/json` one, written from
 * the spec's "Representations" section rather than from the serializer: type names, IRIs
 * and relationships are spelled out here, and CSV and HTML are read back with a parser of
 * their own, so a serializer bug cannot hide behind the same bug in the check.
 */
import { expect } from 'vitest';
import type { ResourceMediaType } from '../http/negotiation.js';

type Wire = Record<string, unknown> & { id: string };

interface ResourceShape {
  type: string;
  iri(resource: Wire): string;
  relationships: Record<string, { type: string; many: boolean }>;
}

/** A run and a session each belong to one bucket and one saved extractor. */
const ofBucketAndExtractor = {
  bucket: { type: 'ExtractionBucket', many: false },
  savedExtractor: { type: 'SavedExtractor', many: false },
} as const;

export const shapes = {
  bucket: {
    type: 'ExtractionBucket',
    iri: (resource) => `/api/buckets/${resource.id}`,
    relationships: { runs: { type: 'ExtractionRun', many: true } },
  },
  extractor: {
    type: 'SavedExtractor',
    iri: (resource) => `/api/extractors/${resource.id}`,
    relationships: { runs: { type: 'ExtractionRun', many: true } },
  },
  run: {
    type: 'ExtractionRun',
    iri: (resource) => `/api/runs/${resource.id}`,
    relationships: ofBucketAndExtractor,
  },
  file: {
    type: 'BucketFile',
    iri: (resource) => `${String(resource.bucket)}/files/${resource.id}`,
    relationships: { bucket: { type: 'ExtractionBucket', many: false } },
  },
  session: {
    type: 'EmbedSession',
    iri: (resource) => `/api/embed_sessions/${resource.id}`,
    relationships: ofBucketAndExtractor,
  },
} as const satisfies Record<string, ResourceShape>;

export type ShapeName = keyof typeof shapes;

export const expectedContentTypes: Record<ResourceMediaType, RegExp> = {
  'application/json': /^application\/json\b/,
  'application/vnd.api+json': /^application\/vnd\.api\+json$/,
  'application/ld+json': /^application\/ld\+json\b/,
  'text/csv': /^text\/csv\b/,
  'text/html': /^text\/html\b/,
};

// ---------------------------------------------------------------------------------------
// CSV and HTML read back independently

/** RFC 4180: quoted fields may hold commas, doubled quotes and line breaks; records end in CRLF. */
export function readCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(cell);
      cell = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
      index++;
    } else cell += char;
  }
  expect(quoted, 'a quoted CSV field is never closed').toBe(false);
  expect(cell === '' && record.length === 0, 'the last CSV record must end with CRLF').toBe(true);
  return records;
}

/** What a CSV cell holds for a JSON value: text as is (formula starts defused), JSON for the rest. */
export function csvCellOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text =
    typeof value === 'string'
      ? value
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** Cell text without the markup the service adds; any other `<` or `>` was left unescaped. */
function decodeHtml(text: string): string {
  const plain = text.replace(/<\/?(a|code|ul|li)\b[^>]*>/g, '');
  expect(plain, 'an HTML value holds an unescaped < or >').not.toMatch(/[<>]/);
  return plain
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The value of an HTML cell: a list for `<ul>`, null for `data-null`, text otherwise. */
function htmlValue(attributes: string, inner: string): unknown {
  if (/\bdata-null\b/.test(attributes)) return null;
  if (inner.startsWith('<ul>'))
    return [...inner.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((item) => decodeHtml(item[1]!));
  return decodeHtml(inner);
}

/** What an HTML cell shows for a JSON value. */
export function htmlValueOf(value: unknown, nullable = true): unknown {
  if (value === null || value === undefined) return nullable ? null : '';
  if (Array.isArray(value))
    return value.length === 0
      ? ''
      : value.map((item) =>
          typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item),
        );
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function readHtmlDefinitions(html: string): [string, unknown][] {
  return [...html.matchAll(/<dt>([\s\S]*?)<\/dt><dd([^>]*)>([\s\S]*?)<\/dd>/g)].map((match) => [
    decodeHtml(match[1]!),
    htmlValue(match[2]!, match[3]!),
  ]);
}

export function readHtmlTable(html: string): { head: string[]; rows: unknown[][] } {
  const head = [
    ...(/<thead>([\s\S]*?)<\/thead>/.exec(html)?.[1] ?? '').matchAll(/<th[^>]*>([\s\S]*?)<\/th>/g),
  ].map((match) => decodeHtml(match[1]!));
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(html)?.[1] ?? '';
  const rows = [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1]!.matchAll(/<td>([\s\S]*?)<\/td>/g)].map((cell) => htmlValue('', cell[1]!)),
  );
  return { head, rows };
}

// ---------------------------------------------------------------------------------------
// Single resources

function jsonApiResource(shape: ResourceShape, resource: Wire): Record<string, unknown> {
  const attributes: Record<string, unknown> = { _id: resource.id };
  const relationships: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(resource)) {
    const relationship = shape.relationships[field];
    if (field === 'id') continue;
    if (!relationship) attributes[field] = value;
    else if (relationship.many) {
      relationships[field] = {
        data: (value as string[]).map((iri) => ({ type: relationship.type, id: iri })),
      };
    } else relationships[field] = { data: { type: relationship.type, id: value } };
  }
  return { id: shape.iri(resource), type: shape.type, attributes, relationships };
}

function jsonLdResource(shape: ResourceShape, resource: Wire): Record<string, unknown> {
  return { '@id': shape.iri(resource), '@type': shape.type, ...resource };
}

/**
 * Asserts that `response` is `expected` (its `application/json` form) in `mediaType`, as
 * the spec's "Representations" section describes that type. Returns the body text.
 */
export async function expectResource(
  response: Response,
  mediaType: ResourceMediaType,
  name: ShapeName,
  expected: Wire,
): Promise<string> {
  const shape: ResourceShape = shapes[name];
  const text = await response.text();
  expect(response.headers.get('content-type'), text).toMatch(expectedContentTypes[mediaType]);
  const fields = Object.keys(expected);
  switch (mediaType) {
    case 'application/json':
      expect(JSON.parse(text)).toEqual(expected);
      break;
    case 'application/vnd.api+json':
      expect(JSON.parse(text)).toEqual({ data: jsonApiResource(shape, expected) });
      break;
    case 'application/ld+json':
      expect(JSON.parse(text)).toEqual({
        '@context': `/api/contexts/${shape.type}`,
        ...jsonLdResource(shape, expected),
      });
      break;
    case 'text/csv': {
      const [header, ...records] = readCsv(text);
      expect(new Set(header)).toEqual(new Set(fields));
      expect(records).toHaveLength(1);
      expect(
        Object.fromEntries(header!.map((field, index) => [field, records[0]![index]])),
      ).toEqual(Object.fromEntries(fields.map((field) => [field, csvCellOf(expected[field])])));
      break;
    }
    case 'text/html': {
      expect(text).toMatch(/^<!doctype html>/);
      const definitions = readHtmlDefinitions(text);
      expect(new Set(definitions.map(([field]) => field))).toEqual(new Set(fields));
      expect(Object.fromEntries(definitions)).toEqual(
        Object.fromEntries(fields.map((field) => [field, htmlValueOf(expected[field])])),
      );
      break;
    }
  }
  return text;
}

// ---------------------------------------------------------------------------------------
// Collections

export interface ExpectedPage {
  /** The collection's path, e.g. `/api/saved_extractors`. */
  path: string;
  page: number;
  totalItems: number;
  itemsPerPage?: number;
  /** Query kept in every link, without `page`, e.g. `model=local`. */
  query?: string;
  /** The status the collection is answered with: 200, or 201 for the files of an upload. */
  status?: number;
}

export function pageLink(expected: ExpectedPage, page: number): string {
  return `${expected.path}?${expected.query ? `${expected.query}&` : ''}page=${page}`;
}

export function expectedLinks(expected: ExpectedPage): Record<string, string> {
  const last = Math.max(1, Math.ceil(expected.totalItems / (expected.itemsPerPage ?? 30)));
  return {
    self: pageLink(expected, expected.page),
    first: pageLink(expected, 1),
    last: pageLink(expected, last),
    ...(expected.page > 1 ? { prev: pageLink(expected, expected.page - 1) } : {}),
    ...(expected.page < last ? { next: pageLink(expected, expected.page + 1) } : {}),
  };
}

/**
 * Asserts that `response` is a collection of `expected` (in that order) in `mediaType`,
 * with paging as `page` says. Runs in JSON:API are a plain array of resources (spec).
 */
export async function expectCollection(
  response: Response,
  mediaType: ResourceMediaType,
  name: ShapeName,
  expected: readonly Wire[],
  page: ExpectedPage,
): Promise<string> {
  const shape: ResourceShape = shapes[name];
  const text = await response.text();
  expect(response.status, text).toBe(page.status ?? 200);
  expect(response.headers.get('content-type')).toMatch(expectedContentTypes[mediaType]);
  const links = expectedLinks(page);
  switch (mediaType) {
    case 'application/json':
      expect(JSON.parse(text)).toEqual(expected);
      break;
    case 'application/vnd.api+json': {
      const data = expected.map((resource) => jsonApiResource(shape, resource));
      if (name === 'run') expect(JSON.parse(text)).toEqual(data);
      else {
        expect(JSON.parse(text)).toEqual({
          data,
          links,
          meta: {
            totalItems: page.totalItems,
            itemsPerPage: page.itemsPerPage ?? 30,
            currentPage: page.page,
          },
        });
      }
      break;
    }
    case 'application/ld+json': {
      const document = JSON.parse(text) as Record<string, unknown>;
      expect(document).toMatchObject({
        '@context': `/api/contexts/${shape.type}`,
        '@id': page.path,
        '@type': 'Collection',
        member: expected.map((resource) => jsonLdResource(shape, resource)),
        totalItems: page.totalItems,
      });
      expect(document.view).toEqual({
        '@id': links.self,
        '@type': 'PartialCollectionView',
        first: links.first,
        last: links.last,
        ...(links.prev ? { previous: links.prev } : {}),
        ...(links.next ? { next: links.next } : {}),
      });
      const search = document.search as {
        '@type': string;
        template: string;
        variableRepresentation: string;
        mapping: Record<string, unknown>[];
      };
      expect(search['@type']).toBe('IriTemplate');
      expect(search.template.startsWith(`${page.path}{?page`)).toBe(true);
      expect(search.variableRepresentation).toBe('BasicRepresentation');
      for (const mapping of search.mapping) {
        expect(mapping).toMatchObject({
          '@type': 'IriTemplateMapping',
          variable: expect.any(String),
          required: false,
        });
        expect(mapping.property === null || typeof mapping.property === 'string').toBe(true);
      }
      break;
    }
    case 'text/csv': {
      const [header, ...records] = readCsv(text);
      expect(records).toHaveLength(expected.length);
      records.forEach((record, index) => {
        expect(Object.fromEntries(header!.map((field, column) => [field, record[column]]))).toEqual(
          Object.fromEntries(header!.map((field) => [field, csvCellOf(expected[index]![field])])),
        );
      });
      if (expected[0]) expect(new Set(header)).toEqual(new Set(Object.keys(expected[0])));
      break;
    }
    case 'text/html': {
      const { head, rows } = readHtmlTable(text);
      expect(rows).toHaveLength(expected.length);
      rows.forEach((row, index) => {
        expect(Object.fromEntries(head.map((field, column) => [field, row[column]]))).toEqual(
          Object.fromEntries(
            head.map((field) => [field, htmlValueOf(expected[index]![field], false)]),
          ),
        );
      });
      if (expected[0]) expect(new Set(head)).toEqual(new Set(Object.keys(expected[0])));
      for (const [rel, href] of Object.entries(links)) {
        if (rel !== 'self')
          expect(text).toContain(`<a rel="${rel}" href="${href.replace(/&/g, '&amp;')}">`);
      }
      break;
    }
  }
  const linkHeader = response.headers.get('link') ?? '';
  for (const rel of ['first', 'prev', 'next', 'last'] as const) {
    if (links[rel]) expect(linkHeader).toContain(`<${links[rel]}>; rel="${rel}"`);
    else expect(linkHeader).not.toContain(`rel="${rel}"`);
  }
  return text;
}

// ---------------------------------------------------------------------------------------
// Request bodies

function csvField(value: unknown): string {
  const text =
    value === null || value === undefined
      ? ''
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function escapeHtmlText(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/**
 * A request body holding `record` in `mediaType`, written the way a client of that type
 * writes one: JSON:API as `data.attributes`, JSON-LD with its keywords, CSV as a header
 * and one record, HTML as the `<dt>name</dt><dd>value</dd>` list the service itself writes.
 */
export function encodeBody(
  mediaType: ResourceMediaType,
  record: Record<string, unknown>,
  type = 'Resource',
): string {
  switch (mediaType) {
    case 'application/json':
      return JSON.stringify(record);
    case 'application/vnd.api+json':
      return JSON.stringify({ data: { type, attributes: record } });
    case 'application/ld+json':
      return JSON.stringify({ '@context': `/api/contexts/${type}`, '@type': type, ...record });
    case 'text/csv': {
      const fields = Object.keys(record);
      return `${fields.map(csvField).join(',')}\r\n${fields.map((field) => csvField(record[field])).join(',')}\r\n`;
    }
    case 'text/html': {
      const rows = Object.entries(record).map(([field, value]) => {
        const text =
          value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
        return `<dt>${escapeHtmlText(field)}</dt><dd${value === null ? ' data-null=""' : ''}>${escapeHtmlText(text)}</dd>`;
      });
      return `<!doctype html><html><body><dl>\n${rows.join('\n')}\n</dl></body></html>`;
    }
  }
}
