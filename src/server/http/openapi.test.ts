import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { type TargetSchema } from '../../contract/json-schema.js';
import {
  testPatternNatively,
  validateAgainstSchema as validateWith,
} from '../../contract/schema-validation.js';
import {
  documentErrorCodes,
  extractorInputSchema,
  runSchema,
  strategies,
} from '../../contract/resources.js';
import { runStatuses, runTransitions } from '../../contract/run-status.js';
import {
  createBucket,
  createExtractor,
  createSession,
  extractorInput,
  insertRun,
  upload,
  uploaded,
} from '../testing/fixtures.js';
import { adminToken, useTestService } from '../testing/test-service.js';
import { resourceMediaTypes } from './negotiation.js';
import { openApiDocument } from './api.js';
import {
  httpMethods,
  type JsonSchema,
  type OpenApiDocument,
  type OperationObject,
  type ResponseObject,
} from './openapi/objects.js';
import { problemTypes } from './problem.js';
import { runFilterParameters } from './routes/runs.js';

/** The contract's validator with the browser's patterns: these schemas are ours, not a session's. */
const validateAgainstSchema = (schema: TargetSchema, value: unknown) =>
  validateWith(schema, value, testPatternNatively);

const document = await openApiDocument('http://extractor.test');

function operationsOf(
  doc: OpenApiDocument,
): { method: string; path: string; operation: OperationObject }[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    httpMethods.flatMap((method) =>
      item[method] ? [{ method, path, operation: item[method] }] : [],
    ),
  );
}

function findOperation(operationId: string): OperationObject {
  const found = operationsOf(document).find(
    ({ operation }) => operation.operationId === operationId,
  );
  if (!found) throw new Error(`No operation ${operationId}`);
  return found.operation;
}

/** Every `$ref` anywhere in a value, with where it was found. */
function collectRefs(value: unknown, at = '#'): { ref: string; at: string }[] {
  if (Array.isArray(value))
    return value.flatMap((item, index) => collectRefs(item, `${at}/${index}`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) =>
    key === '$ref' && typeof child === 'string'
      ? [{ ref: child, at }]
      : collectRefs(child, `${at}/${key}`),
  );
}

function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>(
      (node, token) =>
        typeof node === 'object' && node !== null
          ? (node as Record<string, unknown>)[token]
          : undefined,
      root,
    );
}

/** A schema of the document as a standalone JSON Schema our contract's validator reads. */
function standalone(schema: JsonSchema): TargetSchema {
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, child]) => [
        key,
        key === '$ref' && typeof child === 'string'
          ? child.replace('#/components/schemas/', '#/$defs/')
          : rewrite(child),
      ]),
    );
  };
  return {
    ...(rewrite(schema) as TargetSchema),
    $defs: rewrite(document.components.schemas) as Record<string, TargetSchema>,
  };
}

function requestSchema(operationId: string, mediaType = 'application/json'): TargetSchema {
  const schema = findOperation(operationId).requestBody?.content[mediaType]?.schema;
  if (!schema) throw new Error(`${operationId} takes no ${mediaType} body`);
  return standalone(schema);
}

function responseSchema(operationId: string, status: string, mediaType: string): TargetSchema {
  const response = findOperation(operationId).responses[status] as ResponseObject;
  const schema = response.content?.[mediaType]?.schema;
  if (!schema) throw new Error(`${operationId} ${status} has no ${mediaType} body`);
  return standalone(schema);
}

/** What the contract test posts: bodies the API accepts (`created`) and ones it refuses. */
interface RequestCase {
  operationId: string;
  path: string;
  created: boolean;
  body: Record<string, unknown>;
}

