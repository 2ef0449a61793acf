/**
 * The OpenAPI 3.1 document of the service, served at `/api/docs.json` and rendered at
 * `/api/docs`. Every schema in it is generated from src/contract with `z.toJSONSchema`:
 * request bodies as the contract's input types (defaults, optional fields), answers as its
 * output types, and the JSON:API and JSON-LD/Hydra envelopes of representations.ts built
 * as zod schemas around the same contract schemas. Nothing is copied by hand, and nothing
 * is listed here: which operations exist, their parameters and the problems they answer
 * with are declared by the routes themselves (`documented(…)` in http/routes/ and
 * graphql/endpoint.ts), and the document is read from the app's routes
 * (hono-openapi's `generateSpecs`).
 */
import * as z from 'zod/mini';
import {
  runEventDataSchema,
  webhookEventTypes,
  webhookPayloadSchema,
  type WebhookEventType,
} from '../../contract/events.js';
import { graphqlRequestSchema, graphqlResponseSchema } from '../../contract/graphql.js';
import {
  bucketFileSchema,
  bucketInputSchema,
  bucketSchema,
  currentSessionSchema,
  embedSessionSchema,
  extractorInputSchema,
  extractorSchema,
  problemSchema,
  resultMetadataSchema,
  resultsEditSchema,
  runResultsSchema,
  runInputSchema,
  runSchema,
  submissionSchema,
} from '../../contract/resources.js';
import { embedSessionInputWithLanguageSchema } from '../../contract/session-language.js';
import {
  finalRunStatuses,
  reopenableRunStatuses,
  runCommandSources,
  runCommands,
  runStatuses,
  runTransitions,
  type RunCommand,
} from '../../contract/run-status.js';
import type { Hono, MiddlewareHandler } from 'hono';
import {
  describeRoute,
  generateSpecs,
  uniqueSymbol,
  type DescribeRouteOptions,
} from 'hono-openapi';
import { itemsPerPage } from '../store/paging.js';
import { bodyPace } from '../body-pace.js';
import { maxBodyBytes, maxJsonDepth } from './body.js';
import type { AppEnv } from './context.js';
import {
  bucketKind,
  currentSessionKind,
  embedSessionKind,
  extractorKind,
  fileKind,
  resourceKinds,
  runKind,
  submissionKind,
} from './kinds.js';
import { resourceMediaTypes, type ResourceMediaType } from './negotiation.js';
import { problemMediaType, problemTypes } from './problem.js';
import type { Relationship, ResourceKind } from './representations.js';

// ---------------------------------------------------------------------------------------
// The shapes of the document (the parts of OpenAPI 3.1 this service uses)

export type JsonSchema = { [keyword: string]: unknown };
export type HttpMethod = 'get' | 'post' | 'put' | 'delete';
export const httpMethods: readonly HttpMethod[] = ['get', 'post', 'put', 'delete'];

export interface Reference {
  $ref: string;
}

export interface ParameterObject {
  name: string;
  in: 'query' | 'path' | 'header';
  description: string;
  required: boolean;
  schema: JsonSchema;
  allowEmptyValue?: boolean;
}

export interface MediaTypeObject {
  schema: JsonSchema;
  example?: unknown;
  encoding?: Record<string, { contentType: string }>;
}

export interface HeaderObject {
  description: string;
  schema: JsonSchema;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, MediaTypeObject>;
}

export interface RequestBodyObject {
  description?: string;
  required: boolean;
  content: Record<string, MediaTypeObject>;
}

export interface OperationObject {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters: ParameterObject[];
  requestBody?: RequestBodyObject;
  responses: Record<string, ResponseObject | Reference>;
  security?: Record<string, string[]>[];
  /** On a path that is a second name of a resource: the operationId of the first. */
  'x-same-as'?: string;
}

export type PathItem = Partial<Record<HttpMethod, OperationObject>>;

export interface OpenApiDocument {
  openapi: '3.1.0';
  jsonSchemaDialect: string;
  info: {
    title: string;
    version: string;
    description: string;
    license: { name: string; identifier: string };
  };
  servers: { url: string }[];
  security: Record<string, string[]>[];
  tags: { name: string; description: string }[];
  paths: Record<string, PathItem>;
  webhooks: Record<string, PathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, ResponseObject>;
    securitySchemes: Record<string, JsonSchema>;
  };
}

export const apiVersion = '1.0.0';
export const schemaRef = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const responseRef = (name: string): Reference => ({ $ref: `#/components/responses/${name}` });

