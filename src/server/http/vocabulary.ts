/**
 * The vocabulary the JSON-LD representations use, served at `/api/vocab`: every type
 * (`/api/vocab#SavedExtractor`) and every term of a type (`/api/vocab#SavedExtractor.label`)
 * that a context (`/api/contexts/{type}`) expands to, so that each IRI a JSON-LD client holds
 * resolves to a document that says what it means: as JSON-LD (RDF Schema classes and
 * properties) and as a page whose fragments are the terms.
 */
import * as z from 'zod/mini';
import {
  bucketFileSchema,
  bucketSchema,
  embedSessionSchema,
  extractorSchema,
  runSchema,
  submissionSchema,
} from '../../contract/resources.js';
import { markup, pageCsp, renderPage } from './page-layout.js';
import { resourceKinds } from './kinds.js';
import { termPrefix, typeIri, vocabularyPath, type ResourceKind } from './representations.js';

/** The contract schema of each type's `application/json` shape, which describes its fields. */
const schemas: Record<string, z.ZodMiniType> = {
  ExtractionBucket: bucketSchema,
  SavedExtractor: extractorSchema,
  ExtractionRun: runSchema,
  BucketFile: bucketFileSchema,
  EmbedSession: embedSessionSchema,
  Submission: submissionSchema,
};

const typeComments: Record<string, string> = {
  ExtractionBucket: 'A container for the files a run works over.',
  SavedExtractor: 'A stored extraction configuration: schema, strategy, texts and webhooks.',
  ExtractionRun: 'One extraction over a bucket with an extractor: status, results, progress.',
  BucketFile: 'A file uploaded to a bucket.',
  EmbedSession: 'A short-lived token for the hosted interface, for one extractor and bucket.',
  Submission: 'The submission of the results of a run.',
};

interface Term {
  name: string;
  comment: string;
}

interface JsonSchemaNode {
  description?: string;
  properties?: Record<string, JsonSchemaNode>;
  items?: JsonSchemaNode;
  anyOf?: JsonSchemaNode[];
}

/**
 * The terms of a type: its fields, then the names of the objects within them (a run's
 * `documents` have `file`, `stage`, …), which expand under the same context. Each term's
 * comment is the first description found for it.
 */
function termsOf(kind: ResourceKind): Term[] {
  const schema = z.toJSONSchema(schemas[kind.type]!, {
    io: 'output',
    unrepresentable: 'any',
  }) as JsonSchemaNode;
  const terms = new Map<string, string>();
  const visit = (node: JsonSchemaNode | undefined) => {
    if (!node) return;
    for (const [name, property] of Object.entries(node.properties ?? {})) {
      if (!terms.get(name)) terms.set(name, property.description ?? '');
    }
    for (const property of Object.values(node.properties ?? {})) visit(property);
    visit(node.items);
    for (const option of node.anyOf ?? []) visit(option);
  };
  visit(schema);
  for (const field of [...kind.fields, ...(kind.answerOnlyFields ?? [])])
    if (!terms.has(field)) terms.set(field, '');
  return [...terms].map(([name, comment]) => ({
    name,
    comment: comment || `The ${name} field of ${kind.type}: see /api/docs#schema-${kind.type}.`,
  }));
}

const vocabularyTypes = /* @__PURE__ */ (() =>
  resourceKinds.map((kind) => ({ kind, terms: termsOf(kind) })))();

/** The vocabulary as JSON-LD: an RDF Schema class for each type and a property for each term. */
export function vocabularyDocument(): Record<string, unknown> {
  const graph = vocabularyTypes.flatMap(({ kind, terms }) => [
    {
      '@id': typeIri(kind.type),
      '@type': 'rdfs:Class',
      'rdfs:label': kind.type,
      'rdfs:comment': typeComments[kind.type] ?? kind.type,
      'rdfs:isDefinedBy': { '@id': vocabularyPath },
      'rdfs:seeAlso': { '@id': `/api/docs#schema-${kind.type}` },
    },
    ...terms.map((term) => ({
      '@id': `${termPrefix(kind.type)}${term.name}`,
      '@type': 'rdf:Property',
      'rdfs:label': term.name,
      'rdfs:comment': term.comment,
      'rdfs:domain': { '@id': typeIri(kind.type) },
      'rdfs:isDefinedBy': { '@id': vocabularyPath },
    })),
  ]);
  return {
    '@context': {
      rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
      rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
    },
    '@id': vocabularyPath,
    '@graph': graph,
  };
}

const vocabularyStyle =
  'body{font:15px/1.5 system-ui,sans-serif;margin:2rem;max-width:60rem;color:#1d2330;background:#fff}' +
  'dt{font-weight:600;margin-top:.75rem;font-family:ui-monospace,monospace}dd{margin-left:1rem}' +
  ':target{outline:3px solid #8fb4ff;outline-offset:4px}' +
  '@media (prefers-color-scheme:dark){body{background:#12151b;color:#e6e8ec}a{color:#8fb4ff}}';

export const vocabularyPageCsp = pageCsp(vocabularyStyle);

/** The vocabulary as a page: a section per type, each term an element whose id is its fragment. */
export function vocabularyPage(): string {
  const sections = vocabularyTypes.map(
    ({ kind, terms }) => markup`<section id="${kind.type}">
<h2>${kind.type}</h2>
<p>${typeComments[kind.type] ?? ''} Its fields: <a href="/api/docs#schema-${kind.type}">${kind.type} in the API documentation</a>.</p>
<dl>
${terms.map((term) => markup`<dt id="${kind.type}.${term.name}">${term.name}</dt><dd>${term.comment}</dd>\n`)}</dl>
</section>`,
  );
  return renderPage({
    title: 'Extractor vocabulary',
    style: vocabularyStyle,
    body: markup`<main>
<h1>Extractor vocabulary</h1>
<p>The types and terms of the JSON-LD representations. A term <code>/api/vocab#Type.field</code> is the field of that type; the contexts at <code>/api/contexts/{type}</code> map each field to it.</p>
${sections}
</main>`,
  });
}
