/**
 * The OpenAPI 3.1 document of the service, served at `/api/docs.json` and rendered at
 * `/api/docs`, read from the app's routes (hono-openapi's `generateSpecs`): each route
 * carries its own operation (http/openapi.ts). Here it is only put together with what is
 * the service's as a whole: the introduction, the schemas (components.ts), the problems
 * (problems.ts), the security schemes and the webhooks (webhooks.ts).
 */
import type { Hono } from 'hono';
import { generateSpecs } from 'hono-openapi';
import { itemsPerPage } from '../../store/paging.js';
import type { AppEnv } from '../context.js';
import { resourceKinds } from '../kinds.js';
import { resourceMediaTypes } from '../negotiation.js';
import { codeList, type TagObject } from '../openapi.js';
import { runLifecycleText } from '../routes/runs.js';
import { componentSchemas } from './components.js';
import { graphqlTag } from '../../graphql/endpoint.js';
import { problemTypes } from '../problem.js';
import {
  responseRef,
  type HttpMethod,
  type JsonSchema,
  type OpenApiDocument,
  type OperationObject,
  type ParameterObject,
  type PathItem,
} from './objects.js';
import { problemListText, problemResponses } from './problems.js';
import { webhookOperations } from './webhooks.js';

export const apiVersion = '1.0.0';

const pathParameterDescriptions: Record<string, { description: string; schema: JsonSchema }> = {
  id: {
    description: 'The id of the resource: the last segment of its IRI.',
    schema: { type: 'string' },
  },
  fileId: { description: 'The id of a file of the bucket.', schema: { type: 'string' } },
  n: { description: 'A page of the file, from 1.', schema: { type: 'integer', minimum: 1 } },
  type: {
    description: 'A resource type, as in `@type`.',
    schema: { type: 'string', enum: resourceKinds.map((kind) => kind.type) },
  },
};

function pathParameters(path: string): ParameterObject[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => {
    const known = pathParameterDescriptions[name!];
    if (!known) throw new Error(`Describe the path parameter {${name}} of ${path}.`);
    return { name: name!, in: 'path', required: true, ...known };
  });
}

function infoDescription(): string {
  return [
    'Extracts structured data from uploaded documents: create a bucket, upload files, start an ' +
      'extraction run with a saved extractor, then follow it and fetch the results as JSON, XML ' +
      'or CSV.',
    '## Authentication',
    'Every request under /api carries `Authorization: Bearer <token>`, except this ' +
      'documentation and the JSON-LD contexts. A personal access token (`npm run token -- create ' +
      '--name NAME`) can do everything. An embed session token (POST /api/embed_sessions) sees ' +
      "its extractor, its bucket and that bucket's runs; anything else answers 404. A missing, " +
      'malformed, unknown, expired or revoked token answers 401.',
    '## Representations',
    `Every resource is read and written as ${codeList(resourceMediaTypes)}. The Accept ` +
      'header chooses, with q-values; none or `*/*` gives JSON, and nothing acceptable answers ' +
      '406. Bodies are read by their Content-Type (another type answers 415). JSON:API documents ' +
      'carry the identifier as `_id` and IRI references as relationships; JSON-LD carries ' +
      '`@context`, `@id` and `@type`, and collections are Hydra collections. Read-only fields ' +
      'are ignored on input.',
    'CSV is safe to open in a spreadsheet: a cell that starts with a tab or a carriage ' +
      'return, or whose first character after any leading blanks is `=`, `+`, `-` or `@` ' +
      '(full-width forms such as `＝` included), is written after an apostrophe, which ' +
      'spreadsheets show as text; so is a cell that starts with an apostrophe. A CSV body ' +
      'drops one leading apostrophe from each cell, so that what the service writes, sent ' +
      'back, is the same value. Results downloads (`…/results?format=csv`) are neutralised ' +
      'the same way.',
    '## Pagination',
    `Collections take \`page\` (from 1; empty means 1) and hold ${itemsPerPage} items per page. ` +
      'A page that is not a whole number answers 400.',
    '## Run lifecycle',
    runLifecycleText(),
    '## Problems',
    'Every error is an RFC 9457 problem document (`application/problem+json`) with `type`, ' +
      '`title`, `status` and `detail`; `type` links to its explanation below.',
    problemListText(),
    '## Versioning',
    `This is version ${apiVersion}. Paths carry no version segment.`,
  ].join('\n\n');
}

