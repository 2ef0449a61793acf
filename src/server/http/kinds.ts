/** How each resource appears in the representations: its type name, field order and links. */
import { iriOf } from '../../contract/iri.js';
import { labelNames } from '../../contract/labels.js';
import type { ResourceKind, WireObject } from './representations.js';

export const bucketKind: ResourceKind = {
  type: 'ExtractionBucket',
  fields: [
    'id',
    'description',
    'deletedAt',
    'createdAt',
    'updatedAt',
    'createdUsing',
    'artifacts',
    'runs',
  ],
  relationships: { runs: { type: 'ExtractionRun', many: true } },
  iri: (resource: WireObject) => iriOf('bucket', resource.id),
};

export const extractorKind: ResourceKind = {
  type: 'SavedExtractor',
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
  relationships: { runs: { type: 'ExtractionRun', many: true } },
  iri: (resource: WireObject) => iriOf('extractor', resource.id),
};

export const runKind: ResourceKind = {
  type: 'ExtractionRun',
  fields: [
    'id',
    'status',
    'resultJson',
    'partialResultJson',
    'targetSchema',
    'tokenStats',
    'error',
    'createdAt',
    'updatedAt',
    'strategy',
    'model',
    'includeText',
    'includeEmbeddedImages',
    'markEmbeddedImages',
    'includePageImages',
    'markPageImages',
    'startedAt',
    'finishedAt',
    'chunkSize',
    'duration',
    'formattedDuration',
    'totalInputTokens',
    'data',
    'partialData',
    'evaluationType',
    'bucket',
    'savedExtractor',
    'chunksCompleted',
    'chunksTotal',
    'editedResultJson',
    'resultMetadata',
    'submittedAt',
  ],
  relationships: {
    bucket: { type: 'ExtractionBucket', many: false },
    savedExtractor: { type: 'SavedExtractor', many: false },
  },
  iri: (resource: WireObject) => iriOf('run', resource.id),
};

export const fileKind: ResourceKind = {
  type: 'BucketFile',
  fields: [
    'id',
    'bucket',
    'name',
    'size',
    'mediaType',
    'sha256',
    'createdAt',
    'contentUrl',
    'pageCount',
    'pageKind',
  ],
  relationships: { bucket: { type: 'ExtractionBucket', many: false } },
  iri: (resource: WireObject) => `${String(resource.bucket)}/files/${resource.id}`,
};

export const embedSessionKind: ResourceKind = {
  type: 'EmbedSession',
  fields: [
    'id',
    'token',
    'expiresAt',
    'bucket',
    'savedExtractor',
    'allowedOrigins',
    'theme',
    'embeddedUrl',
    'fullPageUrl',
  ],
  relationships: {
    bucket: { type: 'ExtractionBucket', many: false },
    savedExtractor: { type: 'SavedExtractor', many: false },
  },
  iri: (resource: WireObject) => `/api/embed_sessions/${resource.id}`,
};

export const currentSessionKind: ResourceKind = {
  ...embedSessionKind,
  fields: ['id', 'expiresAt', 'bucket', 'savedExtractor', 'allowedOrigins', 'theme'],
};

export const submissionKind: ResourceKind = {
  type: 'Submission',
  fields: ['id', 'run', 'submittedAt', 'redirectUrl'],
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
