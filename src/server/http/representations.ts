/**
 * The five representations of every resource, produced in one place. Routes hand over
 * wire objects (the `application/json` shape from src/contract) and a resource kind; this
 * module turns them into JSON, JSON:API, JSON-LD/Hydra, CSV or HTML as the spec's
 * "Representations" section describes.
 */
import { formatCsv } from '../formats/csv.js';
import type { ResourceMediaType } from './negotiation.js';
import { pageCsp } from './page-layout.js';

export interface Relationship {
  type: string;
  many: boolean;
}

export interface ResourceKind {
  /** The JSON:API `type` and JSON-LD `@type`. */
  type: string;
  /** Field order of CSV columns and HTML rows; the wire object's keys in the spec's order. */
  fields: readonly string[];
  /**
   * Fields only some answers carry, beyond `fields` (the webhook secret of a create or a
   * rotation): a client may send them back with the rest, and they are ignored as `fields` are.
   */
  answerOnlyFields?: readonly string[];
  /** Fields holding IRI references, which JSON:API moves to `relationships`. */
  relationships: Readonly<Record<string, Relationship>>;
  iri(resource: WireObject): string;
}

export type WireObject = Record<string, unknown> & { id: string };

export interface PageInfo {
  /** The path the collection was requested at, e.g. `/api/saved_extractors`. */
  path: string;
  /** Query parameters other than `page`, kept in every link. */
  query: URLSearchParams;
  page: number;
  itemsPerPage: number;
  totalItems: number;
  /** Query parameters the collection can be filtered by, for the Hydra search template. */
  filters: readonly { variable: string; property: string | null }[];
  /** JSON:API runs collections are a plain array of resources (spec, "Representations"). */
  plainJsonApiArray?: boolean;
}

export interface Representation {
  body: string;
  contentType: string;
  headers?: Record<string, string>;
}

const contentTypes: Record<ResourceMediaType, string> = {
  'application/json': 'application/json; charset=utf-8',
  'application/vnd.api+json': 'application/vnd.api+json',
  'application/ld+json': 'application/ld+json; charset=utf-8',
  'text/csv': 'text/csv; charset=utf-8; header=present',
  'text/html': 'text/html; charset=utf-8',
};

/**
 * The kind's fields in order, then any the resource has beyond them (the webhook secret
 * that only a create or a rotation answers with), so every representation shows the
 * same fields as JSON: a field the resource leaves out (what an embed session may not
 * see) is left out of every representation too.
 */
function fieldsOf(kind: ResourceKind, resource: WireObject): readonly string[] {
  const keys = Object.keys(resource);
  if (keys.length === kind.fields.length && kind.fields.every((field) => field in resource))
    return kind.fields;
  const extra = keys.filter((field) => !kind.fields.includes(field));
  return [...kind.fields.filter((field) => field in resource), ...extra];
}

export function contextIri(kind: ResourceKind): string {
  return `/api/contexts/${kind.type}`;
}

// ---------------------------------------------------------------------------------------
// Single resources

export function representResource(
  kind: ResourceKind,
  resource: WireObject,
  mediaType: ResourceMediaType,
  included: readonly { kind: ResourceKind; resource: WireObject }[] = [],
): Representation {
  const contentType = contentTypes[mediaType];
  switch (mediaType) {
    case 'application/json':
      return { body: JSON.stringify(resource), contentType };
    case 'application/vnd.api+json': {
      const document: Record<string, unknown> = { data: toJsonApiResource(kind, resource) };
      if (included.length > 0) {
        document.included = included.map((entry) => toJsonApiResource(entry.kind, entry.resource));
      }
      return { body: JSON.stringify(document), contentType };
    }
    case 'application/ld+json':
      return {
        body: JSON.stringify({ '@context': contextIri(kind), ...toJsonLdResource(kind, resource) }),
        contentType,
      };
    case 'text/csv': {
      const fields = fieldsOf(kind, resource);
      return { body: formatCsv(fields, [fields.map((field) => resource[field])]), contentType };
    }
    case 'text/html':
      return {
        body: htmlPage(`${kind.type} ${resource.id}`, renderDefinitionList(kind, resource)),
        contentType,
        headers: { 'Content-Security-Policy': apiPageCsp },
      };
  }
}

export function toJsonApiResource(
  kind: ResourceKind,
  resource: WireObject,
): Record<string, unknown> {
  const attributes: Record<string, unknown> = { _id: resource.id };
  const relationships: Record<string, unknown> = {};
  for (const field of fieldsOf(kind, resource)) {
    if (field === 'id') continue;
    const relationship = kind.relationships[field];
    const value = resource[field];
    if (!relationship) attributes[field] = value;
    else if (relationship.many) {
      relationships[field] = {
        data: ((value as string[] | undefined) ?? []).map((iri) => ({
          type: relationship.type,
          id: iri,
        })),
      };
    } else {
      relationships[field] = { data: value ? { type: relationship.type, id: value } : null };
    }
  }
  return {
    id: kind.iri(resource),
    type: kind.type,
    attributes,
    ...(Object.keys(relationships).length > 0 ? { relationships } : {}),
  };
}

