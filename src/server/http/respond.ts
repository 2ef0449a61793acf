/** Answering with resources: negotiation, the chosen representation, and paging input. */
import type { Context } from 'hono';
import type { AppEnv } from './context.js';
import { negotiateOrThrow, resourceMediaTypes, type ResourceMediaType } from './negotiation.js';
import { badQuery } from './problem.js';
import {
  representCollection,
  representResource,
  type PageInfo,
  type Representation,
  type ResourceKind,
  type WireObject,
} from './representations.js';

export const itemsPerPage = 30;

/** The representation the client wants; a 406 before any work is done when none fits. */
export function chooseRepresentation(c: Context<AppEnv>): ResourceMediaType {
  return negotiateOrThrow(c.req.header('accept'), resourceMediaTypes);
}

function send(
  representation: Representation,
  status: number,
  extra: Record<string, string> = {},
): Response {
  const headers = new Headers({ ...representation.headers, ...extra });
  headers.set('Content-Type', representation.contentType);
  headers.set('Vary', 'Accept');
  return new Response(representation.body, { status, headers });
}

export function sendResource(
  kind: ResourceKind,
  resource: WireObject,
  mediaType: ResourceMediaType,
  options: {
    status?: number;
    headers?: Record<string, string>;
    included?: { kind: ResourceKind; resource: WireObject }[];
  } = {},
): Response {
  return send(
    representResource(kind, resource, mediaType, options.included),
    options.status ?? 200,
    options.headers,
  );
}

export function sendCollection(
  kind: ResourceKind,
  resources: WireObject[],
  mediaType: ResourceMediaType,
  info: PageInfo,
): Response {
  return send(representCollection(kind, resources, mediaType, info), 200);
}

/** `page`: 1 when absent or empty; a positive whole number otherwise, or a 400. */
export function readPage(c: Context<AppEnv>): { page: number; offset: number; limit: number } {
  const raw = c.req.query('page');
  if (raw === undefined || raw === '') return { page: 1, offset: 0, limit: itemsPerPage };
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) {
    throw badQuery(
      'page',
      `must be a whole number of 1 or more, not ${JSON.stringify(raw.slice(0, 40))}`,
    );
  }
  const page = Number(raw);
  return { page, offset: (page - 1) * itemsPerPage, limit: itemsPerPage };
}

/** The query of a collection request without `page`, to carry into the paging links. */
export function queryWithoutPage(c: Context<AppEnv>): URLSearchParams {
  const query = new URL(c.req.url).searchParams;
  query.delete('page');
  query.delete('access_token');
  return query;
}