// ---------------------------------------------------------------------------------------
// Resources and the schemas generated from the contract

interface ResourceDoc {
  /** Component name: the JSON:API `type` and JSON-LD `@type` where they are one. */
  name: string;
  kind: ResourceKind;
  schema: z.ZodMiniObject;
  input?: z.ZodMiniObject;
  noun: string;
  plural: string;
  /** A JSON:API collection of runs is a plain array of resources (representations.ts). */
  plainJsonApiCollection?: boolean;
}

const resourceDocs = {
  bucket: {
    name: 'ExtractionBucket',
    kind: bucketKind,
    schema: bucketSchema,
    input: bucketInputSchema,
    noun: 'bucket',
    plural: 'buckets',
  },
  extractor: {
    name: 'SavedExtractor',
    kind: extractorKind,
    schema: extractorSchema,
    input: extractorInputSchema,
    noun: 'saved extractor',
    plural: 'saved extractors',
  },
  run: {
    name: 'ExtractionRun',
    kind: runKind,
    schema: runSchema,
    input: runInputSchema,
    noun: 'extraction run',
    plural: 'extraction runs',
    plainJsonApiCollection: true,
  },
  file: {
    name: 'BucketFile',
    kind: fileKind,
    schema: bucketFileSchema,
    noun: 'file',
    plural: 'files',
  },
  session: {
    name: 'EmbedSession',
    kind: embedSessionKind,
    schema: embedSessionSchema,
    input: embedSessionInputWithLanguageSchema,
    noun: 'embed session',
    plural: 'embed sessions',
  },
  currentSession: {
    name: 'CurrentEmbedSession',
    kind: currentSessionKind,
    schema: currentSessionSchema,
    noun: 'embed session',
    plural: 'embed sessions',
  },
  submission: {
    name: 'Submission',
    kind: submissionKind,
    schema: submissionSchema,
    noun: 'submission',
    plural: 'submissions',
  },
} as const satisfies Record<string, ResourceDoc>;

type ResourceKey = keyof typeof resourceDocs;
type InputResourceKey = {
  [K in ResourceKey]: (typeof resourceDocs)[K] extends { input: object } ? K : never;
}[ResourceKey];

const described = <T extends z.ZodMiniType>(schema: T, description: string): T =>
  schema.check(z.describe(description));
const iriReference = (of: string) => described(z.string(), `IRI reference of ${of}.`);

function relationshipSchema(relationship: Relationship): z.ZodMiniType {
  const identifier = z.object({
    type: z.literal(relationship.type),
    id: iriReference(`the ${relationship.type}`),
  });
  return z.object({ data: relationship.many ? z.array(identifier) : z.nullable(identifier) });
}

/** A resource object as `toJsonApiResource` writes it: `_id`, and IRIs as relationships. */
function jsonApiResourceSchema(resource: ResourceDoc): z.ZodMiniObject {
  const relationships = Object.keys(resource.kind.relationships);
  const shape = resource.schema.shape as Record<string, z.ZodMiniType>;
  const attributes = Object.fromEntries(
    Object.entries(shape).filter(([field]) => field !== 'id' && !relationships.includes(field)),
  );
  return z.object({
    id: iriReference(`the ${resource.noun}`),
    type: z.literal(resource.kind.type),
    attributes: z.object({
      _id: described(z.string(), 'The identifier (`id` in application/json).'),
      ...attributes,
    }),
    relationships: z.object(
      Object.fromEntries(
        relationships.map((field) => [
          field,
          relationshipSchema(resource.kind.relationships[field]!),
        ]),
      ),
    ),
  });
}

/**
 * A JSON:API request body as body.ts reads it: the attributes, and to-one relationships
 * whose `data.id` stands in for the attribute of the same name (so those may be left out
 * of the attributes).
 */
function jsonApiInputSchema(resource: ResourceDoc, input: z.ZodMiniObject): z.ZodMiniObject {
  const shape = input.shape as Record<string, z.ZodMiniType>;
  const relaxed = Object.fromEntries(
    Object.entries(shape).map(([field, schema]) => [
      field,
      field in resource.kind.relationships ? z.optional(schema) : schema,
    ]),
  );
  const identifier = z.object({
    type: z.optional(z.string()),
    id: described(z.string(), 'An id or IRI reference.'),
  });
  return z.object({
    data: z.object({
      type: z.optional(described(z.string(), `Ignored; ${resource.kind.type} when given.`)),
      attributes: z.object(relaxed),
      relationships: z.optional(z.record(z.string(), z.object({ data: identifier }))),
    }),
  });
}

