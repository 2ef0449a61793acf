/**
 * Request bodies in any of the five media types, turned into a plain record and validated
 * with a contract schema. Syntax problems are 400s; values that break the schema are 422s
 * with a JSON pointer for each.
 */
import type { Context } from 'hono';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { HttpBindings } from '@hono/node-server';
import * as z from 'zod/mini';
import { en } from 'zod/locales';
import { iriOf } from '../../contract/iri.js';
import { watchBodyPace } from '../body-pace.js';
import type { InputTooSlowError } from '../errors.js';
import { parseCsv, restoreCell } from '../formats/csv.js';
import { readDefinitions } from '../formats/html.js';
import type { AppEnv } from './context.js';
import { locateBodyFields } from './error-answers.js';
import { localReference, lowerCaseIds, resourceOfIri } from './references.js';
import { checkJsonApiContentType, jsonApiMediaType, readJsonApiDocument } from './json-api.js';
import { essence, resourceMediaTypes, type ResourceMediaType } from './negotiation.js';
import {
  badQuery,
  badRequest,
  payloadTooLarge,
  unsupportedMediaType,
  validationError,
  type FieldError,
} from './problem.js';
import type { ResourceKind } from './representations.js';
import { suggestedName } from './suggestions.js';

// zod/mini ships without messages ("Invalid input") to keep the browser bundle small; the
// server loads the English ones so each 422 says what was expected, e.g. the allowed
// strategies ("expected one of "local"|"llm"").
z.config(en());

/** Bodies other than uploads are small documents; anything larger is refused unread. */
export const maxDocumentBytes = 1024 * 1024;

/**
 * The largest body of each media type. JSON is parsed in a few milliseconds a megabyte;
 * HTML takes a parser a thousand times as long (some 5 s a megabyte of `<b>`s on a busy
 * machine, all of it on the event loop), so an HTML body is held to what an extractor
 * written as `<dl>` needs.
 */
export const maxBodyBytes: Readonly<Record<ResourceMediaType, number>> = {
  'application/json': maxDocumentBytes,
  'application/ld+json': maxDocumentBytes,
  'application/vnd.api+json': maxDocumentBytes,
  'text/csv': 256 * 1024,
  'text/html': 64 * 1024,
};

/**
 * How deep arrays and objects may nest in a JSON body. Resources and results are a few
 * levels deep; what walks a value (the results' validation, JSON.stringify) recurses, and a
 * value nested a hundred thousand deep would overflow its stack.
 */
export const maxJsonDepth = 64;

/**
 * A request's body as a Node stream, for what reads a body as it arrives (uploads). Behind
 * a port, @hono/node-server hands the app the socket's own `IncomingMessage` beside the
 * Request (`env.incoming`), and that is read: its web body is that stream turned into a
 * web stream and back, and on a 200 MB upload the conversions held the service to a fifth
 * of what node:http reads (`npm run bench -- upload`). In-process, where tests call
 * `app.fetch(request)` without a port, the web body is read; the tests of uploads over a
 * real socket read the other. Undefined when the request has no body.
 */
export function bodyStream(request: Request, env: unknown): Readable | undefined {
  const incoming = (env as Partial<HttpBindings> | undefined)?.incoming;
  if (incoming instanceof Readable) return incoming;
  return request.body ? Readable.fromWeb(request.body as WebReadableStream) : undefined;
}

export async function readBodyText(request: Request, maxBytes = maxDocumentBytes): Promise<string> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    throw payloadTooLarge(`The request body is larger than ${maxBytes} bytes.`);
  }
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let tooSlow: InputTooSlowError | undefined;
  // Cancelling ends the read that waits: it comes back done.
  const pace = watchBodyPace((error) => {
    tooSlow = error;
    void reader.cancel();
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (tooSlow) throw tooSlow;
      if (done) break;
      total += value.byteLength;
      pace.received(value.byteLength);
      if (total > maxBytes) {
        await reader.cancel();
        throw payloadTooLarge(`The request body is larger than ${maxBytes} bytes.`);
      }
      chunks.push(value);
    }
  } finally {
    pace.stop();
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw badRequest('The request body is not valid UTF-8 text.');
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether arrays and objects in JSON text nest deeper than `max`: one pass, no parse. */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c)
        index++; // a backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > max) return true;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return false;
}

