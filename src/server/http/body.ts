/**
 * Request bodies in any of the five media types, turned into a plain record and validated
 * with a contract schema. Syntax problems are 400s; values that break the schema are 422s
 * with a JSON pointer for each.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { HttpBindings } from '@hono/node-server';
import * as z from 'zod/mini';
import { en } from 'zod/locales';
import { watchBodyPace } from '../body-pace.js';
import type { InputTooSlowError } from '../errors.js';
import { parseCsv, restoreCell } from '../formats/csv.js';
import { readDefinitions } from '../formats/html.js';
import { essence, resourceMediaTypes, type ResourceMediaType } from './negotiation.js';
import {
  badQuery,
  badRequest,
  payloadTooLarge,
  unsupportedMediaType,
  validationError,
  type FieldError,
} from './problem.js';

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

/** The attributes of a JSON:API document, with to-one relationships folded in as ids. */
function fromJsonApi(document: unknown): Record<string, unknown> {
  if (!isRecord(document) || !isRecord(document.data)) {
    throw badRequest('A JSON:API body must be an object with a "data" object.');
  }
  const { attributes = {}, relationships = {} } = document.data;
  if (!isRecord(attributes) || !isRecord(relationships)) {
    throw badRequest('"data.attributes" and "data.relationships" must be objects.');
  }
  const record: Record<string, unknown> = { ...attributes };
  for (const [name, relationship] of Object.entries(relationships)) {
    if (
      isRecord(relationship) &&
      isRecord(relationship.data) &&
      typeof relationship.data.id === 'string'
    ) {
      record[name] = relationship.data.id;
    }
  }
  return record;
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

export interface DecodedBody {
  record: Record<string, unknown>;
  /** Whether values arrived as text (CSV, HTML) and need reading as the schema's types. */
  textual: boolean;
}

/** Reads a body in one of the five media types into a record of fields. */
export async function decodeBody(request: Request): Promise<DecodedBody> {
  const type = essence(request.headers.get('content-type'));
  if (!resourceMediaTypes.includes(type as ResourceMediaType)) {
    throw unsupportedMediaType(
      type
        ? `Bodies of type ${type} are not accepted.`
        : 'The request has a body but no Content-Type.',
      resourceMediaTypes,
    );
  }
  const text = await readBodyText(request, maxBodyBytes[type as ResourceMediaType]);
  if (!text.trim()) throw badRequest('A request body is required.');
  switch (type as ResourceMediaType) {
    case 'application/json':
    case 'application/ld+json': {
      const value = parseJsonBody(text);
      if (!isRecord(value)) throw badRequest('The body must be a JSON object.');
      const record = Object.fromEntries(
        Object.entries(value).filter(([key]) => !key.startsWith('@')),
      );
      return { record, textual: false };
    }
    case 'application/vnd.api+json':
      return { record: fromJsonApi(parseJsonBody(text)), textual: false };
    case 'text/csv':
      return { record: fromCsv(text), textual: true };
    case 'text/html':
      return { record: fromHtml(text), textual: true };
  }
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

/** Validates a record with a contract schema: the parsed value, or a 422 naming each violation. */
export function validateInput<T extends z.ZodMiniType>(schema: T, record: unknown): z.infer<T> {
  const result = schema.safeParse(record);
  if (result.success) return result.data as z.infer<T>;
  const errors: FieldError[] = result.error.issues.map((issue) => ({
    pointer: pointerOf(issue.path),
    detail: issue.message,
  }));
  throw validationError(errors);
}

/** Reads and validates a body in one step: the usual path of a POST or PUT. */
export async function readInput<T extends z.ZodMiniType>(
  request: Request,
  schema: T,
): Promise<z.infer<T>> {
  const { record, textual } = await decodeBody(request);
  return validateInput(schema, textual ? coerceTextValues(record, schema) : record);
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
