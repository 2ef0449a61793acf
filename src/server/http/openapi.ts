/**
 * The OpenAPI 3.1 document of the service, served at `/api/docs.json` and rendered at
 * `/api/docs`. Every schema in it is generated from src/contract with `z.toJSONSchema`:
 * request bodies as the contract's input types (defaults, optional fields), answers as its
 * output types, and the JSON:API and JSON-LD/Hydra envelopes of representations.ts built
 * as zod schemas around the same contract schemas. Nothing is copied by hand; what cannot
 * be derived from the schemas (which operations exist, their parameters, the problems
 * they answer with) is the one declarative table `operations` below.
 */
import * as z from 'zod/mini';
import {
  runEventDataSchema,
  runEventTypes,
  webhookEventTypes,
  webhookPayloadSchema,
  type WebhookEventType,
} from '../../contract/events.js';
import { graphqlRequestSchema, graphqlResponseSchema } from '../../contract/graphql.js';
import {
  acceptedMediaTypes,
  bucketFileSchema,
  bucketInputSchema,
  bucketSchema,
  currentSessionSchema,
  embedSessionInputSchema,
  embedSessionSchema,
  extractorInputSchema,
  extractorSchema,
  problemSchema,
  resultMetadataSchema,
  runInputSchema,
  runSchema,
  strategies,
  submissionSchema,
} from '../../contract/resources.js';
import {
  finalRunStatuses,
  runCommands,
  runStatuses,
  runTransitions,
  type RunCommand,
} from '../../contract/run-status.js';
import { graphqlTypeDefs } from '../graphql/type-defs.js';
import { resultFormats, resultMediaTypes, type ResultFormat } from '../runs/result-formats.js';
import { maxDocumentBytes } from './body.js';
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
import { itemsPerPage } from '../store/paging.js';
import { extractorCollections } from './routes/extractors.js';
import { runCollections, runFilterParameters } from './routes/runs.js';

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
    input: embedSessionInputSchema,
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
      `larger than ${maxDocumentBytes} bytes.`,
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
  'internal-error': {
    when:
      'Something failed on the server. The request was not completed; nothing about the failure ' +
      'is revealed.',
    example: 'Something went wrong on our side. The request was not completed.',
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
};

type ProblemSlug = keyof typeof problemTypes;
type ProblemStatus = 400 | 404 | 406 | 409 | 413 | 415 | 422;

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
const codeList = (values: readonly string[], separator = ', ') =>
  values.map((value) => `\`${value}\``).join(separator);

