/**
 * A client that holds the service to the OpenAPI document it serves: every request it sends
 * is first checked against the document (a documented operation, its parameters, its
 * security, its body for the Content-Type sent), and every answer after (a documented
 * status, a Content-Type listed for it, a body valid against that media type's schema, the
 * documented headers' values). What does not match is kept as a violation, naming the
 * request and the JSON pointer, so a test can show them all at once.
 *
 * The schemas are checked with Ajv (JSON Schema 2020-12, the document's dialect) and
 * ajv-formats, and the document itself against the OpenAPI 3.1 meta-schema with
 * @seriousme/openapi-schema-validator: none of it is ours, so the document is read as any
 * client generator or validating proxy would read it.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

type Json = Record<string, unknown>;

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  pathParameters: string[];
  /** JSON pointer of the operation object in the document. */
  pointer: string;
  object: Json;
}

/** An example the document carries, with what it belongs to. */
export interface DocumentedExample {
  /** Where it is, as a JSON pointer into the document. */
  pointer: string;
  /** JSON pointer of the schema it illustrates. */
  schemaPointer: string;
  value: unknown;
  /** For a request body's example: the operation and the media type to send it as. */
  request?: { method: string; template: string; mediaType: string };
}

export interface ContractRequest {
  method?: string;
  /** The path and query, as `/api/buckets?page=2`. */
  path: string;
  headers?: Record<string, string>;
  /** A JSON value, sent as JSON unless a Content-Type says otherwise; or a FormData. */
  body?: unknown;
  /** The bearer token; `null` sends none. Defaults to the contract's token. */
  token?: string | null;
  /**
   * The request breaks the document on purpose (no token, a body of the wrong type or
   * shape): that it does is checked instead of kept as a violation; its answer is checked
   * as any other.
   */
  breaksDocument?: boolean;
}

export interface ContractAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The operation the request matched, if any. */
  operationId: string | undefined;
  json<T = unknown>(): T;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const documentId = 'urn:extractor:openapi';

const escapeToken = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');
const pointerOf = (...tokens: string[]) => tokens.map((token) => `/${escapeToken(token)}`).join('');

/** The media type without its parameters, lower-cased. */
export const essenceOf = (contentType: string | null) =>
  (contentType ?? '').split(';')[0]!.trim().toLowerCase();