function toJsonLdResource(kind: ResourceKind, resource: WireObject): Record<string, unknown> {
  return { '@id': kind.iri(resource), '@type': kind.type, ...resource };
}

// ---------------------------------------------------------------------------------------
// Collections

function pageLink(info: PageInfo, page: number): string {
  const query = new URLSearchParams(info.query);
  query.set('page', String(page));
  return `${info.path}?${query.toString()}`;
}

export function lastPage(info: Pick<PageInfo, 'totalItems' | 'itemsPerPage'>): number {
  return Math.max(1, Math.ceil(info.totalItems / info.itemsPerPage));
}

interface PageLinks {
  self: string;
  first: string;
  last: string;
  prev?: string;
  next?: string;
}

function pageLinks(info: PageInfo): PageLinks {
  const last = lastPage(info);
  return {
    self: pageLink(info, info.page),
    first: pageLink(info, 1),
    last: pageLink(info, last),
    ...(info.page > 1 ? { prev: pageLink(info, Math.min(info.page - 1, last)) } : {}),
    ...(info.page < last ? { next: pageLink(info, info.page + 1) } : {}),
  };
}

/** RFC 8288 `Link` header with the same first/prev/next/last links, for every media type. */
function linkHeader(links: PageLinks): string {
  const relations: [keyof PageLinks, string][] = [
    ['first', 'first'],
    ['prev', 'prev'],
    ['next', 'next'],
    ['last', 'last'],
  ];
  return relations
    .filter(([key]) => links[key])
    .map(([key, rel]) => `<${links[key]}>; rel="${rel}"`)
    .join(', ');
}

export function representCollection(
  kind: ResourceKind,
  resources: readonly WireObject[],
  mediaType: ResourceMediaType,
  info: PageInfo,
): Representation {
  const contentType = contentTypes[mediaType];
  const links = pageLinks(info);
  const headers = { Link: linkHeader(links), 'X-Total-Count': String(info.totalItems) };
  switch (mediaType) {
    case 'application/json':
      return { body: JSON.stringify(resources), contentType, headers };
    case 'application/vnd.api+json': {
      const data = resources.map((resource) => toJsonApiResource(kind, resource));
      if (info.plainJsonApiArray) return { body: JSON.stringify(data), contentType, headers };
      const document = {
        data,
        links,
        meta: {
          totalItems: info.totalItems,
          itemsPerPage: info.itemsPerPage,
          currentPage: info.page,
        },
      };
      return { body: JSON.stringify(document), contentType, headers };
    }
    case 'application/ld+json': {
      const view: Record<string, unknown> = {
        '@id': links.self,
        '@type': 'PartialCollectionView',
        first: links.first,
        last: links.last,
        ...(links.prev ? { previous: links.prev } : {}),
        ...(links.next ? { next: links.next } : {}),
      };
      const variables = ['page', ...info.filters.map((filter) => filter.variable)];
      const document = {
        '@context': contextIri(kind),
        '@id': info.path,
        '@type': 'Collection',
        member: resources.map((resource) => toJsonLdResource(kind, resource)),
        totalItems: info.totalItems,
        view,
        search: {
          '@type': 'IriTemplate',
          template: `${info.path}{?${variables.join(',')}}`,
          variableRepresentation: 'BasicRepresentation',
          mapping: [
            { '@type': 'IriTemplateMapping', variable: 'page', property: null, required: false },
            ...info.filters.map((filter) => ({
              '@type': 'IriTemplateMapping',
              variable: filter.variable,
              property: filter.property,
              required: false,
            })),
          ],
        },
      };
      return { body: JSON.stringify(document), contentType, headers };
    }
    case 'text/csv':
      return {
        body: formatCsv(
          kind.fields,
          resources.map((resource) => kind.fields.map((field) => resource[field])),
        ),
        contentType,
        headers,
      };
    case 'text/html':
      return {
        body: htmlPage(`${kind.type} collection`, renderTable(kind, resources, info, links)),
        contentType,
        headers: { ...headers, 'Content-Security-Policy': apiPageCsp },
      };
  }
}

/** The path of the JSON-LD vocabulary (vocabulary.ts), and the base of its IRIs. */
export const vocabularyPath = '/api/vocab';

/** The IRI of a type of the vocabulary: `/api/vocab#SavedExtractor`. */
export function typeIri(type: string): string {
  return `${vocabularyPath}#${type}`;
}

/** What a type's terms expand to: its IRI and a dot, then the term (`…#SavedExtractor.label`). */
export function termPrefix(type: string): string {
  return `${typeIri(type)}.`;
}