/** A JSON body's value: a 400 when it is not JSON or nests deeper than `maxJsonDepth`. */
export function parseJsonBody(text: string): unknown {
  if (nestsDeeperThan(text, maxJsonDepth))
    throw badRequest(`The body nests arrays and objects deeper than ${maxJsonDepth} levels.`);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw badRequest(`The body is not valid JSON: ${(error as Error).message}.`);
  }
}

/** The `<dt>name</dt><dd>value</dd>` pairs of an HTML body, the shape the service writes. */
function fromHtml(text: string): Record<string, unknown> {
  const record = readDefinitions(text);
  if (!record)
    throw badRequest('An HTML body must hold the fields as <dt>name</dt><dd>value</dd> pairs.');
  return record;
}

function fromCsv(text: string): Record<string, unknown> {
  const rows = parseCsv(text);
  if (!rows) throw badRequest('The CSV body has a quoted field that is never closed.');
  if (rows.length !== 2) {
    throw badRequest(
      `A CSV body must have a header row and exactly one record; it has ${Math.max(rows.length - 1, 0)} records.`,
    );
  }
  const [header, values] = rows as [string[], string[]];
  if (header.length !== values.length) {
    throw badRequest(
      `The CSV record has ${values.length} fields but the header names ${header.length}.`,
    );
  }
  // Cells come back as they were before the writer neutralised them (formats/csv.ts).
  return Object.fromEntries(
    header.map((name, index) => [restoreCell(name).trim(), restoreCell(values[index]!)]),
  );
}

/** The resource a body describes. */
export interface BodyTarget {
  /**
   * Its kind: the JSON:API `type` a JSON:API body must name, and the resource's fields, which
   * a body may carry back as the client read them. Those the input schema does not take are
   * the service's to set: they are ignored, and the answer names them (`ignoreServiceFields`).
   */
  kind: ResourceKind;
  /** The id of the resource a PUT replaces; undefined for a create. */
  id?: string;
}

export interface DecodedBody {
  record: Record<string, unknown>;
  /** Whether values arrived as text (CSV, HTML) and need reading as the schema's types. */
  textual: boolean;
  /** Where a field of `record` is in the body, when that is not `/<field>` (JSON:API). */
  pointerOf?: (field: string) => string;
}

/**
 * The JSON-LD keywords a body may carry beside the fields, as the service writes them; a
 * client sends back what it read. Other `@` keys are not fields of any resource.
 */
const jsonLdKeywords = new Set(['@context', '@id', '@type']);

/** A request without a body where one is needed: 400, naming what to send. */
function missingBody(target: BodyTarget): never {
  throw badRequest(
    `The request has no body: send the ${target.kind.type}'s fields as JSON ` +
      `(or as ${resourceMediaTypes.slice(1).join(', ')}).`,
  );
}

/**
 * Reads a body in one of the five media types into a record of fields. `origins` are the
 * service's, for a JSON:API `data.id` written as an absolute IRI.
 */
export async function decodeBody(
  request: Request,
  target: BodyTarget,
  origins: readonly string[] = [new URL(request.url).origin],
): Promise<DecodedBody> {
  const contentType = request.headers.get('content-type');
  const type = essence(contentType);
  if (!type) {
    // Without a Content-Type, a request may simply have no body (curl -X POST): that is a
    // body missing, not one of a type refused.
    const declared = request.headers.get('content-length');
    if (declared === null || declared.trim() === '0') {
      if ((await readBodyText(request)) === '') missingBody(target);
    }
    throw unsupportedMediaType('The request has a body but no Content-Type.', resourceMediaTypes);
  }
  if (!resourceMediaTypes.includes(type as ResourceMediaType)) {
    throw unsupportedMediaType(`Bodies of type ${type} are not accepted.`, resourceMediaTypes);
  }
  if (type === jsonApiMediaType) checkJsonApiContentType(contentType!);
  const text = await readBodyText(request, maxBodyBytes[type as ResourceMediaType]);
  if (!text.trim()) throw badRequest('A request body is required.');
  switch (type as ResourceMediaType) {
    case 'application/json':
    case 'application/ld+json': {
      const value = parseJsonBody(text);
      if (!isRecord(value)) throw badRequest('The body must be a JSON object.');
      const record = Object.fromEntries(
        Object.entries(value).filter(([key]) => !jsonLdKeywords.has(key)),
      );
      return { record, textual: false };
    }
    case 'application/vnd.api+json':
      return {
        ...readJsonApiDocument(parseJsonBody(text), {
          type: target.kind.type,
          id: target.id,
          names: (reference) => referenceNames(reference, target, request.url, origins),
          relationships: target.kind.relationships,
        }),
        textual: false,
      };
    case 'text/csv':
      return { record: fromCsv(text), textual: true };
    case 'text/html':
      return { record: fromHtml(text), textual: true };
  }
}