function runLifecycleText(): string {
  const arrows = runStatuses
    .filter((status) => runTransitions[status].length > 0)
    .map((status) => `- \`${status}\` → ${codeList(runTransitions[status])}`);
  const commands = (Object.keys(runCommands) as RunCommand[]).map((command) => {
    const target = runCommands[command];
    const from = runStatuses.filter((status) => runTransitions[status].includes(target));
    return `- \`POST …/{id}/${command}\`: ${codeList(from, ' or ')} → \`${target}\``;
  });
  return [
    `A run is \`${runStatuses[0]}\` when it is created. It moves only along these arrows; ` +
      `${codeList(finalRunStatuses)} are final.`,
    arrows.join('\n'),
    'The worker moves a run from `queued` to `running` and from `running` to `completed` or ' +
      '`failed`. People and programs use the commands:',
    commands.join('\n'),
    'A command the current status does not allow answers 409 with `currentStatus`. A pause ' +
      'takes effect between chunks; a resumed run is queued again and continues with the chunk ' +
      'after the last one done. To run again, create a new run over the same bucket.',
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
  'extraction_run.completed': 'A run completed: the results are ready',
  'extraction_run.failed': 'A run failed; `error` says why',
  'extraction_run.cancelled': 'A run was cancelled',
  'extraction_run.submitted': 'A person submitted the results',
};

// ---------------------------------------------------------------------------------------
// Parameters

interface Parameter {
  name: string;
  in: 'query' | 'header';
  description: string;
  schema: JsonSchema;
  required?: boolean;
  allowEmptyValue?: boolean;
}

const pageParameter: Parameter = {
  name: 'page',
  in: 'query',
  description:
    `The page, from 1; empty means 1. ${itemsPerPage} items per page. The first, previous, ` +
    'next and last pages are linked in the Link header, the JSON:API links and the Hydra view.',
  schema: { type: 'integer', minimum: 1, default: 1 },
  allowEmptyValue: true,
};

const extractorFilters: Parameter[] = [
  {
    name: 'model',
    in: 'query',
    description: 'Only extractors with this model (exact).',
    schema: { type: 'string' },
  },
  {
    name: 'output_instructions',
    in: 'query',
    description: 'Only extractors whose outputInstructions contain this text (case-insensitive).',
    schema: { type: 'string' },
  },
];

/** The spec lists `model` and `output_instructions` on these paths too; buckets have neither. */
const ignoredExtractorFilters: Parameter[] = extractorFilters.map((parameter) => ({
  ...parameter,
  description: 'Accepted as the specification lists it; it has no effect here.',
}));

const runFilterDescriptions: Record<
  (typeof runFilterParameters)[number]['variable'],
  Omit<Parameter, 'name' | 'in'>
> = {
  result_json: {
    description: 'Only runs whose resultJson contains this text (case-insensitive).',
    schema: { type: 'string' },
  },
  partial_result_json: {
    description: 'Only runs whose partialResultJson contains this text (case-insensitive).',
    schema: { type: 'string' },
  },
  error: {
    description: 'Only runs whose error contains this text (case-insensitive).',
    schema: { type: 'string' },
  },
  model: { description: 'Only runs with this model (exact).', schema: { type: 'string' } },
  saved_extractor_id: {
    description: 'Only runs of this extractor: its id or IRI (exact).',
    schema: { type: 'string' },
  },
  strategy: {
    description: 'Only runs with this strategy (exact).',
    schema: { type: 'string', enum: [...strategies] },
  },
  status: {
    description: 'Only runs in this status (exact).',
    schema: { type: 'string', enum: [...runStatuses] },
  },
};

const runFilters: Parameter[] = runFilterParameters.map(({ variable }) => ({
  name: variable,
  in: 'query',
  ...runFilterDescriptions[variable],
}));

const ignoredRunFilters: Parameter[] = runFilters.map((parameter) => ({
  ...parameter,
  description: 'Accepted as the specification lists it; it has no effect on a single run.',
}));

const pathParameterDescriptions: Record<string, { description: string; schema: JsonSchema }> = {
  id: {
    description: 'The id of the resource: the last segment of its IRI.',
    schema: { type: 'string' },
  },
  fileId: { description: 'The id of a file of the bucket.', schema: { type: 'string' } },
  type: {
    description: 'A resource type, as in `@type`.',
    schema: { type: 'string', enum: resourceKinds.map((kind) => kind.type) },
  },
};

// ---------------------------------------------------------------------------------------
// The operations

type Tag = (typeof tags)[number]['name'];

type Body =
  | { input: InputResourceKey; description?: string }
  | { description: string; content: Record<string, MediaTypeObject> };

type Answer =
  | { status: 200 | 201; resource: ResourceKey; description?: string }
  | { status: 200 | 201; collection: ResourceKey; description?: string }
  | { status: 204; description: string }
  | {
      status: 200;
      description: string;
      content: Record<string, MediaTypeObject>;
      headers?: Record<string, HeaderObject>;
    };

interface OperationSpec {
  method: HttpMethod;
  /** Where the operation is served; the first path is canonical, the others are second names. */
  paths: readonly string[];
  id: string;
  tag: Tag;
  summary: string;
  description?: string;
  query?: readonly Parameter[];
  headers?: readonly Parameter[];
  body?: Body;
  answer: Answer;
  /** Problem statuses besides 401, which every operation that needs a token can answer. */
  problems: readonly ProblemStatus[];
  /** `public`: no token; `bearer-or-query`: also `?access_token=` (EventSource sends no headers). */
  access?: 'public' | 'bearer-or-query';
  /** Answers that are not problem documents (GraphQL reports its own errors). */
  otherResponses?: Record<string, ResponseObject>;
}

const extractorPaths = (suffix = '') => extractorCollections.map((base) => `${base}${suffix}`);
const runPaths = (suffix = '') => runCollections.map((base) => `${base}${suffix}`);

const resultSchemas: Record<ResultFormat, JsonSchema> = {
  json: { description: "The data, shaped by the run's targetSchema." },
  xml: { type: 'string', description: 'The data as XML.' },
  csv: { type: 'string', description: 'The data as CSV with a header row.' },
};

const contentDisposition: HeaderObject = {
  description: 'attachment, with the file name (RFC 6266).',
  schema: { type: 'string' },
};

const commandSummaries: Record<RunCommand, string> = {
  pause: 'Pause a run',
  resume: 'Resume a paused run',
  cancel: 'Cancel a run',
};

const tags = [
  {
    name: 'Buckets',
    description:
      'Containers for the files a run works over. Deleting one is soft: it answers 404 ' +
      'afterwards and leaves every list.',
  },
  {
    name: 'Files',
    description:
      'The files of a bucket (the specification shows no upload; this is ours). Uploads stream ' +
      'to disk; the media ' +
      `type is judged from the bytes. Accepted: ${acceptedMediaTypes.join(', ')}.`,
  },
  {
    name: 'Saved extractors',
    description:
      'Stored extraction configurations, at /api/extractors and /api/saved_extractors (one ' +
      'resource under two names). ' +
      `Strategies: ${codeList(strategies)}; the \`local\` strategy has the model \`local\`, ` +
      'the `llm` strategy the models the service is configured with. An unknown one answers 422 ' +
      'listing the allowed values.',
  },
  {
    name: 'Extraction runs',
    description:
      'Runs, at /api/runs and /api/extraction_runs (one resource under two names).\n\n' +
      runLifecycleText(),
  },
  {
    name: 'Embed sessions',
    description:
      'Short-lived tokens for the hosted interface, minted with a personal access token. A ' +
      'session token reads its extractor, reads and uploads to its bucket, and starts, watches, ' +
      'controls and submits the runs of that bucket; anything else answers 404.',
  },
  {
    name: 'GraphQL',
    description:
      'A read-only GraphQL view of the same data, with the same tokens and scopes. Its schema:' +
      `\n\n\`\`\`graphql\n${graphqlTypeDefs}\n\`\`\``,
  },
  {
    name: 'About the API',
    description: 'This documentation and the JSON-LD contexts. They need no token.',
  },
] as const;

/**
 * Every operation the service answers. Adding a route means adding its row here; the
 * tests compare this table with the app's routes and with real requests.
 */
const operations: readonly OperationSpec[] = [
  // Buckets ----------------------------------------------------------------------------
  {
    method: 'get',
    paths: ['/api/buckets'],
    id: 'listBuckets',
    tag: 'Buckets',
    summary: 'List buckets',
    description: 'Newest first. Personal access tokens only.',
    query: [pageParameter, ...ignoredExtractorFilters],
    answer: { status: 200, collection: 'bucket' },
    problems: [400, 404, 406],
  },
  {
    method: 'post',
    paths: ['/api/buckets'],
    id: 'createBucket',
    tag: 'Buckets',
    summary: 'Create a bucket',
    query: ignoredExtractorFilters,
    body: { input: 'bucket' },
    answer: { status: 201, resource: 'bucket' },
    problems: [400, 404, 406, 413, 415, 422],
  },
  {
    method: 'get',
    paths: ['/api/buckets/{id}'],
    id: 'getBucket',
    tag: 'Buckets',
    summary: 'Retrieve a bucket',
    query: ignoredExtractorFilters,
    answer: { status: 200, resource: 'bucket' },
    problems: [404, 406],
  },
  {
    method: 'delete',
    paths: ['/api/buckets/{id}'],
    id: 'deleteBucket',
    tag: 'Buckets',
    summary: 'Delete a bucket',
    query: ignoredExtractorFilters,
    answer: { status: 204, description: 'Deleted.' },
    problems: [404],
  },
  // Files ------------------------------------------------------------------------------
  {
    method: 'post',
    paths: ['/api/buckets/{id}/files'],
    id: 'uploadFiles',
    tag: 'Files',
    summary: 'Upload files to a bucket',
    description:
      'One or more `file` parts. Each is streamed to disk; when one is refused, none of the ' +
      'request is kept.',
    body: {
      description: 'multipart/form-data with one or more `file` parts.',
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: {
              file: {
                type: 'array',
                items: { type: 'string', contentMediaType: 'application/octet-stream' },
              },
            },
            required: ['file'],
          },
          encoding: { file: { contentType: acceptedMediaTypes.join(', ') } },
        },
      },
    },
    answer: {
      status: 201,
      collection: 'file',
      description: 'The files as stored, in the order they were sent.',
    },
    problems: [400, 404, 406, 413, 415],
  },
  {
    method: 'get',
    paths: ['/api/buckets/{id}/files'],
    id: 'listFiles',
    tag: 'Files',
    summary: 'List the files of a bucket',
    query: [pageParameter],
    answer: { status: 200, collection: 'file' },
    problems: [400, 404, 406],
  },
  {
    method: 'get',
    paths: ['/api/buckets/{id}/files/{fileId}'],
    id: 'getFile',
    tag: 'Files',
    summary: 'Retrieve a file resource',
    answer: { status: 200, resource: 'file' },
    problems: [404, 406],
  },
  {
    method: 'delete',
    paths: ['/api/buckets/{id}/files/{fileId}'],
    id: 'deleteFile',
    tag: 'Files',
    summary: 'Remove a file from a bucket',
    answer: { status: 204, description: 'Removed, with its bytes.' },
    problems: [404, 409],
  },
  {
    method: 'get',
    paths: ['/api/buckets/{id}/files/{fileId}/content'],
    id: 'getFileContent',
    tag: 'Files',
    summary: 'Download the bytes of a file',
    answer: {
      status: 200,
      description: 'The bytes as uploaded, with the media type detected at upload.',
      content: Object.fromEntries(
        acceptedMediaTypes.map((type) => [type, { schema: { description: 'The file.' } }]),
      ),
      headers: { 'Content-Disposition': contentDisposition },
    },
    problems: [404],
  },
  // Saved extractors -------------------------------------------------------------------
  {
    method: 'get',
    paths: extractorPaths(),
    id: 'listExtractors',
    tag: 'Saved extractors',
    summary: 'List saved extractors',
    description: 'Newest first. Personal access tokens only.',
    query: [pageParameter, ...extractorFilters],
    answer: { status: 200, collection: 'extractor' },
    problems: [400, 404, 406],
  },
  {
    method: 'post',
    paths: extractorPaths(),
    id: 'createExtractor',
    tag: 'Saved extractors',
    summary: 'Create a saved extractor',
    description:
      '`label` and `jsonSchema` are required; every other field has a default. The answer ' +
      'carries `webhookSecret`, once.',
    query: ignoredExtractorFilters,
    body: { input: 'extractor' },
    answer: { status: 201, resource: 'extractor' },
    problems: [400, 404, 406, 413, 415, 422],
  },
  {
    method: 'get',
    paths: extractorPaths('/{id}'),
    id: 'getExtractor',
    tag: 'Saved extractors',
    summary: 'Retrieve a saved extractor',
    query: ignoredExtractorFilters,
    answer: { status: 200, resource: 'extractor' },
    problems: [404, 406],
  },
  {
    method: 'put',
    paths: extractorPaths('/{id}'),
    id: 'replaceExtractor',
    tag: 'Saved extractors',
    summary: 'Replace the writable fields of a saved extractor',
    description:
      'A field left out takes its default, as on create. Runs already created keep the schema ' +
      'they copied.',
    body: { input: 'extractor' },
    answer: { status: 200, resource: 'extractor' },
    problems: [400, 404, 406, 413, 415, 422],
  },
  {
    method: 'delete',
    paths: extractorPaths('/{id}'),
    id: 'deleteExtractor',
    tag: 'Saved extractors',
    summary: 'Delete a saved extractor',
    query: ignoredExtractorFilters,
    answer: { status: 204, description: 'Deleted.' },
    problems: [404],
  },
  {
    method: 'post',
    paths: extractorPaths('/{id}/webhook_secret'),
    id: 'rotateWebhookSecret',
    tag: 'Saved extractors',
    summary: 'Rotate the webhook signing secret',
    description:
      'The old secret stops working at once; the answer carries the new `webhookSecret`, once.',
    answer: { status: 200, resource: 'extractor' },
    problems: [404, 406],
  },
  // Extraction runs --------------------------------------------------------------------
  {
    method: 'get',
    paths: runPaths(),
    id: 'listRuns',
    tag: 'Extraction runs',
    summary: 'List extraction runs',
    description:
      'Newest first. Personal access tokens only. Filters are exact for ids and enumerations, ' +
      'substrings for text.',
    query: [pageParameter, ...runFilters],
    answer: { status: 200, collection: 'run' },
    problems: [400, 404, 406],
  },
  {
    method: 'post',
    paths: runPaths(),
    id: 'createRun',
    tag: 'Extraction runs',
    summary: 'Start an extraction run',
    description:
      "A `queued` run of the extractor over the bucket, with the extractor's settings unless the " +
      "body overrides them. The run copies the extractor's jsonSchema into targetSchema now. A " +
      'bucket without files answers 422.',
    body: { input: 'run' },
    answer: { status: 201, resource: 'run' },
    problems: [400, 404, 406, 413, 415, 422],
  },
  {
    method: 'get',
    paths: runPaths('/{id}'),
    id: 'getRun',
    tag: 'Extraction runs',
    summary: 'Retrieve an extraction run',
    description: 'Polling this is an alternative to the event stream.',
    query: ignoredRunFilters,
    answer: { status: 200, resource: 'run' },
    problems: [404, 406],
  },
  ...(Object.keys(runCommands) as RunCommand[]).map((command): OperationSpec => ({
    method: 'post',
    paths: runPaths(`/{id}/${command}`),
    id: `${command}Run`,
    tag: 'Extraction runs',
    summary: commandSummaries[command],
    description:
      `Moves the run to \`${runCommands[command]}\`; ` +
      'any other status answers 409 with `currentStatus`.',
    answer: { status: 200, resource: 'run', description: 'The run after the change.' },
    problems: [404, 406, 409],
  })),
  {
    method: 'get',
    paths: runPaths('/{id}/results'),
    id: 'getResults',
    tag: 'Extraction runs',
    summary: 'Download the results of a run',
    description:
      'As JSON (the data), XML (element names made valid, arrays as repeated elements) or CSV ' +
      '(RFC 4180; nested objects as dotted columns; one row per item of the top-level array of ' +
      'objects; cells that a spreadsheet would read as a formula are neutralised). Chosen by ' +
      '`format`, else by Accept. 409 while the run has no results.',
    query: [
      {
        name: 'format',
        in: 'query',
        description: 'The format; overrides Accept (where `text/xml` counts as XML).',
        schema: { type: 'string', enum: [...resultFormats] },
      },
      {
        name: 'version',
        in: 'query',
        description:
          "`current` (the default): the results with a person's edits, if any; `original`: the " +
          "machine's results.",
        schema: { type: 'string', enum: ['current', 'original'], default: 'current' },
      },
    ],
    answer: {
      status: 200,
      description: 'The results, as a download.',
      content: Object.fromEntries(
        resultFormats.map((format) => [
          resultMediaTypes[format],
          { schema: resultSchemas[format] },
        ]),
      ),
      headers: { 'Content-Disposition': contentDisposition },
    },
    problems: [400, 404, 406, 409],
  },
  {
    method: 'put',
    paths: runPaths('/{id}/results'),
    id: 'saveResults',
    tag: 'Extraction runs',
    summary: 'Save results edited by a person',
    description:
      'Validated against targetSchema (422 with a JSON pointer for each violation). The ' +
      "machine's original stays readable as resultJson and with `?version=original`. 409 before " +
      'the run completed or after submission.',
    body: {
      description: "The edited data, shaped by the run's targetSchema.",
      content: {
        'application/json': {
          schema: { description: 'Any JSON value valid against targetSchema.' },
        },
      },
    },
    answer: {
      status: 200,
      resource: 'run',
      description: 'The run with the edits (editedResultJson, data).',
    },
    problems: [400, 404, 406, 409, 413, 415, 422],
  },
  {
    method: 'post',
    paths: runPaths('/{id}/submit'),
    id: 'submitResults',
    tag: 'Extraction runs',
    summary: 'Submit the results',
    description:
      'Once per run (again answers 409); fires `extraction_run.submitted` and answers with the ' +
      "extractor's redirectUrl.",
    answer: { status: 200, resource: 'submission' },
    problems: [404, 406, 409],
  },
  {
    method: 'get',
    paths: runPaths('/{id}/events'),
    id: 'streamRunEvents',
    tag: 'Extraction runs',
    summary: 'Follow a run live (Server-Sent Events)',
    description:
      'First a `snapshot` event with the run as it is, then the events ' +
      `${codeList(runEventTypes)} as they happen, each with a RunEvent as \`data\` ` +
      'and an `id` to resume after with Last-Event-ID. The stream ends once the run is final. ' +
      'The token may come as `?access_token=` because EventSource cannot send headers.',
    query: [
      {
        name: 'access_token',
        in: 'query',
        description: 'The bearer token, for clients that cannot send an Authorization header.',
        schema: { type: 'string' },
      },
      {
        name: 'lastEventId',
        in: 'query',
        description: 'Resume after this event id, for clients that cannot send Last-Event-ID.',
        schema: { type: 'string', pattern: '^\\d{1,15}$' },
      },
    ],
    headers: [
      {
        name: 'Last-Event-ID',
        in: 'header',
        description: 'Resume after this event id.',
        schema: { type: 'string', pattern: '^\\d{1,15}$' },
      },
    ],
    answer: {
      status: 200,
      description: 'An event stream that stays open while the run can still change.',
      content: {
        'text/event-stream': {
          schema: { type: 'string', description: 'Events whose data is a RunEvent.' },
        },
      },
    },
    problems: [400, 404, 406],
    access: 'bearer-or-query',
  },
  // Embed sessions ---------------------------------------------------------------------
  {
    method: 'post',
    paths: ['/api/embed_sessions'],
    id: 'createEmbedSession',
    tag: 'Embed sessions',
    summary: 'Mint an embed session token',
    description:
      'For one extractor and one bucket (a new bucket when none is named). The embeddedUrl and ' +
      'fullPageUrl of the answer already carry the session. Personal access tokens only.',
    body: { input: 'session' },
    answer: { status: 201, resource: 'session' },
    problems: [400, 404, 406, 413, 415, 422],
  },
  {
    method: 'get',
    paths: ['/api/embed_sessions/current'],
    id: 'getCurrentEmbedSession',
    tag: 'Embed sessions',
    summary: 'Describe the session token in use',
    description: 'Session tokens only; a personal access token gets 404.',
    answer: { status: 200, resource: 'currentSession' },
    problems: [404, 406],
  },
  {
    method: 'delete',
    paths: ['/api/embed_sessions/{id}'],
    id: 'revokeEmbedSession',
    tag: 'Embed sessions',
    summary: 'Revoke an embed session token',
    answer: { status: 204, description: 'Revoked: the token answers 401 from now on.' },
    problems: [404],
  },
  // GraphQL ----------------------------------------------------------------------------
  {
    method: 'get',
    paths: ['/api/graphql'],
    id: 'graphqlGet',
    tag: 'GraphQL',
    summary: 'Run a GraphQL query (GET)',
    query: [
      {
        name: 'query',
        in: 'query',
        required: true,
        description: 'The GraphQL document.',
        schema: { type: 'string' },
      },
      {
        name: 'variables',
        in: 'query',
        description: 'JSON object of the variables.',
        schema: { type: 'string' },
      },
      {
        name: 'operationName',
        in: 'query',
        description: 'The operation to run.',
        schema: { type: 'string' },
      },
    ],
    answer: graphqlAnswer(),
    problems: [406],
    otherResponses: graphqlErrors(),
  },
  {
    method: 'post',
    paths: ['/api/graphql'],
    id: 'graphqlPost',
    tag: 'GraphQL',
    summary: 'Run a GraphQL query (POST)',
    body: {
      description: 'The GraphQL request.',
      content: { 'application/json': { schema: schemaRef('GraphqlRequest') } },
    },
    answer: graphqlAnswer(),
    problems: [406, 413, 415],
    otherResponses: graphqlErrors(),
  },
  // About the API ----------------------------------------------------------------------
  {
    method: 'get',
    paths: ['/api/contexts/{type}'],
    id: 'getJsonLdContext',
    tag: 'About the API',
    summary: 'The JSON-LD context of a resource type',
    answer: {
      status: 200,
      description: 'The context that `@context` of the JSON-LD representations points to.',
      content: { 'application/ld+json': { schema: { type: 'object', required: ['@context'] } } },
    },
    problems: [404],
    access: 'public',
  },
  {
    method: 'get',
    paths: ['/api/docs.json'],
    id: 'getOpenApiDocument',
    tag: 'About the API',
    summary: 'This OpenAPI document',
    answer: {
      status: 200,
      description: 'The OpenAPI 3.1 document, generated from the contract schemas.',
      content: {
        'application/openapi+json': { schema: { type: 'object' } },
        'application/json': { schema: { type: 'object' } },
      },
    },
    problems: [406],
    access: 'public',
  },
  {
    method: 'get',
    paths: ['/api/docs'],
    id: 'getDocsPage',
    tag: 'About the API',
    summary: 'This documentation as a web page',
    answer: {
      status: 200,
      description:
        'Every operation, schema and problem type of this document, readable without JavaScript.',
      content: { 'text/html': { schema: { type: 'string' } } },
    },
    problems: [406],
    access: 'public',
  },
];

