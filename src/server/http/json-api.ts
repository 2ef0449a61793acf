/**
 * What JSON:API 1.1 asks of a server beyond the shapes of representations.ts: request
 * documents read by its rules (a `type` of another resource is a 409, a client-generated
 * id a 403), its media type without parameters but `ext` and `profile` (a 415 for a body,
 * a 406 in Accept: negotiation.ts), and its query parameter families, none of which this
 * service supports, answered with a 400 instead of being ignored. Its error documents are
 * problem.ts's, beside the problem documents they translate.
 */
import { isPlainObject } from '../../contract/json-schema.js';
import { badQuery, badRequest, conflict, forbidden, unsupportedMediaType } from './problem.js';

export const jsonApiMediaType = 'application/vnd.api+json';

/**
 * Whether media type parameters (names, any case, `q` aside) leave a JSON:API media type
 * one this service speaks. JSON:API 1.1 allows only `ext` and `profile`; a profile may be
 * ignored, but an extension changes what documents mean, and this service supports none.
 */
export function isPlainJsonApi(parameterNames: readonly string[]): boolean {
  return parameterNames.every((name) => ['profile', 'q'].includes(name.toLowerCase()));
}

/** The parameter names of a Content-Type header: `a/b; charset=utf-8` → `['charset']`. */
function parameterNamesOf(contentType: string): string[] {
  return contentType
    .split(';')
    .slice(1)
    .map((parameter) => parameter.split('=')[0]!.trim())
    .filter((name) => name !== '');
}

/** A JSON:API body's Content-Type: a 415 with a parameter JSON:API 1.1 refuses. */
export function checkJsonApiContentType(contentType: string): void {
  const refused = parameterNamesOf(contentType).filter((name) => !isPlainJsonApi([name]));
  if (refused.length === 0) return;
  throw unsupportedMediaType(
    `A JSON:API body is ${jsonApiMediaType} with no media type parameter but profile ` +
      `(this service supports no extension); this one has ${refused.join(', ')}.`,
    [jsonApiMediaType],
  );
}

/**
 * The query parameter families of JSON:API (§6: `include`, `fields[TYPE]`, `sort`, and the
 * `page[…]` and `filter[…]` families): a server that does not support one must answer 400
 * rather than ignore it. This service supports none of them (its pages and filters are
 * the specification's plain `page`, `status`, …), whatever the representation.
 */
export function refuseJsonApiQueryFamilies(query: URLSearchParams): void {
  for (const name of query.keys()) {
    if (name === 'include' || name === 'sort' || name === 'fields')
      throw badQuery(name, `is not supported: this service has no ${name} parameter`);
    const family = /^([^[\]]+)\[/.exec(name)?.[1];
    if (family)
      throw badQuery(
        name,
        `is not supported: this service has no ${family}[…] parameters (pages are ?page=, ` +
          'filters are plain parameters such as ?status=)',
      );
  }
}

/** The resource a JSON:API request document is about. */
export interface JsonApiTarget {
  /** The JSON:API type of the resource: `data.type`, when given, must be it (else 409). */
  type: string;
  /**
   * The resource a PUT replaces: `data.id`, when given, must name it (else 409).
   * Undefined for a create, where a client-generated id is refused with a 403.
   */
  id: string | undefined;
  /** Whether `data.id` names `id` (a bare id or an IRI of it). */
  names(reference: string): boolean;
  /** The fields that are relationships (IRI references) rather than attributes. */
  relationships: Readonly<Record<string, unknown>>;
}

export interface JsonApiBody {
  /** The attributes, with each relationship as the id (or ids) of its `data`. */
  record: Record<string, unknown>;
  /** Where a field is (or, when it is missing, belongs) in the document, as a JSON pointer. */
  pointerOf(field: string): string;
}

/** A member name as a segment of a JSON pointer (RFC 6901). */
function segment(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The id of a relationship's resource identifier, or the ids of a to-many one. */
function linkageOf(relationship: unknown): string | string[] | null | undefined {
  if (!isPlainObject(relationship)) return undefined;
  const { data } = relationship;
  if (data === null) return null;
  if (isPlainObject(data) && typeof data.id === 'string') return data.id;
  if (Array.isArray(data))
    return data.flatMap((item) =>
      isPlainObject(item) && typeof item.id === 'string' ? [item.id] : [],
    );
  return undefined;
}

/**
 * The fields of a JSON:API request document (§7): its attributes (`_id`, the identifier
 * this service writes there, among them) and its relationships, as the plain record the
 * other media types give.
 */
export function readJsonApiDocument(document: unknown, target: JsonApiTarget): JsonApiBody {
  if (!isPlainObject(document) || !isPlainObject(document.data)) {
    throw badRequest('A JSON:API body must be an object with a "data" object.');
  }
  // Members JSON:API does not define (in the document or in `data`) are ignored, as
  // §5 has servers do; unknown attributes are fields of the resource, and refused as in
  // every other media type.
  const data = document.data;
  if (data.type !== undefined && data.type !== target.type) {
    throw conflict(
      `This address takes a ${target.type}; data.type names ${JSON.stringify(data.type)}.`,
    );
  }
  if (data.id !== undefined) {
    if (target.id === undefined)
      throw forbidden(
        'This service makes the ids of the resources it creates: leave data.id out.',
        [{ pointer: '/data/id', detail: 'a client-generated id is not accepted' }],
      );
    if (typeof data.id !== 'string' || !target.names(data.id))
      throw conflict(
        `data.id names ${JSON.stringify(data.id)}, not the ${target.type} at this address.`,
      );
  }
  const { attributes = {}, relationships = {} } = data;
  if (!isPlainObject(attributes) || !isPlainObject(relationships)) {
    throw badRequest('"data.attributes" and "data.relationships" must be objects.');
  }
  const record: Record<string, unknown> = { ...attributes };
  const linkages = new Set<string>();
  for (const [name, relationship] of Object.entries(relationships)) {
    const linkage = linkageOf(relationship);
    record[name] = linkage === undefined ? relationship : linkage;
    if (typeof linkage === 'string') linkages.add(name);
  }
  const pointerOf = (field: string) => {
    if (field in attributes) return `/data/attributes/${segment(field)}`;
    const relationship = `/data/relationships/${segment(field)}`;
    if (linkages.has(field)) return `${relationship}/data/id`;
    if (field in relationships || field in target.relationships) return relationship;
    return `/data/attributes/${segment(field)}`;
  };
  return { record, pointerOf };
}