/** Whether a JSON:API `data.id` (a bare id, or the IRI the service gave) names the target. */
function referenceNames(
  reference: string,
  target: BodyTarget,
  address: string,
  origins: readonly string[],
): boolean {
  if (target.id === undefined) return false;
  const id = lowerCaseIds(target.id);
  const local = localReference(reference, address, origins);
  if (local === undefined) return false;
  if (!local.includes('/')) return lowerCaseIds(local) === id;
  const named = resourceOfIri(local);
  return named !== undefined && iriOf(named.resource, named.id) === target.kind.iri({ id });
}

type FieldKind = 'string' | 'boolean' | 'integer' | 'number' | 'array' | 'object' | 'unknown';
const fieldKindCache = new WeakMap<object, Map<string, { kind: FieldKind; nullable: boolean }>>();

function fieldKinds(schema: z.ZodMiniType): Map<string, { kind: FieldKind; nullable: boolean }> {
  let kinds = fieldKindCache.get(schema);
  if (kinds) return kinds;
  kinds = new Map();
  const jsonSchema = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, { type?: string | string[]; anyOf?: { type?: string }[] }>;
  };
  for (const [name, property] of Object.entries(jsonSchema.properties ?? {})) {
    const types = [
      ...(Array.isArray(property.type) ? property.type : property.type ? [property.type] : []),
      ...(property.anyOf ?? [])
        .map((option) => option.type)
        .filter((type): type is string => !!type),
    ];
    const kind = (types.find((type) => type !== 'null') ?? 'unknown') as FieldKind;
    kinds.set(name, { kind, nullable: types.includes('null') });
  }
  fieldKindCache.set(schema, kinds);
  return kinds;
}

/** Reads CSV and HTML cell text as the types the schema expects; leaves the rest to it. */
function coerceTextValues(
  record: Record<string, unknown>,
  schema: z.ZodMiniType,
): Record<string, unknown> {
  const kinds = fieldKinds(schema);
  const result: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(record)) {
    const field = kinds.get(name);
    if (!field || typeof raw !== 'string') {
      result[name] = raw;
      continue;
    }
    const text = raw.trim();
    if (field.kind === 'string') {
      result[name] = raw === '' && field.nullable ? null : raw;
    } else if (text === '') {
      if (field.nullable) result[name] = null;
      // An empty cell of a non-text field means "not given": the default applies.
    } else if (field.kind === 'boolean') {
      const lower = text.toLowerCase();
      result[name] = ['true', '1', 'yes'].includes(lower)
        ? true
        : ['false', '0', 'no'].includes(lower)
          ? false
          : raw;
    } else if (field.kind === 'integer' || field.kind === 'number') {
      const number = Number(text);
      result[name] = Number.isFinite(number) ? number : raw;
    } else if (field.kind === 'array' || field.kind === 'object') {
      try {
        result[name] = parseJsonBody(text);
      } catch {
        result[name] = raw;
      }
    } else result[name] = raw;
  }
  return result;
}