/** Hydra collection parts and JSON:API paging parts, shared by every collection. */
const jsonApiLinks = z.object({
  self: described(z.string(), 'This page.'),
  first: z.string(),
  last: z.string(),
  prev: z.optional(described(z.string(), 'Absent on the first page.')),
  next: z.optional(described(z.string(), 'Absent on the last page.')),
});
const count = () => z.int().check(z.minimum(0));
const jsonApiMeta = z.object({ totalItems: count(), itemsPerPage: count(), currentPage: count() });
const jsonApiAnyResource = z.object({
  id: z.string(),
  type: z.string(),
  attributes: z.record(z.string(), z.unknown()),
  relationships: z.optional(z.record(z.string(), z.unknown())),
});
const hydraView = z.object({
  '@id': described(z.string(), 'This page.'),
  '@type': z.literal('PartialCollectionView'),
  first: z.string(),
  last: z.string(),
  previous: z.optional(described(z.string(), 'Absent on the first page.')),
  next: z.optional(described(z.string(), 'Absent on the last page.')),
});
const hydraSearch = z.object({
  '@type': z.literal('IriTemplate'),
  template: described(z.string(), 'RFC 6570 template of the collection with its query parameters.'),
  variableRepresentation: z.literal('BasicRepresentation'),
  mapping: z.array(
    z.object({
      '@type': z.literal('IriTemplateMapping'),
      variable: z.string(),
      property: z.nullable(z.string()),
      required: z.boolean(),
    }),
  ),
});

function jsonLdResourceSchema(resource: ResourceDoc): z.ZodMiniObject {
  return z.object({
    '@context': z.optional(
      described(z.string(), 'The JSON-LD context (/api/contexts/{type}); on a single resource.'),
    ),
    '@id': iriReference(`the ${resource.noun}`),
    '@type': z.literal(resource.kind.type),
    ...(resource.schema.shape as Record<string, z.ZodMiniType>),
  });
}

interface GeneratedComponents {
  schemas: Record<string, JsonSchema>;
}

let generatedComponents: GeneratedComponents | undefined;

/** Every schema of the document, generated once from the contract. */
function componentSchemas(): GeneratedComponents {
  if (generatedComponents) return generatedComponents;
  const outputs = z.registry<{ id: string }>();
  const inputs = z.registry<{ id: string }>();
  const add = (registry: typeof outputs, id: string, schema: z.ZodMiniType) =>
    registry.add(schema, { id });

  add(outputs, 'JsonApiLinks', jsonApiLinks);
  add(outputs, 'JsonApiMeta', jsonApiMeta);
  add(outputs, 'JsonApiResource', jsonApiAnyResource);
  add(outputs, 'HydraView', hydraView);
  add(outputs, 'HydraSearch', hydraSearch);
  for (const resource of Object.values(resourceDocs) as ResourceDoc[]) {
    const { name } = resource;
    add(outputs, name, resource.schema);
    const jsonApi = jsonApiResourceSchema(resource);
    add(outputs, `${name}JsonApiResource`, jsonApi);
    add(
      outputs,
      `${name}JsonApiDocument`,
      z.object({ data: jsonApi, included: z.optional(z.array(jsonApiAnyResource)) }),
    );
    add(
      outputs,
      `${name}JsonApiCollection`,
      resource.plainJsonApiCollection
        ? z.array(jsonApi)
        : z.object({ data: z.array(jsonApi), links: jsonApiLinks, meta: jsonApiMeta }),
    );
    const jsonLd = jsonLdResourceSchema(resource);
    add(outputs, `${name}JsonLd`, jsonLd);
    add(
      outputs,
      `${name}HydraCollection`,
      z.object({
        '@context': z.string(),
        '@id': z.string(),
        '@type': z.literal('Collection'),
        member: z.array(jsonLd),
        totalItems: count(),
        view: hydraView,
        search: hydraSearch,
      }),
    );
    if (resource.input) {
      add(inputs, `${name}Input`, resource.input);
      add(inputs, `${name}InputJsonApiDocument`, jsonApiInputSchema(resource, resource.input));
    }
  }
  add(outputs, 'Problem', problemSchema);
  add(outputs, 'ResultMetadata', resultMetadataSchema);
  add(outputs, 'RunResults', runResultsSchema);
  add(inputs, 'ResultsEdit', resultsEditSchema);
  add(outputs, 'RunEvent', runEventDataSchema);
  add(outputs, 'WebhookPayload', webhookPayloadSchema);
  add(outputs, 'GraphqlResponse', graphqlResponseSchema);
  add(inputs, 'GraphqlRequest', graphqlRequestSchema);

  const uri = (id: string) => `#/components/schemas/${id}`;
  const generated = {
    ...z.toJSONSchema(outputs, { uri, io: 'output' }).schemas,
    ...z.toJSONSchema(inputs, { uri, io: 'input' }).schemas,
  } as Record<string, JsonSchema>;
  if ('__shared' in generated)
    throw new Error('A contract schema could not be placed in components.schemas.');
  const schemas: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(generated)) {
    // Each component is a schema inside the document, not a document of its own.
    const { $schema: _dialect, $id: _id, ...rest } = schema;
    schemas[name] = rest;
  }
  generatedComponents = { schemas };
  return generatedComponents;
}