function requestCases(bucket: { id: string }, extractor: { id: string }): RequestCase[] {
  return [
    {
      operationId: 'createExtractor',
      path: '/api/extractors',
      created: true,
      body: extractorInput(),
    },
    {
      operationId: 'createExtractor',
      path: '/api/saved_extractors',
      created: true,
      body: extractorInput({
        strategy: 'local',
        chunkSize: 200,
        allowDownload: false,
        pageTitle: 'Hi',
      }),
    },
    {
      operationId: 'createExtractor',
      path: '/api/extractors',
      created: false,
      body: { jsonSchema: extractorInput().jsonSchema },
    },
    {
      operationId: 'createExtractor',
      path: '/api/extractors',
      created: false,
      body: extractorInput({ chunkSize: 199 }),
    },
    {
      operationId: 'createExtractor',
      path: '/api/extractors',
      created: false,
      body: { ...extractorInput(), strategy: 'magic' },
    },
    {
      operationId: 'createExtractor',
      path: '/api/extractors',
      created: false,
      body: { ...extractorInput(), label: 42 },
    },
    {
      operationId: 'createExtractor',
      path: '/api/extractors',
      created: false,
      body: { ...extractorInput(), label: 'x'.repeat(201) },
    },
    { operationId: 'createBucket', path: '/api/buckets', created: true, body: {} },
    {
      operationId: 'createBucket',
      path: '/api/buckets',
      created: true,
      body: { description: null, createdUsing: 'embed' },
    },
    {
      operationId: 'createBucket',
      path: '/api/buckets',
      created: false,
      body: { createdUsing: 'fax' },
    },
    {
      operationId: 'createEmbedSession',
      path: '/api/embed_sessions',
      created: true,
      body: { savedExtractor: extractor.id, ttlSeconds: 60 },
    },
    {
      operationId: 'createEmbedSession',
      path: '/api/embed_sessions',
      created: true,
      body: { savedExtractor: extractor.id, locale: 'pt-BR', strings: { 'upload.title': 'Oi' } },
    },
    {
      operationId: 'createEmbedSession',
      path: '/api/embed_sessions',
      created: false,
      body: { savedExtractor: extractor.id, strings: { 'upload.title': 7 } },
    },
    {
      operationId: 'createEmbedSession',
      path: '/api/embed_sessions',
      created: false,
      body: { savedExtractor: extractor.id, ttlSeconds: 59 },
    },
    {
      operationId: 'createEmbedSession',
      path: '/api/embed_sessions',
      created: false,
      body: { bucket: bucket.id },
    },
    {
      operationId: 'createEmbedSession',
      path: '/api/embed_sessions',
      created: false,
      body: { savedExtractor: extractor.id, theme: { 'color-accent': 'red;}' } },
    },
    {
      operationId: 'createRun',
      path: '/api/extraction_runs',
      created: true,
      body: { bucket: bucket.id, savedExtractor: extractor.id },
    },
    {
      operationId: 'createRun',
      path: '/api/runs',
      created: true,
      body: {
        bucket: `/api/buckets/${bucket.id}`,
        savedExtractor: extractor.id,
        chunkSize: 500,
        includeText: true,
      },
    },
    {
      operationId: 'createRun',
      path: '/api/extraction_runs',
      created: false,
      body: { bucket: bucket.id },
    },
    {
      operationId: 'createRun',
      path: '/api/extraction_runs',
      created: false,
      body: { bucket: bucket.id, savedExtractor: extractor.id, strategy: 'guess' },
    },
  ];
}