export function pointerOf(path: readonly PropertyKey[]): string {
  return path
    .map((segment) => '/' + String(segment).replace(/~/g, '~0').replace(/\//g, '~1'))
    .join('');
}

/**
 * The errors of a failed validation, one for each violation. Zod reports a body's unknown
 * fields as one issue per object; each is an error of its own here, naming the field (and
 * the field meant, when the name is one a client could have misspelt).
 */
function fieldErrorsOf(schema: z.ZodMiniType, issues: readonly z.core.$ZodIssue[]): FieldError[] {
  return issues.flatMap((issue): FieldError[] => {
    const known = issue.code === 'unrecognized_keys' ? fieldNamesAt(schema, issue.path) : [];
    // Unknown keys of a record with named keys (a theme's tokens) are its own message's.
    if (issue.code !== 'unrecognized_keys' || known.length === 0)
      return [{ pointer: pointerOf(issue.path), detail: issue.message }];
    return issue.keys.map((key) => {
      const meant = suggestedName(key, known);
      return {
        pointer: pointerOf([...issue.path, key]),
        detail: `not a field of this request${meant ? `; did you mean ${meant}?` : ''}`,
      };
    });
  });
}

/** The object schema within `schema` at `path`, through lists, optional values and defaults. */
function fieldNamesAt(schema: z.ZodMiniType, path: readonly PropertyKey[]): string[] {
  const unwrapped = (type: z.core.$ZodType | undefined): z.core.$ZodType | undefined => {
    let current = type;
    while (current && 'innerType' in current._zod.def)
      current = (current._zod.def as { innerType: z.core.$ZodType }).innerType;
    return current;
  };
  let current = unwrapped(schema);
  for (const segment of path) {
    const def = current?._zod.def;
    if (def?.type === 'object')
      current = (def as z.core.$ZodObjectDef).shape[String(segment)] as z.core.$ZodType;
    else if (def?.type === 'array') current = (def as z.core.$ZodArrayDef).element;
    else return [];
    current = unwrapped(current);
  }
  const def = current?._zod.def;
  return def?.type === 'object' ? Object.keys((def as z.core.$ZodObjectDef).shape) : [];
}

/** Validates a record with a contract schema: the parsed value, or a 422 naming each violation. */
export function validateInput<T extends z.ZodMiniType>(schema: T, record: unknown): z.infer<T> {
  const result = schema.safeParse(record);
  if (result.success) return result.data as z.infer<T>;
  throw validationError(fieldErrorsOf(schema, result.error.issues));
}

/** The header that names the fields of a body the service ignored (docs/api/media-types.md). */
export const ignoredFieldsHeader = 'Extractor-Ignored-Fields';

/**
 * `record` without the fields the service sets itself (`serviceFields`) that `schema` does
 * not take. The specification has read-only fields ignored on input, so a client may send
 * back what it read; the answer names each field so ignored in `Extractor-Ignored-Fields`,
 * as JSON pointers into the body (RFC 9651 strings), so a client still learns that its
 * request was not wholly taken. Any other field the schema does not know stays, and the
 * schema refuses it.
 */
export function ignoreServiceFields(
  c: Context<AppEnv>,
  record: Record<string, unknown>,
  schema: z.ZodMiniObject,
  serviceFields: Iterable<string>,
  pointerOf: (field: string) => string,
): Record<string, unknown> {
  const ignored: string[] = [];
  const kept = { ...record };
  for (const field of serviceFields) {
    if (field in kept && !(field in schema.shape)) {
      delete kept[field];
      ignored.push(pointerOf(field));
    }
  }
  if (ignored.length > 0) {
    // The answer's headers, errors' too: what was ignored was ignored either way.
    const headers = c.get('answerHeaders');
    const names = ignored.map((pointer) => `"${pointer.replace(/[\\"]/g, '\\$&')}"`);
    const earlier = headers[ignoredFieldsHeader];
    headers[ignoredFieldsHeader] = [...(earlier ? [earlier] : []), ...names].join(', ');
  }
  return kept;
}

/** The origins this service is reached at: the request's, and the public base URL's. */
export function serviceOrigins(c: Context<AppEnv>): string[] {
  return [new URL(c.req.url).origin, new URL(c.get('services').config.publicBaseUrl).origin];
}

/**
 * `record` with its references (the kind's to-one relationships) as this service reads
 * them: an absolute IRI of this service, or one relative to the resource the body
 * describes, becomes its path (`localReference`); an IRI of another host is a 422. The
 * resource a create describes is a member of the collection it is sent to, so relative
 * references resolve against that collection's address with a slash after it.
 */
function withLocalReferences(
  c: Context<AppEnv>,
  record: Record<string, unknown>,
  target: BodyTarget,
): Record<string, unknown> {
  const address = new URL(c.req.url);
  address.search = '';
  const base = target.id === undefined ? `${address.href.replace(/\/$/, '')}/` : address.href;
  const origins = serviceOrigins(c);
  const errors: FieldError[] = [];
  const result = { ...record };
  for (const [field, relationship] of Object.entries(target.kind.relationships)) {
    const value = record[field];
    if (relationship.many || typeof value !== 'string') continue;
    const local = localReference(value, base, origins);
    if (local !== undefined) result[field] = local;
    else
      errors.push({
        pointer: pointerOf([field]),
        detail: `must be an id or an IRI of this service; ${JSON.stringify(value.slice(0, 200))} is not`,
      });
  }
  if (errors.length > 0) throw validationError(errors);
  return result;
}

/** The fields a resource of `kind` has: what a client may send back of what it read. */
function resourceFieldsOf(kind: ResourceKind): string[] {
  // `_id` is where JSON:API attributes carry the identifier.
  return [...kind.fields, ...(kind.answerOnlyFields ?? []), '_id'];
}

/**
 * Reads and validates a body in one step: the usual path of a POST or PUT. The body may
 * be any of the five media types; its errors point into it as it was sent (a JSON:API
 * body's at `/data/attributes/…`).
 */
export async function readInput<T extends z.ZodMiniObject>(
  c: Context<AppEnv>,
  schema: T,
  target: BodyTarget,
): Promise<z.infer<T>> {
  const request = c.req.raw;
  const {
    record,
    textual,
    pointerOf: locate,
  } = await decodeBody(request, target, serviceOrigins(c));
  if (locate) {
    locateBodyFields(request, (pointer) => {
      const field = /^\/([^/]*)/.exec(pointer);
      if (!field) return pointer;
      const name = field[1]!.replace(/~1/g, '/').replace(/~0/g, '~');
      return locate(name) + pointer.slice(field[0].length);
    });
  }
  const fields = ignoreServiceFields(
    c,
    record,
    schema,
    resourceFieldsOf(target.kind),
    (field) => locate?.(field) ?? pointerOf([field]),
  );
  const values = withLocalReferences(c, fields, target);
  return validateInput(schema, textual ? coerceTextValues(values, schema) : values);
}

/**
 * Validates a request's query with a schema, as bodies are validated: each parameter's
 * first value. What breaks the schema is a 400 naming the first parameter that does (the
 * schema's own message says what it must be). The same schema is the operation's `query`
 * in the OpenAPI document (http/openapi.ts), so what is documented is what is read.
 */
export function validateQuery<T extends z.ZodMiniType>(
  schema: T,
  query: Record<string, string | string[] | undefined>,
): z.infer<T> {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) values[name] = first;
  }
  const result = schema.safeParse(values);
  if (result.success) return result.data as z.infer<T>;
  const issue = result.error.issues[0]!;
  throw badQuery(String(issue.path[0]), issue.message);
}