// ---------------------------------------------------------------------------------------
// Problems

const problemExplanations: Record<keyof typeof problemTypes, { when: string; example: string }> = {
  'bad-request': {
    when:
      'The request cannot be read: a body that is not valid JSON, CSV or HTML, a query value ' +
      'that is not a whole number where one is needed, an unknown filter value. `errors` names ' +
      'each parameter or pointer.',
    example: 'Query parameter page must be a whole number of 1 or more, not "abc".',
  },
  unauthorized: {
    when:
      'The Authorization header is missing, malformed, or carries a token that is unknown, ' +
      'expired or revoked. The answer carries `WWW-Authenticate: Bearer`.',
    example: 'This request needs an access token: send "Authorization: Bearer <token>".',
  },
  forbidden: {
    when:
      'The token may not do this: an embed session token starting a run with settings of its ' +
      "own, where the extractor's apply (`errors` names each field), or downloading the " +
      'results of an extractor whose allowDownload is off.',
    example:
      "An embed session runs with the extractor's settings; it may not set strategy, chunkSize.",
  },
  'not-found': {
    when:
      'Nothing is at this address, the resource was deleted, or it lies outside what the token ' +
      'may see (an embed session token gets 404, never 403, so ids cannot be probed).',
    example: 'There is nothing at this address.',
  },
  'method-not-allowed': {
    when:
      'The address exists but does not answer this method. The `Allow` header lists those it ' +
      'answers.',
    example: 'This address answers GET, POST.',
  },
  'not-acceptable': {
    when:
      'The Accept header names none of the media types the operation can produce. `allowed` ' +
      'lists them.',
    example:
      'None of the requested media types can be produced. Available: application/json, text/csv.',
  },
  'request-timeout': {
    when:
      `A body arrived too slowly: after ${bodyPace.graceMs / 1000} s it has to bring ` +
      `${bodyPace.minBytesPerSecond / 1024} KiB a second on average. Nothing of it is kept, ` +
      'and the connection is closed.',
    example:
      'The request body arrived too slowly: 12 bytes in 11 s. After the first 10 s a body ' +
      'has to bring 8 KiB a second on average.',
  },
  conflict: {
    when:
      'The resource is in a state that does not allow the request: a run command its status does ' +
      'not allow (`currentStatus` names the status), results asked for before there are any, ' +
      'results submitted twice, a file removed while a run works over its bucket.',
    example: 'The run is completed; it cannot be paused.',
  },
  'payload-too-large': {
    when:
      'An upload is larger than MAX_UPLOAD_BYTES (nothing of it is kept), or another body is ' +
      `larger than its media type allows: ${mediaTypeLimits()}.`,
    example: 'The request body is larger than 1048576 bytes.',
  },
  'unsupported-media-type': {
    when:
      "The body's Content-Type is not one the operation reads, or an uploaded file is not of an " +
      'accepted type (judged from its bytes, not its name). `allowed` lists the accepted types.',
    example: 'Bodies of type application/xml are not accepted.',
  },
  'validation-error': {
    when:
      'The body can be read but its values are invalid. `errors` holds one entry per violation ' +
      'with a JSON pointer into the body and a message; an unknown strategy or model also lists ' +
      'the allowed values.',
    example: '/chunkSize: Too small: expected number to be >=200',
  },
  'unreadable-document': {
    when:
      'A file cannot be shown (GET …/files/{fileId}/pages/{n}): it is damaged, protected by a ' +
      'password, or passes one of the limits of one document (pages, pixels, memory, time). The ' +
      'detail names the file and the limit, as a run that reads it would fail.',
    example: 'scan.pdf has 5,000 pages; the limit is 1,000 pages',
  },
  'internal-error': {
    when:
      'Something failed on the server. The request was not completed; nothing about the failure ' +
      'is revealed.',
    example: 'Something went wrong on our side. The request was not completed.',
  },
  'not-ready': {
    when:
      'Only from `GET /readyz`, outside the API: the process cannot reach the database or the ' +
      'file store now. `checks` says which part is `ok` and which is `failing`; the answer ' +
      'carries `Retry-After`.',
    example: 'This process cannot serve requests now: the database cannot be reached.',
  },
};