describe('the OpenAPI document', () => {
  it('has the shape of OpenAPI 3.1 with version 1.0.0', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.0.0');
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    const tagNames = new Set(document.tags.map((tag) => tag.name));
    const operationIds = new Set<string>();
    for (const { path, operation } of operationsOf(document)) {
      expect(path).toMatch(/^\/api\//);
      expect(operationIds.has(operation.operationId), operation.operationId).toBe(false);
      operationIds.add(operation.operationId);
      expect(operation.summary.length).toBeGreaterThan(0);
      for (const tag of operation.tags) expect(tagNames.has(tag), tag).toBe(true);
      const statuses = Object.keys(operation.responses);
      expect(
        statuses.some((status) => /^2/.test(status)),
        `${operation.operationId} has a success`,
      ).toBe(true);
      for (const status of statuses) expect(status).toMatch(/^[1-5](\d\d|XX)$/);
      // Path parameters: exactly the template's, each required.
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
      const declared = operation.parameters.filter((parameter) => parameter.in === 'path');
      expect(declared.map((parameter) => parameter.name).sort()).toEqual(templated);
      for (const parameter of declared) expect(parameter.required).toBe(true);
      for (const requirement of operation.security ?? []) {
        for (const scheme of Object.keys(requirement))
          expect(document.components.securitySchemes[scheme]).toBeDefined();
      }
    }
  });

  it('resolves every $ref', () => {
    const refs = collectRefs(document);
    expect(refs.length).toBeGreaterThan(50);
    for (const { ref, at } of refs)
      expect(resolvePointer(document, ref), `${ref} at ${at}`).toBeDefined();
  });

  it('generates its schemas from the contract (input types for bodies, output types for answers)', () => {
    const { $schema: _a, ...input } = z.toJSONSchema(extractorInputSchema, {
      io: 'input',
    }) as JsonSchema;
    expect(document.components.schemas.SavedExtractorInput).toEqual(input);
    const { $schema: _b, ...output } = z.toJSONSchema(runSchema, { io: 'output' }) as JsonSchema;
    expect(document.components.schemas.ExtractionRun).toEqual(output);
    // Defaults are visible on input: a client can leave strategy out.
    expect(document.components.schemas.SavedExtractorInput).toMatchObject({
      required: ['label', 'jsonSchema'],
      properties: { strategy: { default: 'local', enum: [...strategies] } },
    });
  });

  it('describes the fields that are ours', () => {
    const properties = (name: string) =>
      document.components.schemas[name]!.properties as Record<string, { description?: string }>;
    const described = {
      ExtractionRun: [
        'chunksCompleted',
        'chunksTotal',
        'editedResultJson',
        'resultMetadata',
        'submittedAt',
        'duration',
        'formattedDuration',
        'totalInputTokens',
        'evaluationType',
        'data',
        'partialData',
      ],
      SavedExtractor: ['webhookSecret', 'typedSchema', 'lastRanAt', 'embeddedUrl', 'fullPageUrl'],
      ExtractionBucket: ['artifacts', 'createdUsing'],
      EmbedSessionInput: ['locale', 'strings'],
    };
    for (const [schema, fields] of Object.entries(described)) {
      for (const field of fields)
        expect(properties(schema)[field]?.description, `${schema}.${field}`).toMatch(/\w{3}/);
    }
  });

  it('lists every code of why a run document failed, each described', () => {
    const runDocument = (
      document.components.schemas.ExtractionRun!.properties as Record<
        string,
        { items: { properties: Record<string, JsonSchema>; required: string[] } }
      >
    ).documents!.items;
    const errorCode = runDocument.properties.errorCode as {
      anyOf: { enum?: string[] }[];
      description: string;
    };
    expect(runDocument.required).toContain('errorCode');
    expect(errorCode.anyOf.flatMap((type) => type.enum ?? [])).toEqual([...documentErrorCodes]);
    for (const code of documentErrorCodes) expect(errorCode.description).toContain(`\`${code}\``);
  });

  it('documents the run state machine from runTransitions', () => {
    const runs = document.tags.find((tag) => tag.name === 'Extraction runs')!.description;
    for (const status of runStatuses) {
      if (runTransitions[status].length === 0) continue;
      expect(runs).toContain(
        `\`${status}\` → ${runTransitions[status].map((next) => `\`${next}\``).join(', ')}`,
      );
    }
    expect(runs).toContain('`POST …/{id}/pause`: `running` → `paused`');
  });
});

describe('the OpenAPI document: problems, media types and paging', () => {
  it('documents every problem type with its anchor, as application/problem+json and JSON:API errors', () => {
    expect(Object.keys(document.components.responses).sort()).toEqual(
      Object.keys(problemTypes).sort(),
    );
    for (const [slug, response] of Object.entries(document.components.responses)) {
      const media = response.content!['application/problem+json']!;
      expect(media.schema).toEqual({ $ref: '#/components/schemas/Problem' });
      expect(media.example).toMatchObject({
        type: `/api/docs#problem-${slug}`,
        status: problemTypes[slug as keyof typeof problemTypes].status,
      });
      expect(response.content!['application/vnd.api+json']!.schema).toEqual({
        $ref: '#/components/schemas/JsonApiErrors',
      });
    }
    const create = findOperation('createExtractor');
    expect(Object.keys(create.responses)).toEqual([
      '201',
      '400',
      '401',
      '403',
      '404',
      '406',
      '408',
      '409',
      '413',
      '415',
      '422',
      '507',
    ]);
    expect(
      (create.responses['201'] as { headers: Record<string, unknown> }).headers,
    ).toHaveProperty('Extractor-Ignored-Fields');
    expect(findOperation('getDocsPage').responses['401']).toBeUndefined();
  });

  it('lists 507 on every operation that writes, and on the pages it keeps on disk', () => {
    const keepsPages = ['getFilePage', 'getFilePageWords'];
    for (const { method, path, operation } of operationsOf(document)) {
      const writes =
        (method !== 'get' && !path.startsWith('/api/graphql')) ||
        keepsPages.includes(operation.operationId.replace(/_\w+$/, ''));
      expect('507' in operation.responses, `${method} ${path}`).toBe(writes);
    }
  });

  it('lists the answers to a slow or too large body on every upload', () => {
    const uploads = operationsOf(document).filter(
      ({ operation }) =>
        (operation.requestBody as { content?: object } | undefined)?.content &&
        'multipart/form-data' in (operation.requestBody as { content: object }).content,
    );
    expect(uploads.length).toBeGreaterThanOrEqual(2);
    for (const { method, path, operation } of uploads)
      expect(Object.keys(operation.responses), `${method} ${path}`).toEqual(
        expect.arrayContaining(['400', '408', '413', '415']),
      );
  });

  it('offers all five media types on resources, both ways', () => {
    const create = findOperation('createBucket');
    expect(Object.keys(create.requestBody!.content)).toEqual([...resourceMediaTypes]);
    expect(Object.keys((create.responses['201'] as ResponseObject).content!)).toEqual([
      ...resourceMediaTypes,
    ]);
    expect(
      Object.keys((findOperation('listRuns').responses['200'] as ResponseObject).content!),
    ).toEqual([...resourceMediaTypes]);
  });

  it('documents paging and every run filter', () => {
    const list = findOperation('listRuns');
    const names = list.parameters.map((parameter) => parameter.name);
    expect(names).toEqual(['page', ...runFilterParameters.map((filter) => filter.variable)]);
    expect(list.parameters[0]).toMatchObject({
      allowEmptyValue: true,
      schema: { type: 'integer', minimum: 1 },
    });
    expect(list.parameters[0]!.description).toContain('30 items per page');
    expect(list.parameters.find((parameter) => parameter.name === 'status')!.schema.enum).toEqual([
      ...runStatuses,
    ]);
    const events = findOperation('streamRunEvents');
    expect(Object.keys((events.responses['200'] as ResponseObject).content!)).toEqual([
      'text/event-stream',
    ]);
    expect(events.parameters.map((parameter) => parameter.name)).toContain('access_token');
    expect(findOperation('getResults').parameters.map((parameter) => parameter.name)).toEqual([
      'id',
      'format',
      'version',
    ]);
  });
});

