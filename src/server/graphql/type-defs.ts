/**
 * The SDL of `/api/graphql`, generated from the contract's wire schemas (see schema.ts).
 * It lives apart from the resolvers so that the API documentation, which prints it, can
 * have it without loading graphql-yoga: that is loaded at the first GraphQL request.
 */
import * as z from 'zod/mini';
import { savedCheckSchema } from '../../contract/check-schemas.js';
import {
  bucketSchema,
  documentSummarySchema,
  extractorSchema,
  runSchema,
  strategies,
} from '../../contract/resources.js';
import { runStatuses } from '../../contract/run-status.js';
import { itemsPerPage } from '../store/paging.js';

interface JsonSchemaProperty {
  type?: string | string[];
  /** How zod writes a nullable integer: `[{ type: 'integer' }, { type: 'null' }]`. */
  anyOf?: JsonSchemaProperty[];
  description?: string;
  items?: JsonSchemaProperty;
}

function jsonTypes(property: JsonSchemaProperty): string[] {
  if (property.anyOf) return property.anyOf.flatMap(jsonTypes);
  if (property.type === undefined) return [];
  return Array.isArray(property.type) ? property.type : [property.type];
}

function scalarFor(name: string, property: JsonSchemaProperty): string {
  if (name === 'id') return 'ID';
  const main = jsonTypes(property).find((type) => type !== 'null');
  switch (main) {
    case 'string':
      return 'String';
    case 'boolean':
      return 'Boolean';
    case 'integer':
      return 'Int';
    case 'number':
      return 'Float';
    case 'array':
      if (property.items) return `[${scalarFor('', property.items)}!]`;
  }
  // A new kind of field in the contract must be mapped here before it can be served.
  throw new Error(
    `No GraphQL type for the contract field "${name}" (${JSON.stringify(property)}).`,
  );
}

function sdlDescription(text: string | undefined, indent = ''): string {
  return text ? `${indent}"""${text.replace(/"""/g, '\\"""')}"""\n` : '';
}

/**
 * An object type with one field per property of a contract schema's output, nullable
 * exactly where the contract allows null or leaves the field out.
 */
function objectTypeSdl(
  name: string,
  description: string,
  schema: z.ZodMiniType,
  omit: readonly string[] = [],
  /** Fields written in SDL, for what has no scalar type (a list of objects). */
  more: readonly string[] = [],
): string {
  const json = z.toJSONSchema(schema, { io: 'output' }) as {
    properties: Record<string, JsonSchemaProperty>;
    required?: string[];
  };
  const required = new Set(json.required ?? []);
  const fields = Object.entries(json.properties)
    .filter(([field]) => !omit.includes(field))
    .map(([field, property]) => {
      const nullable = jsonTypes(property).includes('null') || !required.has(field);
      const type = `${scalarFor(field, property)}${nullable ? '' : '!'}`;
      return `${sdlDescription(property.description, '  ')}  ${field}: ${type}`;
    })
    .concat(more);
  return `${sdlDescription(description)}type ${name} {\n${fields.join('\n')}\n}`;
}

function operandDescription(side: 'left' | 'right'): string {
  return (
    `The ${side} operand as JSON text: a JSON pointer as a JSON string ("/total" in quotes), ` +
    'a number, or an object with one of value, sum, add, subtract, multiply.'
  );
}

function pageTypeSdl(itemType: string): string {
  return `${sdlDescription(`One page of ${itemType} items (${itemsPerPage} per page), newest first.`)}type ${itemType}Page {
  items: [${itemType}!]!
  """How many items there are on all pages."""
  totalItems: Int!
  itemsPerPage: Int!
  currentPage: Int!
}`;
}

const pageArgument = `"""The page to show, from 1; ${itemsPerPage} items per page."""\n    page: Int = 1`;

/** The schema in SDL; the API documentation prints it. */
export const graphqlTypeDefs = [
  objectTypeSdl(
    'SavedExtractor',
    'A stored extraction configuration (REST: /api/saved_extractors/{id}).',
    extractorSchema,
    // The signing secret is shown once, in the REST answer that creates or rotates it.
    ['webhookSecret', 'checks'],
    [
      `${sdlDescription(z.toJSONSchema(extractorSchema.shape.checks).description, '  ')}  checks: [Check!]!`,
    ],
  ),
  objectTypeSdl(
    'Check',
    'A check on the results, as REST shows it; its operands as JSON text.',
    // An operand is a pointer, a number or an object of several shapes, which no GraphQL
    // type holds: it is written as JSON text, as a document's `data` is.
    z.extend(savedCheckSchema, {
      left: z.string().check(z.describe(operandDescription('left'))),
      right: z.string().check(z.describe(operandDescription('right'))),
    }),
  ),
  objectTypeSdl(
    'ExtractionBucket',
    'A container of files that runs work over (REST: /api/buckets/{id}).',
    bucketSchema,
  ),
  objectTypeSdl(
    'ExtractionRun',
    'One execution of an extractor over a bucket (REST: /api/extraction_runs/{id}).',
    runSchema,
    ['documents'],
    [
      `${sdlDescription(z.toJSONSchema(runSchema.shape.documents).description, '  ')}  documents: [RunDocument!]!`,
    ],
  ),
  objectTypeSdl(
    'RunDocument',
    'One document of a run: a file of its bucket (or, with combineFiles, all of them).',
    z.extend(documentSummarySchema, {
      data: z
        .nullable(z.string())
        .check(
          z.describe(
            "The document's record as JSON text (a person's edits included); while it works, " +
              'what its chunks found so far; null when there is nothing.',
          ),
        ),
    }),
  ),
  pageTypeSdl('SavedExtractor'),
  pageTypeSdl('ExtractionBucket'),
  pageTypeSdl('ExtractionRun'),
  `enum RunStatus {\n${runStatuses.map((status) => `  ${status}`).join('\n')}\n}`,
  `enum Strategy {\n${strategies.map((strategy) => `  ${strategy}`).join('\n')}\n}`,
  `type Query {
  """Saved extractors, newest first. An embed session token sees only its own."""
  savedExtractors(
    ${pageArgument}
  ): SavedExtractorPage!
  """One saved extractor, or null when there is none the token may see."""
  savedExtractor(id: ID!): SavedExtractor
  """Buckets, newest first. An embed session token sees only its own."""
  buckets(
    ${pageArgument}
  ): ExtractionBucketPage!
  """One bucket, or null when there is none the token may see."""
  bucket(id: ID!): ExtractionBucket
  """
  Extraction runs, newest first, filtered like GET /api/extraction_runs: exact for ids and
  enumerations, case-insensitive substring for text. An embed session token sees only the
  runs of its extractor over its bucket.
  """
  runs(
    ${pageArgument}
    """Substring of resultJson."""
    resultJson: String
    """Substring of partialResultJson."""
    partialResultJson: String
    """Substring of the error."""
    error: String
    """The model, exactly."""
    model: String
    """The extractor, by id or IRI."""
    savedExtractorId: ID
    strategy: Strategy
    status: RunStatus
  ): ExtractionRunPage!
  """One extraction run, or null when there is none the token may see."""
  run(id: ID!): ExtractionRun
}`,
].join('\n\n');