const isJsonMediaType = (type: string) => type === 'application/json' || type.endsWith('+json');

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Text of a query, path or header parameter read as its schema's type. */
function coerceParameter(text: string, schema: Json): unknown {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(text))
    return Number(text);
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/** Whether an Accept header admits a media type (RFC 9110 section 12.5.1; q=0 refuses). */
function accepts(accept: string, mediaType: string): boolean {
  const [type] = mediaType.split('/');
  return accept.split(',').some((range) => {
    const [name = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    if (q !== undefined && Number(q.slice(2)) === 0) return false;
    return name === '*/*' || name === `${type}/*` || name === mediaType;
  });
}

function describeErrors(errors: readonly ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .map((error) => {
      const extra =
        error.keyword === 'additionalProperties'
          ? ` (${String(error.params.additionalProperty)})`
          : error.keyword === 'enum'
            ? ` (${JSON.stringify(error.params.allowedValues)})`
            : '';
      return `${error.instancePath || '/'} ${error.message ?? error.keyword}${extra}`;
    })
    .join('; ');
}

export class OpenApiContract {
  readonly document: Json;
  /** Every mismatch between the service and its document seen so far. */
  readonly violations: string[] = [];
  readonly #baseUrl: string;
  readonly #token: string;
  readonly #operations: Operation[];
  readonly #ajv: Ajv2020;
  readonly #compiled = new Map<string, ValidateFunction>();

  private constructor(document: Json, baseUrl: string, token: string) {
    this.document = document;
    this.#baseUrl = baseUrl;
    this.#token = token;
    this.#ajv = addFormats(new Ajv2020({ strict: false, allErrors: true, logger: false }));
    // The document is one schema resource: a `#/components/schemas/…` reference inside any
    // of its schemas resolves against it, as it does for the document's readers.
    this.#ajv.addSchema({ ...document, $id: documentId }, documentId, undefined, false);
    this.#operations = OpenApiContract.#operationsOf(document);
  }

  /** Fetches the document the service at `baseUrl` serves. */
  static async load(baseUrl: string, token: string): Promise<OpenApiContract> {
    const response = await fetch(`${baseUrl}/api/docs.json`);
    if (!response.ok) throw new Error(`/api/docs.json answered ${response.status}`);
    return new OpenApiContract((await response.json()) as Json, baseUrl, token);
  }

  static #operationsOf(document: Json): Operation[] {
    const operations: Operation[] = [];
    for (const [template, item] of Object.entries(document.paths as Record<string, Json>)) {
      for (const [method, object] of Object.entries(item)) {
        if (!isRecord(object) || !('responses' in object)) continue;
        const pathParameters: string[] = [];
        const source = template
          .split(/(\{\w+\})/)
          .map((part) => {
            const name = /^\{(\w+)\}$/.exec(part)?.[1];
            if (!name) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
            pathParameters.push(name);
            return '([^/]+)';
          })
          .join('');
        operations.push({
          method: method.toUpperCase(),
          template,
          pattern: new RegExp(`^${source}$`),
          pathParameters,
          pointer: pointerOf('paths', template, method),
          object,
        });
      }
    }
    // A literal segment wins over a parameter (/api/embed_sessions/current over {id}).
    return operations.sort((a, b) => a.pathParameters.length - b.pathParameters.length);
  }

  /** The document's violations of the OpenAPI 3.1 meta-schema. */
  async metaSchemaViolations(): Promise<string[]> {
    const result = await new Validator({ strict: false }).validate(structuredClone(this.document));
    if (result.valid) return [];
    return typeof result.errors === 'string'
      ? [result.errors]
      : (result.errors ?? []).map(
          (error) => `${error.instancePath} ${error.message ?? ''} ${JSON.stringify(error.params)}`,
        );
  }

  /** The value at a JSON pointer of the document. */
  at(pointer: string): unknown {
    return pointer
      .split('/')
      .slice(1)
      .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, token) => (isRecord(node) ? node[token] : undefined), this.document);
  }

  /** Follows a `$ref` into the document, if the object is one. */
  #resolved(object: unknown): { value: Json; pointer: string } | undefined {
    if (!isRecord(object)) return undefined;
    if (typeof object.$ref !== 'string') return undefined;
    const pointer = object.$ref.replace(/^#/, '');
    const value = this.at(pointer);
    return isRecord(value) ? { value, pointer } : undefined;
  }

  /** The errors of `value` against the schema at `pointer`, or none. */
  schemaErrors(pointer: string, value: unknown): string | undefined {
    let validate = this.#compiled.get(pointer);
    if (!validate) {
      validate = this.#ajv.compile({ $ref: `${documentId}#${encodeURI(pointer)}` });
      this.#compiled.set(pointer, validate);
    }
    return validate(value) ? undefined : describeErrors(validate.errors);
  }

  /** Every example in the document: request bodies', answers' and parameters'. */
  examples(): DocumentedExample[] {
    const found: DocumentedExample[] = [];
    const fromContent = (
      content: unknown,
      at: string,
      request?: { method: string; template: string },
    ) => {
      if (!isRecord(content)) return;
      for (const [mediaType, media] of Object.entries(content)) {
        if (!isRecord(media)) continue;
        const mediaPointer = `${at}${pointerOf(mediaType)}`;
        const values: [string, unknown][] = [];
        if ('example' in media) values.push([`${mediaPointer}/example`, media.example]);
        for (const [name, example] of Object.entries(
          isRecord(media.examples) ? media.examples : {},
        ))
          if (isRecord(example) && 'value' in example)
            values.push([`${mediaPointer}${pointerOf('examples', name, 'value')}`, example.value]);
        for (const [pointer, value] of values)
          found.push({
            pointer,
            schemaPointer: `${mediaPointer}/schema`,
            value,
            ...(request ? { request: { ...request, mediaType } } : {}),
          });
      }
    };
    const fromResponses = (responses: unknown, at: string) => {
      for (const [status, response] of Object.entries(isRecord(responses) ? responses : {}))
        if (isRecord(response) && !('$ref' in response))
          fromContent(response.content, `${at}${pointerOf(status, 'content')}`);
    };
    for (const operation of this.#operations) {
      const { object, pointer } = operation;
      const body = object.requestBody;
      if (isRecord(body))
        fromContent(body.content, `${pointer}/requestBody/content`, {
          method: operation.method,
          template: operation.template,
        });
      fromResponses(object.responses, `${pointer}/responses`);
      (Array.isArray(object.parameters) ? object.parameters : []).forEach(
        (parameter: unknown, index) => {
          if (isRecord(parameter) && 'example' in parameter)
            found.push({
              pointer: `${pointer}/parameters/${index}/example`,
              schemaPointer: `${pointer}/parameters/${index}/schema`,
              value: parameter.example,
            });
        },
      );
    }
    const components = this.document.components;
    if (isRecord(components)) fromResponses(components.responses, '/components/responses');
    return found;
  }

  #operationOf(method: string, pathname: string) {
    for (const operation of this.#operations) {
      if (operation.method !== method) continue;
      const match = operation.pattern.exec(pathname);
      if (!match) continue;
      const values = Object.fromEntries(
        operation.pathParameters.map((name, index) => [
          name,
          decodeURIComponent(match[index + 1]!),
        ]),
      );
      return { operation, values };
    }
    return undefined;
  }

  /** Sends a request checked against the document and checks its answer. */
  async call(request: ContractRequest): Promise<ContractAnswer> {
    const method = (request.method ?? 'GET').toUpperCase();
    const url = new URL(request.path, this.#baseUrl);
    const headers = new Headers(request.headers);
    const token = request.token === undefined ? this.#token : request.token;
    if (token !== null && !headers.has('authorization'))
      headers.set('Authorization', `Bearer ${token}`);
    let body: BodyInit | undefined;
    if (request.body instanceof FormData) body = request.body;
    else if (typeof request.body === 'string') body = request.body;
    else if (request.body !== undefined) {
      if (!headers.has('content-type')) headers.set('Content-Type', 'application/json');
      body = JSON.stringify(request.body);
    }
    const label = `${method} ${url.pathname}${url.search}`;
    const matched = this.#operationOf(method, url.pathname);
    const problems = matched
      ? this.#requestProblems(matched.operation, matched.values, url, headers, request.body)
      : ['no operation of the document'];
    if (request.breaksDocument !== true)
      for (const problem of problems) this.violations.push(`${label} (request): ${problem}`);
    else if (problems.length === 0)
      this.violations.push(`${label} (request): meant to break the document, it does not`);

    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    if (matched) this.#checkResponse(label, matched.operation, response, text);
    const accept = headers.get('accept');
    const answered = essenceOf(response.headers.get('content-type'));
    if (response.ok && accept && answered && !accepts(accept, answered))
      this.violations.push(
        `${label}: answered ${answered}, which Accept: ${accept} does not admit`,
      );
    return {
      status: response.status,
      headers: response.headers,
      text,
      operationId: matched?.operation.object.operationId as string | undefined,
      json: <T>() => JSON.parse(text) as T,
    };
  }

  /** How a request breaks the document, if it does. */
  #requestProblems(
    operation: Operation,
    pathValues: Record<string, string>,
    url: URL,
    headers: Headers,
    body: unknown,
  ): string[] {
    const parameters = (
      Array.isArray(operation.object.parameters) ? operation.object.parameters : []
    ) as Json[];
    const problems: string[] = [];
    const check = (index: number, name: string, text: string) => {
      const parameter = parameters[index]!;
      if (text === '' && parameter.allowEmptyValue === true) return;
      const errors = this.schemaErrors(
        `${operation.pointer}/parameters/${index}/schema`,
        coerceParameter(text, (parameter.schema ?? {}) as Json),
      );
      if (errors) problems.push(`${String(parameter.in)} parameter ${name}: ${errors}`);
    };
    const security = (operation.object.security ?? this.document.security) as
      Record<string, string[]>[] | undefined;
    const schemes = (this.document.components as { securitySchemes?: Record<string, Json> })
      .securitySchemes;
    const queryKeys = new Set(
      (security ?? []).flatMap((requirement) =>
        Object.keys(requirement)
          .map((name) => schemes?.[name])
          .filter((scheme) => scheme?.type === 'apiKey' && scheme.in === 'query')
          .map((scheme) => String(scheme!.name)),
      ),
    );
    parameters.forEach((parameter, index) => {
      const name = String(parameter.name);
      if (parameter.in === 'path') check(index, name, pathValues[name] ?? '');
      if (parameter.in === 'query') {
        const values = url.searchParams.getAll(name);
        if (values.length === 0 && parameter.required === true)
          problems.push(`the query parameter ${name} is required`);
        for (const value of values) check(index, name, value);
      }
      if (parameter.in === 'header') {
        const value = headers.get(name);
        if (value === null && parameter.required === true)
          problems.push(`the header ${name} is required`);
        if (value !== null) check(index, name, value);
      }
    });
    for (const name of new Set(url.searchParams.keys()))
      if (!parameters.some((p) => p.in === 'query' && p.name === name) && !queryKeys.has(name))
        problems.push(`the query parameter ${name} is not documented`);
    if (security && security.length > 0) {
      const bearer = /^Bearer \S+$/.test(headers.get('authorization') ?? '');
      const satisfied = security.some((requirement) =>
        Object.keys(requirement).every((name) => {
          const scheme = schemes?.[name];
          if (scheme?.type === 'http' && scheme.scheme === 'bearer') return bearer;
          if (scheme?.type === 'apiKey' && scheme.in === 'query')
            return url.searchParams.has(String(scheme.name));
          return false;
        }),
      );
      if (!satisfied) problems.push('it carries none of the security schemes the document asks');
    }
    const requestBody = operation.object.requestBody as Json | undefined;
    if (body === undefined) {
      if (requestBody?.required === true) problems.push('the body is required');
    } else if (!requestBody) {
      problems.push('the operation takes no body');
    } else {
      const contentType = essenceOf(headers.get('content-type'));
      const content = (requestBody.content ?? {}) as Record<string, unknown>;
      const mediaType =
        body instanceof FormData ? 'multipart/form-data' : contentType || 'application/json';
      if (!(mediaType in content)) {
        problems.push(`a body of type ${mediaType} is not documented`);
      } else if (isJsonMediaType(mediaType)) {
        let value = body;
        try {
          if (typeof body === 'string') value = JSON.parse(body);
        } catch {
          problems.push(`the ${mediaType} body is not JSON`);
        }
        const errors = this.schemaErrors(
          `${operation.pointer}${pointerOf('requestBody', 'content', mediaType, 'schema')}`,
          value,
        );
        if (errors) problems.push(`body: ${errors}`);
      }
    }
    return problems;
  }

  #checkResponse(label: string, operation: Operation, response: Response, text: string): void {
    const responses = operation.object.responses as Record<string, unknown>;
    const status = String(response.status);
    const key = [status, `${status[0]}XX`, 'default'].find((candidate) => candidate in responses);
    const at = `${label} → ${status}`;
    if (key === undefined) {
      this.violations.push(`${at}: the status is not documented (${text.slice(0, 200)})`);
      return;
    }
    let documented = responses[key] as Json;
    let pointer = `${operation.pointer}${pointerOf('responses', key)}`;
    const resolved = this.#resolved(documented);
    if (resolved) ({ value: documented, pointer } = resolved);

    for (const [name, header] of Object.entries(
      (documented.headers ?? {}) as Record<string, Json>,
    )) {
      const value = response.headers.get(name);
      if (value === null) {
        if (header.required === true) this.violations.push(`${at}: the header ${name} is missing`);
        continue;
      }
      const schema = (header.schema ?? {}) as Json;
      const errors = this.schemaErrors(
        `${pointer}${pointerOf('headers', name, 'schema')}`,
        coerceParameter(value, schema),
      );
      if (errors) this.violations.push(`${at}: the header ${name} ${errors}`);
    }

    const content = documented.content as Record<string, unknown> | undefined;
    if (!content) {
      if (text !== '') this.violations.push(`${at}: a body where the document says none`);
      return;
    }
    const mediaType = essenceOf(response.headers.get('content-type'));
    if (!(mediaType in content)) {
      this.violations.push(
        `${at}: Content-Type ${mediaType || '(none)'} is not among ${Object.keys(content).join(', ')}`,
      );
      return;
    }
    const schemaPointer = `${pointer}${pointerOf('content', mediaType, 'schema')}`;
    let value: unknown = text;
    if (isJsonMediaType(mediaType)) {
      try {
        value = JSON.parse(text);
      } catch {
        this.violations.push(`${at}: the ${mediaType} body is not JSON`);
        return;
      }
    } else if (!/^text\/|\+xml$|\/xml$/.test(mediaType)) {
      return; // Pictures and uploaded files: bytes the schema cannot describe.
    }
    const errors = this.schemaErrors(schemaPointer, value);
    if (errors) this.violations.push(`${at} ${mediaType}: ${errors}`);
  }
}