// The running app the describes below check the document against.
const service = useTestService();

describe('the OpenAPI document against the running app', () => {
  it('documents every route the app answers', () => {
    const documented = new Set(
      operationsOf(document).map(({ method, path }) => `${method.toUpperCase()} ${path}`),
    );
    const routes = service.app.routes
      .filter((route) => route.path.startsWith('/api/') && !route.path.includes('*'))
      .flatMap((route) =>
        (route.method === 'ALL' ? ['GET', 'POST'] : [route.method]).map((method) => ({
          method,
          path: route.path,
        })),
      );
    expect(routes.length).toBeGreaterThan(40);
    for (const { method, path } of routes) {
      const templated = path.replace(/:(\w+)/g, '{$1}');
      expect(documented.has(`${method} ${templated}`), `${method} ${templated} is documented`).toBe(
        true,
      );
    }
  });

  it('answers every documented operation (never 404 or 405) when the resources exist', async () => {
    const extractor = await createExtractor(service);
    const bucket = await createBucket(service);
    const [file] = await uploaded(service, bucket.id, [{ name: 'a.txt', bytes: 'Invoice No 1' }]);
    const run = await insertRun(service, {
      bucketId: bucket.id,
      extractorId: extractor.id,
      status: 'completed',
      documents: [{ fileId: file!.id, name: 'a.txt', data: { invoice_number: '1', total: null } }],
      started_at: new Date(Date.now() - 1000).toISOString(),
      finished_at: new Date().toISOString(),
    });
    const session = await createSession(service, {
      savedExtractor: extractor.id,
      bucket: bucket.id,
    });

    // A DELETE uses up what it deletes, so each gets resources of its own.
    const fresh = async (path: string): Promise<Record<string, string>> => {
      if (path.startsWith('/api/buckets/{id}/files/')) {
        const [added] = (await (
          await upload(service, bucket.id, [{ name: 'b.txt', bytes: 'x' }])
        ).json()) as { id: string }[];
        return { id: bucket.id, fileId: added!.id };
      }
      if (path.startsWith('/api/buckets')) return { id: (await createBucket(service)).id };
      if (path.startsWith('/api/embed_sessions'))
        return { id: (await createSession(service, { savedExtractor: extractor.id })).id };
      return { id: (await createExtractor(service)).id };
    };
    const existing = (path: string): Record<string, string> => {
      if (path.startsWith('/api/buckets')) return { id: bucket.id, fileId: file!.id, n: '1' };
      if (/^\/api\/(extractors|saved_extractors)/.test(path)) return { id: extractor.id };
      if (/^\/api\/(runs|extraction_runs)/.test(path)) return { id: run.id, fileId: file!.id };
      if (path.startsWith('/api/embed_sessions')) return { id: session.id };
      return { type: 'ExtractionRun' };
    };

    for (const { method, path } of operationsOf(document)) {
      const values = method === 'delete' ? await fresh(path) : existing(path);
      const url = path.replace(/\{(\w+)\}/g, (_whole, name: string) =>
        encodeURIComponent(values[name]!),
      );
      // What only a session token may ask.
      const sessionOnly = ['/api/embed_sessions/current', '/api/embed_sessions/renew'];
      const token = sessionOnly.includes(path) ? session.token : adminToken;
      const response = await service.request(url, { method: method.toUpperCase(), token });
      await response.body?.cancel();
      expect(
        [404, 405],
        `${method.toUpperCase()} ${url} answered ${response.status}`,
      ).not.toContain(response.status);
      expect(response.status, `${method.toUpperCase()} ${url}`).toBeLessThan(500);
    }
  });
});