const problemHeaders: Partial<Record<keyof typeof problemTypes, Record<string, HeaderObject>>> = {
  unauthorized: {
    'WWW-Authenticate': {
      description: 'Always `Bearer realm="extractor"`.',
      schema: { type: 'string' },
    },
  },
  'method-not-allowed': {
    Allow: { description: 'The methods the address answers.', schema: { type: 'string' } },
  },
  'unsupported-media-type': {
    'Accept-Post': { description: 'The media types a body may have.', schema: { type: 'string' } },
  },
  'not-ready': {
    'Retry-After': {
      description: 'Seconds until it is worth asking again.',
      schema: { type: 'string' },
    },
  },
};

type ProblemSlug = keyof typeof problemTypes;
export type ProblemStatus = 400 | 403 | 404 | 406 | 408 | 409 | 413 | 415 | 422;

function slugOfStatus(status: number): ProblemSlug {
  const slug = (Object.keys(problemTypes) as ProblemSlug[]).find(
    (candidate) => problemTypes[candidate].status === status,
  );
  if (!slug) throw new Error(`No problem type has status ${status}.`);
  return slug;
}

function problemResponses(): Record<string, ResponseObject> {
  return Object.fromEntries(
    (Object.keys(problemTypes) as ProblemSlug[]).map((slug) => {
      const { status, title } = problemTypes[slug];
      const response: ResponseObject = {
        description: `${title}. ${problemExplanations[slug].when}`,
        content: {
          [problemMediaType]: {
            schema: schemaRef('Problem'),
            example: {
              type: `/api/docs#problem-${slug}`,
              title,
              status,
              detail: problemExplanations[slug].example,
            },
          },
        },
      };
      if (problemHeaders[slug]) response.headers = problemHeaders[slug];
      return [slug, response];
    }),
  );
}

// ---------------------------------------------------------------------------------------
// Descriptions derived from the code's own tables

/** Values as Markdown code, for descriptions: `a`, `b`. */
export const codeList = (values: readonly string[], separator = ', ') =>
  values.map((value) => `\`${value}\``).join(separator);

export function runLifecycleText(): string {
  const arrows = runStatuses
    .filter((status) => runTransitions[status].length > 0)
    .map((status) => `- \`${status}\` → ${codeList(runTransitions[status])}`);
  const commands = (Object.keys(runCommands) as RunCommand[]).map(
    (command) =>
      `- \`POST …/{id}/${command}\`: ${codeList(runCommandSources[command], ' or ')} → \`${runCommands[command]}\``,
  );
  return [
    `A run is \`${runStatuses[0]}\` when it is created. It moves only along these arrows; ` +
      `${codeList(finalRunStatuses)} are settled (the worker is done and the event stream ends).`,
    arrows.join('\n'),
    "A run's documents are the files of its bucket, each extracted on its own (with the " +
      "extractor's `combineFiles`, all of them as one document). The worker moves a run from " +
      '`queued` to `running`, then to `completed` when every document completed, to ' +
      '`partially_completed` when some completed and some failed (the completed records are ' +
      'there, and `error` says which documents failed and why), or to `failed` when every ' +
      'document failed or the run could not be worked at all. People and programs use the ' +
      'commands:',
    commands.join('\n'),
    `- \`POST …/{id}/documents/{fileId}/retry\` or \`…/replace\`: ${codeList(reopenableRunStatuses, ' or ')} → \`queued\`, ` +
      'for a failed document of a run not submitted; the worker then extracts just the documents ' +
      "that are not completed, and the others' records and a person's edits stay.",
    'A command the current status does not allow answers 409 with `currentStatus`. A pause ' +
      'takes effect between chunks; a resumed run is queued again and continues with the chunk ' +
      'after the last one done. `completed` and `cancelled` never change again; to run again, ' +
      'create a new run over the same bucket.',
  ].join('\n\n');
}

