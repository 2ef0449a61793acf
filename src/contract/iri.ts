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

/** A UUID among other text, in either case: the form of every id the service makes. */
const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * `text` with every UUID in it in lower case, the form the service stores. UUIDs compare
 * without regard to case (RFC 9562, §4), so a client that writes them in upper case names
 * the same resources. Text without an upper-case hex letter is returned as it is.
 */
export function lowerCaseIds(text: string): string {
  return /[A-F]/.test(text) ? text.replace(uuid, (id) => id.toLowerCase()) : text;
}

export function iriOf(resource: ResourceName, id: string): string {
  return `${resourcePaths[resource]}/${encodeURIComponent(id)}`;
}

/**
 * The resource and id a path-form IRI names (`/api/saved_extractors/{id}` is an extractor),
 * or `undefined` when it names none.
 */
export function resourceOfIri(iri: string): { resource: ResourceName; id: string } | undefined {
  const slash = iri.lastIndexOf('/');
  const resource = aliases[iri.slice(0, slash)];
  const encoded = iri.slice(slash + 1);
  if (!resource || !encoded) return undefined;
  try {
    return { resource, id: lowerCaseIds(decodeURIComponent(encoded)) };
  } catch {
    return undefined;
  }
}

/**
 * The id a reference names: either a bare id or an IRI of the expected resource under
 * either of its names (an absolute or relative IRI is made a path by `localReference`
 * first). Anything else is `undefined`.
 */
export function idFromReference(resource: ResourceName, reference: string): string | undefined {
  const value = reference.trim();
  if (!value) return undefined;
  if (!value.includes('/')) return lowerCaseIds(value);
  const named = resourceOfIri(value);
  return named?.resource === resource ? named.id : undefined;
}

/**
 * A reference as a client may send back what it read, as the service reads it. A bare id
 * stays as it is. An IRI is resolved against `base`, the address of the resource the body
 * describes (RFC 3986 §5: what jsonld.js compacts to `../buckets/{id}` relative to a run is
 * `/api/buckets/{id}`), and becomes its path when it is on this service: its origin is one
 * of `origins`. `undefined` for an IRI of another host, or text that is not an IRI.
 */
export function localReference(
  reference: string,
  base: string,
  origins: readonly string[],
): string | undefined {
  const value = reference.trim();
  if (!value.includes('/') && !value.includes(':')) return value;
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return undefined;
  }
  if (!origins.includes(url.origin) || url.search || url.hash) return undefined;
  return url.pathname;
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
  if (!value.includes('/')) return lowerCaseIds(value);
  const prefix = `${iriOf('bucket', bucketId)}/files/`;
  const iri = lowerCaseIds(value);
  if (!iri.startsWith(prefix)) return undefined;
  try {
    const id = decodeURIComponent(iri.slice(prefix.length));
    return id && !id.includes('/') ? id : undefined;
  } catch {
    return undefined;
  }
}