describe('the OpenAPI document against the running app: its schemas', () => {
  it('has request schemas that accept what the API accepts and refuse what it refuses', async () => {
    const bucket = await createBucket(service);
    await upload(service, bucket.id, [{ name: 'invoice.txt', bytes: 'Invoice No 7' }]);
    const extractor = await createExtractor(service);
    const cases = requestCases(bucket, extractor);
    for (const { operationId, path, created, body } of cases) {
      const violations = validateAgainstSchema(requestSchema(operationId), body);
      const response = await service.json('POST', path, body);
      const label = `${path} ${JSON.stringify(body).slice(0, 120)} → ${response.status}`;
      expect(response.status === 201, label).toBe(created);
      expect(violations.length === 0, `${label}: ${JSON.stringify(violations)}`).toBe(created);
      if (!created) expect(response.status, label).toBe(422);
    }

    // JSON:API bodies: the attributes, with to-one relationships standing in for attributes.
    const jsonApi = {
      data: {
        type: 'ExtractionRun',
        attributes: { savedExtractor: extractor.id },
        relationships: {
          bucket: { data: { type: 'ExtractionBucket', id: `/api/buckets/${bucket.id}` } },
        },
      },
    };
    expect(
      validateAgainstSchema(requestSchema('createRun', 'application/vnd.api+json'), jsonApi),
    ).toEqual([]);
    const accepted = await service.request('/api/extraction_runs', {
      method: 'POST',
      headers: { 'Content-Type': 'application/vnd.api+json', Accept: 'application/json' },
      body: JSON.stringify(jsonApi),
    });
    expect(accepted.status).toBe(201);
    const withoutData = { attributes: extractorInput() };
    expect(
      validateAgainstSchema(
        requestSchema('createExtractor', 'application/vnd.api+json'),
        withoutData,
      ),
    ).not.toEqual([]);
    const refused = await service.request('/api/extractors', {
      method: 'POST',
      headers: { 'Content-Type': 'application/vnd.api+json' },
      body: JSON.stringify(withoutData),
    });
    expect(refused.status).toBe(400);
  });

  it('has response schemas that the API answers match, in every JSON media type', async () => {
    const extractor = await createExtractor(service);
    const bucket = await createBucket(service);
    await insertRun(service, { bucketId: bucket.id, extractorId: extractor.id });
    const checks: { operationId: string; url: string; mediaType: string }[] = [];
    for (const mediaType of [
      'application/json',
      'application/vnd.api+json',
      'application/ld+json',
    ]) {
      checks.push(
        { operationId: 'getExtractor', url: `/api/extractors/${extractor.id}`, mediaType },
        { operationId: 'listExtractors', url: '/api/saved_extractors', mediaType },
        { operationId: 'getBucket', url: `/api/buckets/${bucket.id}`, mediaType },
        { operationId: 'listBuckets', url: '/api/buckets', mediaType },
        { operationId: 'listRuns', url: '/api/runs', mediaType },
      );
    }
    for (const { operationId, url, mediaType } of checks) {
      const response = await service.request(url, { headers: { Accept: mediaType } });
      expect(response.status, url).toBe(200);
      const body: unknown = await response.json();
      const violations = validateAgainstSchema(responseSchema(operationId, '200', mediaType), body);
      expect(violations, `${url} as ${mediaType}`).toEqual([]);
    }
    // And the schemas are not so loose that anything passes.
    const wrong = validateAgainstSchema(
      responseSchema('getExtractor', '200', 'application/vnd.api+json'),
      {
        data: { id: 'x', type: 'ExtractionRun', attributes: {}, relationships: {} },
      },
    );
    expect(wrong.map((violation) => violation.pointer)).toContain('/data/type');
  });
});