function graphqlAnswer(): Answer {
  return {
    status: 200,
    description: 'The data; errors inside resolvers (a bad page, say) come in `errors` beside it.',
    content: {
      'application/graphql-response+json': { schema: schemaRef('GraphqlResponse') },
      'application/json': { schema: schemaRef('GraphqlResponse') },
    },
  };
}

function graphqlErrors(): Record<string, ResponseObject> {
  return {
    '400': {
      description:
        'The query cannot be parsed or does not fit the schema: `errors` says where. Clients ' +
        'that accept only application/json get these errors with a 200, as GraphQL over HTTP ' +
        'says for that type.',
      content: { 'application/graphql-response+json': { schema: schemaRef('GraphqlResponse') } },
    },
  };
}

// ---------------------------------------------------------------------------------------
// Assembling the document

function csvDescription(fields: readonly string[], what: string): string {
  return `A header row naming the fields (${fields.join(', ')}), then ${what} (RFC 4180).`;
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

function requestBody(body: Body): RequestBodyObject {
  if ('input' in body) {
    return {
      description:
        body.description ??
        `The writable fields; read-only fields are ignored. At most ${maxDocumentBytes} bytes.`,
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

function operationObject(spec: OperationSpec, path: string): OperationObject {
  const canonical = path === spec.paths[0];
  const collection = /^\/api\/(\w+)/.exec(path)?.[1] ?? '';
  const operation: OperationObject = {
    operationId: canonical ? spec.id : `${spec.id}_${collection}`,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: [spec.tag],
    parameters: [
      ...pathParameters(path),
      ...[...(spec.query ?? []), ...(spec.headers ?? [])].map((parameter) => ({
        required: false,
        ...parameter,
      })),
    ],
    responses: {},
  };
  if (!canonical) operation['x-same-as'] = spec.id;
  if (spec.body) operation.requestBody = requestBody(spec.body);
  if (spec.access === 'public') operation.security = [];
  if (spec.access === 'bearer-or-query')
    operation.security = [{ bearerAuth: [] }, { accessTokenQuery: [] }];

  const responses: Record<string, ResponseObject | Reference> = {
    [String(spec.answer.status)]: answerResponse(spec.answer),
  };
  const statuses: number[] = [...spec.problems, ...(spec.access === 'public' ? [] : [401])];
  for (const status of statuses) responses[String(status)] = responseRef(slugOfStatus(status));
  Object.assign(responses, spec.otherResponses);
  operation.responses = Object.fromEntries(
    Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)),
  );
  return operation;
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

const documents = new Map<string, OpenApiDocument>();

/** The document for a service reached at `serverUrl` (PUBLIC_BASE_URL). */
export function buildOpenApiDocument(serverUrl: string): OpenApiDocument {
  const cached = documents.get(serverUrl);
  if (cached) return cached;
  const paths: Record<string, PathItem> = {};
  for (const spec of operations) {
    for (const path of spec.paths) {
      const item = (paths[path] ??= {});
      if (item[spec.method])
        throw new Error(`${spec.method.toUpperCase()} ${path} is in the table twice.`);
      item[spec.method] = operationObject(spec, path);
    }
  }
  const document: OpenApiDocument = {
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
          description: 'The same tokens as a query parameter; only on the event stream.',
        },
      },
    },
  };
  documents.set(serverUrl, document);
  return document;
}
