/**
 * IRI references of resources. The spec's "full shape" paths are canonical
 * (`/api/buckets`, `/api/extractors`, `/api/runs`); `/api/saved_extractors` and
 * `/api/extraction_runs` are the same resources under a second name.
 */
export const resourcePaths = {
  bucket: '/api/buckets',
  extractor: '/api/extractors',
  run: '/api/runs',
} as const;

export type ResourceName = keyof typeof resourcePaths;

const aliases: Record<string, ResourceName> = {
  '/api/buckets': 'bucket',
  '/api/extractors': 'extractor',
  '/api/saved_extractors': 'extractor',
  '/api/runs': 'run',
  '/api/extraction_runs': 'run',
};

export function iriOf(resource: ResourceName, id: string): string {
  return `${resourcePaths[resource]}/${encodeURIComponent(id)}`;
}

/**
 * The id a reference names: either a bare id or an IRI of the expected resource under
 * either of its names. Anything else is `undefined`.
 */
export function idFromReference(resource: ResourceName, reference: string): string | undefined {
  const value = reference.trim();
  if (!value) return undefined;
  if (!value.includes('/')) return value;
  const slash = value.lastIndexOf('/');
  const collection = value.slice(0, slash);
  const id = value.slice(slash + 1);
  if (!id || aliases[collection] !== resource) return undefined;
  try {
    return decodeURIComponent(id);
  } catch {
    return undefined;
  }
}

/** The IRI of a file of a bucket: how a run's documents name their files. */
export function fileIriOf(bucketId: string, fileId: string): string {
  return `${iriOf('bucket', bucketId)}/files/${encodeURIComponent(fileId)}`;
}

/**
 * The file id a reference names within a bucket: a bare id, or the file's IRI under the
 * bucket's IRI. Anything else is `undefined`.
 */
export function fileIdFromReference(bucketId: string, reference: string): string | undefined {
  const value = reference.trim();
  if (!value) return undefined;
  if (!value.includes('/')) return value;
  const prefix = `${iriOf('bucket', bucketId)}/files/`;
  if (!value.startsWith(prefix)) return undefined;
  try {
    const id = decodeURIComponent(value.slice(prefix.length));
    return id && !id.includes('/') ? id : undefined;
  } catch {
    return undefined;
  }
}
