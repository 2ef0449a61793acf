/**
 * The resources the OpenAPI document describes: each one's component name, media type kind,
 * contract schemas and the nouns its descriptions use. The components (components.ts) and
 * the request examples (examples.ts) are both keyed by them.
 */
import type * as z from 'zod/mini';
import {
  bucketFileSchema,
  bucketInputSchema,
  bucketSchema,
  currentSessionSchema,
  embedSessionSchema,
  extractorInputSchema,
  extractorSchema,
  runInputSchema,
  runSchema,
  submissionSchema,
} from '../../../contract/resources.js';
import { embedSessionInputWithLanguageSchema } from '../../../contract/session-language.js';
import {
  bucketKind,
  currentSessionKind,
  embedSessionKind,
  extractorKind,
  fileKind,
  runKind,
  submissionKind,
} from '../kinds.js';
import type { ResourceKind } from '../representations.js';

export interface ResourceDoc {
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

export const resourceDocs = {
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

export type ResourceKey = keyof typeof resourceDocs;
export type InputResourceKey = {
  [K in ResourceKey]: (typeof resourceDocs)[K] extends { input: object } ? K : never;
}[ResourceKey];