/** Whether an operation stores something: every method but GET, and GraphQL never does. */
function writes(method: string, tags: readonly string[] | undefined): boolean {
  return method !== 'get' && !tags?.includes(graphqlTag.name);
}

/**
 * A write can find the disk full, whatever it writes (a row, a file, an event): 507 is in
 * every writing operation's responses, rather than in each route's list of problems.
 */
function withNoRoom(responses: OperationObject['responses']): OperationObject['responses'] {
  const status = String(problemTypes['insufficient-storage'].status);
  return Object.fromEntries(
    Object.entries({ ...responses, [status]: responseRef('insufficient-storage') }).sort(
      ([a], [b]) => a.localeCompare(b),
    ),
  );
}

const documents = new Map<string, Promise<OpenApiDocument>>();

/**
 * The document of the operations `api` serves, for a service reached at `serverUrl`
 * (PUBLIC_BASE_URL). A resource served under two names (/api/runs and
 * /api/extraction_runs) has its operations under both; the later name's operationIds get
 * the collection as a suffix and `x-same-as` the first's.
 */
export function buildOpenApiDocument(
  api: Hono<AppEnv>,
  tags: readonly TagObject[],
  serverUrl: string,
): Promise<OpenApiDocument> {
  let document = documents.get(serverUrl);
  if (!document) {
    document = assembleDocument(api, tags, serverUrl);
    documents.set(serverUrl, document);
  }
  return document;
}

async function assembleDocument(
  api: Hono<AppEnv>,
  tags: readonly TagObject[],
  serverUrl: string,
): Promise<OpenApiDocument> {
  const generated = await generateSpecs(api, {
    excludeStaticFile: false,
    defaultValidationErrorResponse: false,
  });
  const served: Record<string, PathItem> = {};
  /** Where each operation is served first, and the second names of each such path. */
  const canonicalPath = new Map<string, string>();
  const secondNames = new Map<string, string[]>();
  for (const [path, item] of Object.entries(generated.paths)) {
    for (const [method, operation] of Object.entries(item as PathItem)) {
      const { operationId, summary, description, tags, parameters, responses, ...rest } = operation;
      const canonical = canonicalPath.get(operationId);
      if (canonical === undefined) canonicalPath.set(operationId, path);
      else if (!secondNames.get(canonical)?.includes(path))
        secondNames.set(canonical, [...(secondNames.get(canonical) ?? []), path]);
      (served[path] ??= {})[method as HttpMethod] = {
        operationId:
          canonical === undefined
            ? operationId
            : `${operationId}_${/^\/api\/(\w+)/.exec(path)?.[1]}`,
        summary,
        ...(description === undefined ? {} : { description }),
        tags,
        parameters: [
          ...pathParameters(path),
          ...parameters.filter((parameter) => parameter.in !== 'path'),
        ],
        responses: writes(method, tags) ? withNoRoom(responses) : responses,
        ...(canonical === undefined ? {} : { 'x-same-as': operationId }),
        ...rest,
      };
    }
  }
  // Each second name right after its first, as a reader compares them.
  const paths: Record<string, PathItem> = {};
  const seconds = new Set([...secondNames.values()].flat());
  for (const path of Object.keys(served)) {
    if (seconds.has(path)) continue;
    paths[path] = served[path]!;
    for (const second of secondNames.get(path) ?? []) paths[second] = served[second]!;
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Extractor API',
      version: apiVersion,
      description: infoDescription(),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    tags: [
      ...tags.map((tag) => ({ ...tag })),
      { name: 'Webhooks', description: 'What the service POSTs to webhookUrl.' },
    ],
    paths,
    webhooks: webhookOperations(),
    components: {
      schemas: componentSchemas().schemas,
      responses: problemResponses(),
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'A personal access token (`xpat_…`) or an embed session token (`xses_…`)',
        },
        accessTokenQuery: {
          type: 'apiKey',
          in: 'query',
          name: 'access_token',
          description:
            'An embed session token (`xses_…`) as a query parameter, only on the event ' +
            'stream; a personal access token there is refused (401).',
        },
      },
    },
  };
}