function problemListText(): string {
  return (Object.keys(problemTypes) as ProblemSlug[])
    .map(
      (slug) =>
        `- [\`${slug}\`](/api/docs#problem-${slug}): ` +
        `${problemTypes[slug].status} ${problemTypes[slug].title}`,
    )
    .join('\n');
}

const webhookSummaries: Record<WebhookEventType, string> = {
  'extraction_run.started': 'A run started working',
  'extraction_run.progress': 'A run finished a chunk',
  'extraction_run.paused': 'A run was paused',
  'extraction_run.completed': 'A run completed: every document has its record',
  'extraction_run.partially_completed':
    'A run ended with some documents completed and some failed; `error` says which and why',
  'extraction_run.document_completed':
    'A document of a run completed: `document.data` is its record',
  'extraction_run.document_failed': 'A document of a run failed; `document.error` says why',
  'extraction_run.failed':
    'A run failed: every document failed, or it could not be worked at all; `error` says why',
  'extraction_run.cancelled': 'A run was cancelled',
  'extraction_run.submitted': 'A person submitted the results',
};

// ---------------------------------------------------------------------------------------
// Operations: what a route declares about itself

/** A query or header parameter, as a route declares it. */
export interface Parameter {
  name: string;
  in: 'query' | 'header';
  description: string;
  schema: JsonSchema;
  required?: boolean;
  allowEmptyValue?: boolean;
}

/** A query parameter; its value is text unless `schema` says more. */
export function queryParameter(
  name: string,
  description: string,
  schema: JsonSchema = { type: 'string' },
): Parameter {
  return { name, in: 'query', description, schema };
}

export const pageParameter: Parameter = {
  name: 'page',
  in: 'query',
  description:
    `The page, from 1; empty means 1. ${itemsPerPage} items per page. The first, previous, ` +
    'next and last pages are linked in the Link header, the JSON:API links and the Hydra view.',
  schema: { type: 'integer', minimum: 1, default: 1 },
  allowEmptyValue: true,
};

/** The same parameters, accepted where the specification lists them but of no effect. */
export function ignoredParameters(parameters: readonly Parameter[], where = 'here'): Parameter[] {
  return parameters.map((parameter) => ({
    ...parameter,
    description: `Accepted as the specification lists it; it has no effect ${where}.`,
  }));
}

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

export interface TagObject {
  name: string;
  description: string;
}

export type Body =
  | { input: InputResourceKey; description?: string }
  | { description: string; content: Record<string, MediaTypeObject> };

export type Answer =
  | { status: 200 | 201 | 202; resource: ResourceKey; description?: string }
  | { status: 200 | 201; collection: ResourceKey; description?: string }
  | { status: 204; description: string }
  | {
      status: 200;
      description: string;
      content: Record<string, MediaTypeObject>;
      headers?: Record<string, HeaderObject>;
    };

/** What a route says about itself; its method and path are the route's own. */
export interface OperationSpec {
  /** The operationId; on a second name of a resource, suffixed with the collection's name. */
  id: string;
  tag: string;
  summary: string;
  description?: string;
  query?: readonly Parameter[];
  headers?: readonly Parameter[];
  body?: Body;
  answer: Answer;
  /**
   * Problem statuses besides 401, which every operation that needs a token can answer; a
   * problem type's slug where its status has more than one (422).
   */
  problems: readonly (ProblemStatus | ProblemSlug)[];
  /** `public`: no token; `bearer-or-query`: also `?access_token=` (EventSource sends no headers). */
  access?: 'public' | 'bearer-or-query';
  /** Answers that are not problem documents (GraphQL reports its own errors). */
  otherResponses?: Record<string, ResponseObject>;
}

// The answers and problems of the usual operations of a resource, declared alike.

export const listOf = (resource: ResourceKey) =>
  ({ answer: { status: 200, collection: resource }, problems: [400, 404, 406] }) as const;

export const readingOf = (resource: ResourceKey) =>
  ({ answer: { status: 200, resource }, problems: [404, 406] }) as const;

export const creationOf = (resource: InputResourceKey) =>
  ({
    body: { input: resource },
    answer: { status: 201, resource },
    problems: [400, 404, 406, 408, 413, 415, 422],
  }) as const;