/** The JSON-LD context of a resource type, served at `/api/contexts/{type}`. */
export function jsonLdContext(kind: ResourceKind): Record<string, unknown> {
  const context: Record<string, unknown> = {
    // Each term and the type resolve to where /api/vocab describes them.
    '@vocab': termPrefix(kind.type),
    [kind.type]: typeIri(kind.type),
    hydra: 'http://www.w3.org/ns/hydra/core#',
    Collection: 'hydra:Collection',
    PartialCollectionView: 'hydra:PartialCollectionView',
    IriTemplate: 'hydra:IriTemplate',
    IriTemplateMapping: 'hydra:IriTemplateMapping',
    member: 'hydra:member',
    totalItems: 'hydra:totalItems',
    view: 'hydra:view',
    first: { '@id': 'hydra:first', '@type': '@id' },
    last: { '@id': 'hydra:last', '@type': '@id' },
    previous: { '@id': 'hydra:previous', '@type': '@id' },
    next: { '@id': 'hydra:next', '@type': '@id' },
    search: 'hydra:search',
    template: 'hydra:template',
    variableRepresentation: 'hydra:variableRepresentation',
    mapping: 'hydra:mapping',
    variable: 'hydra:variable',
    property: 'hydra:property',
    required: 'hydra:required',
  };
  for (const field of Object.keys(kind.relationships)) context[field] = { '@type': '@id' };
  return { '@context': context };
}

// ---------------------------------------------------------------------------------------
// HTML: plain, readable, and every value escaped.

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function isLinkable(value: string): boolean {
  return /^\/api\/[\w/-]+$/.test(value);
}

function renderValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) {
    if (value.length === 0) return '';
    return `<ul>${value.map((item) => `<li>${renderValue(item)}</li>`).join('')}</ul>`;
  }
  if (typeof value === 'object') return `<code>${escapeHtml(JSON.stringify(value))}</code>`;
  const text = String(value);
  if (isLinkable(text)) return `<a href="${escapeHtml(text)}">${escapeHtml(text)}</a>`;
  return escapeHtml(text);
}

function renderDefinitionList(kind: ResourceKind, resource: WireObject): string {
  const rows = fieldsOf(kind, resource)
    .map((field) => {
      const value = resource[field];
      const nullMark = value === null ? ' data-null=""' : '';
      return `<dt>${escapeHtml(field)}</dt><dd${nullMark}>${renderValue(value)}</dd>`;
    })
    .join('\n');
  return `<h1>${escapeHtml(kind.type)}</h1>\n<dl>\n${rows}\n</dl>`;
}

function renderTable(
  kind: ResourceKind,
  resources: readonly WireObject[],
  info: PageInfo,
  links: PageLinks,
): string {
  const head = kind.fields.map((field) => `<th scope="col">${escapeHtml(field)}</th>`).join('');
  const body = resources
    .map(
      (resource) =>
        `<tr>${kind.fields.map((field) => `<td>${renderValue(resource[field])}</td>`).join('')}</tr>`,
    )
    .join('\n');
  const navigation = (['first', 'prev', 'next', 'last'] as const)
    .filter((rel) => links[rel])
    .map((rel) => `<a rel="${rel}" href="${escapeHtml(links[rel]!)}">${rel}</a>`)
    .join(' ');
  return `<h1>${escapeHtml(kind.type)} collection</h1>
<p>${info.totalItems} in all; page ${info.page} of ${lastPage(info)}.</p>
<div class="scroll"><table><thead><tr>${head}</tr></thead><tbody>
${body}
</tbody></table></div>
<nav aria-label="Pages">${navigation}</nav>`;
}

/** The one stylesheet of the API's HTML pages; its hash goes into their CSP. */
export const apiPageStyle =
  'body{font:15px/1.5 system-ui,sans-serif;margin:2rem;color:#1d2330;background:#fff}' +
  'dt{font-weight:600;margin-top:.5rem}dd{margin-left:1rem;white-space:pre-wrap;word-break:break-word}' +
  'table{border-collapse:collapse}th,td{border:1px solid #d5d9e0;padding:.25rem .5rem;vertical-align:top;max-width:24rem;overflow-wrap:anywhere}' +
  '.scroll{overflow-x:auto}nav a{margin-right:1rem}' +
  '@media (prefers-color-scheme:dark){body{background:#12151b;color:#e6e8ec}a{color:#8fb4ff}th,td{border-color:#39404d}}';

/**
 * The Content-Security-Policy of every HTML representation: its one inline stylesheet and
 * nothing else, so that a value the escaping missed could still run no script, load
 * nothing, post no form and be framed by no page.
 */
export const apiPageCsp = pageCsp(apiPageStyle);

export function htmlPage(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${apiPageStyle}</style></head>
<body><main>
${content}
</main></body>
</html>
`;
}
