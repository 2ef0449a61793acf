/**
 * The schemas of the OpenAPI document, every one generated from src/contract with
 * `z.toJSONSchema`: request bodies as the contract's input types (defaults, optional
 * fields), answers as its output types, and the JSON:API and JSON-LD/Hydra envelopes of
 * representations.ts built as zod schemas around the same contract schemas. Nothing is
 * copied by hand.
 */
import * as z from 'zod/mini';
import { runEventDataSchema, webhookPayloadSchema } from '../../../contract/events.js';
import { graphqlRequestSchema, graphqlResponseSchema } from '../../../contract/graphql.js';
import {
  jsonApiErrorsSchema,
  problemSchema,
  resultsEditSchema,
  runResultsSchema,
} from '../../../contract/resources.js';
import { pageWordsSchema, resultMetadataSchema } from '../../../contract/review.js';
import { resourceMediaTypes, type ResourceMediaType } from '../negotiation.js';
import type { Relationship, ResourceKind } from '../representations.js';
import { inputExamples } from './examples.js';
import { schemaRef, type HeaderObject, type JsonSchema, type MediaTypeObject } from './objects.js';
import {
  resourceDocs,
  type InputResourceKey,
  type ResourceDoc,
  type ResourceKey,
} from './resources.js';

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
 * of the attributes). `attributes` itself may be left out when nothing in it is required,
 * as a run's body that names its bucket and extractor as relationships needs none.
 */
function jsonApiInputSchema(resource: ResourceDoc, input: z.ZodMiniObject): z.ZodMiniObject {
  const shape = input.shape as Record<string, z.ZodMiniType>;
  const relaxed = Object.fromEntries(
    Object.entries(shape).map(([field, schema]) => [
      field,
      field in resource.kind.relationships ? z.optional(schema) : schema,
    ]),
  );
  const attributes = z.object(relaxed);
  const { required = [] } = z.toJSONSchema(attributes, { io: 'input' }) as { required?: string[] };
  const identifier = z.object({
    type: z.optional(z.string()),
    id: described(
      z.string(),
      'An id, or an IRI of this service (absolute, or relative to the resource).',
    ),
  });
  return z.object({
    data: z.object({
      type: z.optional(
        described(
          z.string(),
          `${resource.kind.type} when given; another type answers 409 (JSON:API 1.1).`,
        ),
      ),
      id: z.optional(
        described(
          z.string(),
          'Left out on a create (a client-generated id answers 403); on a replace, the id or ' +
            'IRI of the resource replaced (another answers 409).',
        ),
      ),
      attributes: required.length > 0 ? attributes : z.optional(attributes),
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

/** A JSON-LD body: the input's fields, and the keywords the service reads past (ignored). */
function jsonLdInputSchema(input: z.ZodMiniObject): z.ZodMiniObject {
  const ignored = (what: string) => z.optional(described(z.unknown(), `${what}; ignored.`));
  return z.strictObject({
    '@context': ignored('The context, as JSON-LD clients send it'),
    '@id': ignored("The resource's IRI"),
    '@type': ignored("The resource's type"),
    ...input.shape,
  });
}

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
export function componentSchemas(): GeneratedComponents {
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
      add(inputs, `${name}InputJsonLd`, jsonLdInputSchema(resource.input));
    }
  }
  add(outputs, 'Problem', problemSchema);
  add(outputs, 'JsonApiErrors', jsonApiErrorsSchema);
  add(outputs, 'ResultMetadata', resultMetadataSchema);
  add(outputs, 'RunResults', runResultsSchema);
  add(outputs, 'PageWords', pageWordsSchema);
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
// A resource's content in each media type, as answers and request bodies carry it

function csvDescription(fields: readonly string[], what: string): string {
  return (
    `A header row naming the fields (${fields.join(', ')}), then ${what} (RFC 4180). Cells ` +
    'a spreadsheet would take for a formula are neutralised: see Representations.'
  );
}

const htmlDescription = 'A page showing the same fields as application/json.';

export function resourceContent(key: ResourceKey): Record<string, MediaTypeObject> {
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

export function collectionContent(key: ResourceKey): Record<string, MediaTypeObject> {
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

/**
 * An example body as a JSON:API document: references to other resources as relationships,
 * the rest as attributes, and no attributes at all when nothing else is left.
 */
function jsonApiExample(kind: ResourceKind, example: Record<string, unknown>) {
  const attributes = Object.fromEntries(
    Object.entries(example).filter(([field]) => !(field in kind.relationships)),
  );
  const relationships = Object.fromEntries(
    Object.entries(example)
      .filter(([field]) => field in kind.relationships)
      .map(([field, id]) => [field, { data: { type: kind.relationships[field]!.type, id } }]),
  );
  return {
    data: {
      type: kind.type,
      ...(Object.keys(attributes).length > 0 ? { attributes } : {}),
      ...(Object.keys(relationships).length > 0 ? { relationships } : {}),
    },
  };
}

export function inputContent(key: InputResourceKey): Record<string, MediaTypeObject> {
  const { name, input, kind } = resourceDocs[key];
  const fields = Object.keys(input.shape);
  const example = inputExamples[key];
  const examples: Partial<Record<ResourceMediaType, unknown>> = {
    'application/json': example,
    'application/vnd.api+json': jsonApiExample(kind, example),
    'application/ld+json': {
      '@context': `/api/contexts/${kind.type}`,
      '@type': kind.type,
      ...example,
    },
  };
  const schemas: Record<ResourceMediaType, JsonSchema> = {
    'application/json': schemaRef(`${name}Input`),
    'application/vnd.api+json': schemaRef(`${name}InputJsonApiDocument`),
    'application/ld+json': schemaRef(`${name}InputJsonLd`),
    'text/csv': { type: 'string', description: csvDescription(fields, 'exactly one record') },
    'text/html': {
      type: 'string',
      description:
        'The fields as `<dt>name</dt><dd>value</dd>` pairs, the shape of the HTML representation.',
    },
  };
  return Object.fromEntries(
    resourceMediaTypes.map((type) => [
      type,
      { schema: schemas[type], ...(type in examples ? { example: examples[type] } : {}) },
    ]),
  );
}

export const collectionHeaders: Record<string, HeaderObject> = {
  Link: {
    description: 'RFC 8288 links to the first, previous, next and last pages.',
    schema: { type: 'string' },
  },
  'X-Total-Count': {
    description: 'How many items there are on all pages.',
    schema: { type: 'integer' },
  },
};