/** A download's file name header (RFC 6266), as results and file contents send it. */
export const contentDispositionHeader: HeaderObject = {
  description: 'attachment, with the file name (RFC 6266).',
  schema: { type: 'string' },
};

// ---------------------------------------------------------------------------------------
// Assembling the document

function csvDescription(fields: readonly string[], what: string): string {
  return (
    `A header row naming the fields (${fields.join(', ')}), then ${what} (RFC 4180). Cells ` +
    'a spreadsheet would take for a formula are neutralised: see Representations.'
  );
}

const htmlDescription = 'A page showing the same fields as application/json.';

function resourceContent(key: ResourceKey): Record<string, MediaTypeObject> {
  const { name, kind } = resourceDocs[key];
  const schemas: Record<ResourceMediaType, JsonSchema> = {
    'application/json': schemaRef(name),
    'application/vnd.api+json': schemaRef(`${name}JsonApiDocument`),
    'application/ld+json': schemaRef(`${name}JsonLd`),
    'text/csv': { type: 'string', description: csvDescription(kind.fields, 'one record') },
    'text/html': { type: 'string', description: htmlDescription },
  };
  return Object.fromEntries(resourceMediaTypes.map((type) => [type, { schema: schemas[type] }]));
}

function collectionContent(key: ResourceKey): Record<string, MediaTypeObject> {
  const { name, kind, plural } = resourceDocs[key];
  const schemas: Record<ResourceMediaType, JsonSchema> = {
    'application/json': { type: 'array', items: schemaRef(name) },
    'application/vnd.api+json': schemaRef(`${name}JsonApiCollection`),
    'application/ld+json': schemaRef(`${name}HydraCollection`),
    'text/csv': {
      type: 'string',
      description: csvDescription(kind.fields, `one record per item of ${plural}`),
    },
    'text/html': {
      type: 'string',
      description: 'A page with a table of the items and links to the other pages.',
    },
  };
  return Object.fromEntries(resourceMediaTypes.map((type) => [type, { schema: schemas[type] }]));
}

function inputContent(key: InputResourceKey): Record<string, MediaTypeObject> {
  const { name, input } = resourceDocs[key];
  const fields = Object.keys(input.shape);
  const schemas: Record<ResourceMediaType, JsonSchema> = {
    'application/json': schemaRef(`${name}Input`),
    'application/vnd.api+json': schemaRef(`${name}InputJsonApiDocument`),
    'application/ld+json': {
      ...schemaRef(`${name}Input`),
      description: '`@`-keywords (@context, @id, @type) are ignored.',
    },
    'text/csv': { type: 'string', description: csvDescription(fields, 'exactly one record') },
    'text/html': {
      type: 'string',
      description:
        'The fields as `<dt>name</dt><dd>value</dd>` pairs, the shape of the HTML representation.',
    },
  };
  return Object.fromEntries(resourceMediaTypes.map((type) => [type, { schema: schemas[type] }]));
}

const collectionHeaders: Record<string, HeaderObject> = {
  Link: {
    description: 'RFC 8288 links to the first, previous, next and last pages.',
    schema: { type: 'string' },
  },
  'X-Total-Count': {
    description: 'How many items there are on all pages.',
    schema: { type: 'integer' },
  },
};

function answerResponse(answer: Answer): ResponseObject {
  if ('resource' in answer) {
    const { noun } = resourceDocs[answer.resource];
    const response: ResponseObject = {
      description:
        answer.description ?? (answer.status === 201 ? `The ${noun}, created.` : `The ${noun}.`),
      content: resourceContent(answer.resource),
    };
    if (answer.status === 201) {
      response.headers = {
        Location: { description: `The IRI of the new ${noun}.`, schema: { type: 'string' } },
      };
    }
    return response;
  }
  if ('collection' in answer) {
    return {
      description: answer.description ?? `A page of ${resourceDocs[answer.collection].plural}.`,
      headers: collectionHeaders,
      content: collectionContent(answer.collection),
    };
  }
  if ('content' in answer) {
    return {
      description: answer.description,
      content: answer.content,
      ...(answer.headers ? { headers: answer.headers } : {}),
    };
  }
  return { description: answer.description };
}

/** The largest body of each media type, in words. */
function mediaTypeLimits(): string {
  return Object.entries(maxBodyBytes)
    .map(([type, bytes]) => `${bytes / 1024} KiB of ${type}`)
    .join(', ');
}

