/**
 * References as clients send them back, read as the service's own: ids in either case, and
 * IRIs absolute or relative (contract/iri.ts reads the path form the service writes; this
 * is what only the service needs, kept out of the browser's bundle).
 */
import { idFromReference, resourcePaths, type ResourceName } from '../../contract/iri.js';

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

/**
 * The resource and id a path-form IRI names (`/api/saved_extractors/{id}` is an extractor),
 * or `undefined` when it names none.
 */
export function resourceOfIri(iri: string): { resource: ResourceName; id: string } | undefined {
  for (const resource of Object.keys(resourcePaths) as ResourceName[]) {
    const id = iri.includes('/') ? idFromReference(resource, lowerCaseIds(iri)) : undefined;
    if (id) return { resource, id };
  }
  return undefined;
}

/**
 * A reference as a client may send back what it read, as the service reads it. A bare id
 * stays as it is. An IRI is resolved against `base`, the address of the resource the body
 * describes (RFC 3986 §5: what jsonld.js compacts to `../buckets/{id}` relative to a run is
 * `/api/buckets/{id}`), and becomes its path when it is on this service: its origin is one
 * of `origins`. `undefined` for an IRI of another host, or text that is not an IRI. Either
 * way its ids are in lower case.
 */
export function localReference(
  reference: string,
  base: string,
  origins: readonly string[],
): string | undefined {
  const value = reference.trim();
  if (!value.includes('/') && !value.includes(':')) return lowerCaseIds(value);
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return undefined;
  }
  if (!origins.includes(url.origin) || url.search || url.hash) return undefined;
  return lowerCaseIds(url.pathname);
}
