/**
 * How each resource appears in the representations: its type name, its fields (the keys
 * of its contract schema, in their order) and its links.
 */
import { iriOf } from '../../contract/iri.js';
import { labelNames } from '../../contract/labels.js';
import {
  bucketFileSchema,
  bucketSchema,
  currentSessionSchema,
  embedSessionSchema,
  runSchema,
  submissionSchema,
} from '../../contract/resources.js';
import type { ResourceKind, WireObject } from './representations.js';

const fieldsOf = (schema: { shape: object }) => Object.keys(schema.shape);

/** What belongs to one bucket and one extractor: a run, an embed session. */
const ofBucketAndExtractor = {
  bucket: { type: 'ExtractionBucket', many: false },
  savedExtractor: { type: 'SavedExtractor', many: false },
} as const;

export const bucketKind: ResourceKind = {
  type: 'ExtractionBucket',
  fields: fieldsOf(bucketSchema),
  relationships: { runs: { type: 'ExtractionRun', many: true } },
  iri: (resource: WireObject) => iriOf('bucket', resource.id),
};

export const extractorKind: ResourceKind = {
  type: 'SavedExtractor',
  // The specification's column order (CSV, HTML), which is not the contract's: the
  // strategy comes before the label and the model after the redirect.
  fields: [
    'id',
    'strategy',
    'label',
    'jsonSchema',
    'outputInstructions',
    ...labelNames,
    'allowDownload',
    'enableWebhook',
    'webhookUrl',
    'redirectUrl',
    'model',
    'includeText',
    'includeEmbeddedImages',
    'markEmbeddedImages',
    'includePageImages',
    'markPageImages',
    'chunkSize',
    'combineFiles',
    'allowResubmission',
    'documentLanguages',
    'checks',
    'runs',
    'deletedAt',
    'createdAt',
    'updatedAt',
    'lastRanAt',
    'typedSchema',
    'embeddedUrl',
    'fullPageUrl',
  ],
  answerOnlyFields: ['webhookSecret'],
  relationships: { runs: { type: 'ExtractionRun', many: true } },
  iri: (resource: WireObject) => iriOf('extractor', resource.id),
};

export const runKind: ResourceKind = {
  type: 'ExtractionRun',
  fields: fieldsOf(runSchema),
  relationships: ofBucketAndExtractor,
  iri: (resource: WireObject) => iriOf('run', resource.id),
};

export const fileKind: ResourceKind = {
  type: 'BucketFile',
  fields: fieldsOf(bucketFileSchema),
  relationships: { bucket: { type: 'ExtractionBucket', many: false } },
  iri: (resource: WireObject) => `${String(resource.bucket)}/files/${resource.id}`,
};

export const embedSessionKind: ResourceKind = {
  type: 'EmbedSession',
  fields: fieldsOf(embedSessionSchema),
  relationships: ofBucketAndExtractor,
  iri: (resource: WireObject) => `/api/embed_sessions/${resource.id}`,
};

export const currentSessionKind: ResourceKind = {
  ...embedSessionKind,
  fields: fieldsOf(currentSessionSchema),
};

export const submissionKind: ResourceKind = {
  type: 'Submission',
  fields: fieldsOf(submissionSchema),
  relationships: { run: { type: 'ExtractionRun', many: false } },
  iri: (resource: WireObject) => `${String(resource.run)}/submit`,
};
export const resourceKinds = [
  submissionKind,
  bucketKind,
  extractorKind,
  runKind,
  fileKind,
  embedSessionKind,
];