function requestBody(body: Body): RequestBodyObject {
  if ('input' in body) {
    return {
      description:
        body.description ??
        `The writable fields; read-only fields are ignored. At most ${mediaTypeLimits()}; ` +
          `JSON nested at most ${maxJsonDepth} levels deep.`,
      required: true,
      content: inputContent(body.input),
    };
  }
  return { description: body.description, required: true, content: body.content };
}

function pathParameters(path: string): ParameterObject[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => {
    const known = pathParameterDescriptions[name!];
    if (!known) throw new Error(`Describe the path parameter {${name}} of ${path}.`);
    return { name: name!, in: 'path', required: true, ...known };
  });
}

/** The operation object of a spec, without what depends on where it is served (see below). */
function operationObject(spec: OperationSpec): OperationObject {
  const operation: OperationObject = {
    operationId: spec.id,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: [spec.tag],
    parameters: [...(spec.query ?? []), ...(spec.headers ?? [])].map((parameter) => ({
      required: false,
      ...parameter,
    })),
    responses: {},
  };
  if (spec.body) operation.requestBody = requestBody(spec.body);
  if (spec.access === 'public') operation.security = [];
  if (spec.access === 'bearer-or-query')
    operation.security = [{ bearerAuth: [] }, { accessTokenQuery: [] }];

  const responses: Record<string, ResponseObject | Reference> = {
    [String(spec.answer.status)]: answerResponse(spec.answer),
  };
  const problems = [...spec.problems, ...(spec.access === 'public' ? [] : [401])];
  for (const problem of problems) {
    const slug = typeof problem === 'number' ? slugOfStatus(problem) : problem;
    responses[String(problemTypes[slug].status)] = responseRef(slug);
  }
  Object.assign(responses, spec.otherResponses);
  operation.responses = Object.fromEntries(
    Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)),
  );
  return operation;
}

/**
 * The route's own description, carried as its first handler (hono-openapi's
 * `describeRoute`): the document below, the 405s, the token exemptions and the tests'
 * route list are all read from the routes that carry one.
 */
export function documented(spec: OperationSpec): MiddlewareHandler {
  return describeRoute(operationObject(spec) as DescribeRouteOptions);
}

/**
 * `documented` for the operations of one tag: `operation(id, summary, spec)` reads as the
 * route's first line says what it does.
 */
export function operationsOf(
  tag: TagObject,
): (
  id: string,
  summary: string,
  spec: Omit<OperationSpec, 'id' | 'tag' | 'summary'>,
) => MiddlewareHandler {
  return (id, summary, spec) => documented({ id, tag: tag.name, summary, ...spec });
}

/** A route's operation object, if it carries one. */
export function operationOfHandler(handler: unknown): OperationObject | undefined {
  const marked = (handler as { [uniqueSymbol]?: { spec?: OperationObject } } | undefined)?.[
    uniqueSymbol
  ];
  return marked?.spec;
}

/** Who may call an operation: anyone, the bearer of a token, or also `?access_token=`. */
export function accessOf(operation: OperationObject): 'public' | 'bearer' | 'bearer-or-query' {
  if (!operation.security) return 'bearer';
  if (operation.security.length === 0) return 'public';
  return operation.security.some((scheme) => 'accessTokenQuery' in scheme)
    ? 'bearer-or-query'
    : 'bearer';
}

function webhookOperations(): Record<string, PathItem> {
  const header = (name: string, description: string): ParameterObject => ({
    name,
    in: 'header',
    required: true,
    description,
    schema: { type: 'string' },
  });
  return Object.fromEntries(
    webhookEventTypes.map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace(/\W/g, '_')}`,
          summary: webhookSummaries[type],
          description:
            "POSTed to the extractor's webhookUrl when enableWebhook is on, signed as Standard " +
            'Webhooks says. Deliveries come from a durable outbox and are retried with ' +
            'exponential backoff and jitter.',
          tags: ['Webhooks'],
          parameters: [
            header('webhook-id', 'The message id: the same on every attempt of one delivery.'),
            header('webhook-timestamp', 'Seconds since the epoch when this attempt was signed.'),
            header(
              'webhook-signature',
              '`v1,` then the base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` with the ' +
                "extractor's webhookSecret.",
            ),
          ],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: schemaRef('WebhookPayload') } },
          },
          responses: {
            '2XX': { description: 'Received. Any other answer, or none, is retried later.' },
          },
        },
      },
    ]),
  );
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
        responses,
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