/**
 * Validates the request headers a schema names (any case) as the query is validated: what
 * breaks the schema is a 400 naming the header. The same schema is the operation's
 * `headers` in the OpenAPI document.
 */
export function validateHeaders<T extends z.ZodMiniObject>(
  schema: T,
  headers: Headers,
): z.infer<T> {
  const values: Record<string, string> = {};
  for (const name of Object.keys(schema.shape)) {
    const value = headers.get(name);
    if (value !== null) values[name] = value;
  }
  const result = schema.safeParse(values);
  if (result.success) return result.data as z.infer<T>;
  const issue = result.error.issues[0]!;
  throw badRequest(`${String(issue.path[0])} ${issue.message}.`);
}

/**
 * A query parameter that may be left empty, which means the same as leaving it out
 * (`?page=&status=` is the first page of every run): `schema` reads the value when there
 * is one, and is `z.optional` or has a default.
 */
export function absentWhenEmpty<T extends z.ZodMiniType>(schema: T) {
  return z.pipe(
    z.transform((value: unknown) => (value === '' ? undefined : value)),
    schema,
  );
}

/**
 * A whole number given as text (`?page=2`): digits only, at most nine of them, from
 * `minimum` to `maximum`; `fallback` when the parameter is absent. Any other text is
 * refused with `error(text)`.
 */
export function wholeNumberParameter(range: {
  minimum: number;
  maximum: number;
  fallback: number;
  error: (text: string) => string;
}) {
  const error = (issue: { input?: unknown }) => range.error(String(issue.input));
  // Text that is such a number becomes it; any other text stays text, which the integer
  // schema then refuses with the message, quoting what was sent.
  const read = (value: unknown) =>
    typeof value === 'string' &&
    /^\d{1,9}$/.test(value) &&
    Number(value) >= range.minimum &&
    Number(value) <= range.maximum
      ? Number(value)
      : value;
  return z.pipe(
    z.transform(read),
    z._default(
      z.int({ error }).check(z.minimum(range.minimum), z.maximum(range.maximum)),
      range.fallback,
    ),
  );
}
