/** Answering with resources: negotiation, the chosen representation, and paging input. */
import type { Context, Handler, MiddlewareHandler } from 'hono';
import { NotFoundError } from '../errors.js';
import type { Db } from '../store/database.js';
import { createMiddleware } from 'hono/factory';
import { validator } from 'hono/validator';
import * as z from 'zod/mini';
import { requirePersonal } from '../access/token-scopes.js';
import { absentWhenEmpty, validateQuery, wholeNumberParameter } from './body.js';
import type { AppEnv } from './context.js';
import { refuseJsonApiQueryFamilies } from './json-api.js';
import { negotiateOrThrow, resourceMediaTypes, type ResourceMediaType } from './negotiation.js';
import { itemsPerPage, pageWindow, type PageWindow } from '../store/paging.js';
import { oncePerStoredRow } from '../store/stored-rows.js';
import {
  representCollection,
  representResource,
  type PageInfo,
  type Representation,
  type ResourceKind,
  type WireObject,
} from './representations.js';

/** The representation the client wants; a 406 before any work is done when none fits. */
export function chooseRepresentation(c: Context<AppEnv>): ResourceMediaType {
  return negotiateOrThrow(c, resourceMediaTypes);
}

/**
 * The representation, chosen before anything else is read: a 406 comes before any other
 * problem of the request. The route finds it in `c.get('mediaType')`. A JSON:API query
 * parameter family (`include`, `sort`, `fields`, `page[…]`) is refused here too, for the
 * service supports none of them and would otherwise ignore them.
 */
export const negotiated: MiddlewareHandler<AppEnv> = createMiddleware<AppEnv>((c, next) => {
  c.set('mediaType', chooseRepresentation(c));
  // Most requests have no query at all: no URL is parsed for them.
  if (c.req.url.includes('?')) refuseJsonApiQueryFamilies(new URL(c.req.url).searchParams);
  // Not async: a layer that only passes on is no reason for another promise per request.
  return next();
});

/** Routes of personal access tokens only: a session token is told there is nothing here. */
export const personalOnly: MiddlewareHandler<AppEnv> = createMiddleware<AppEnv>(async (c, next) => {
  requirePersonal(c.get('principal'));
  await next();
});

/** The DELETE of what the path's `:id` names: 204, or 404 when `remove` found nothing. */
export function deleteById(
  remove: (db: Db, id: string) => Promise<boolean>,
): Handler<AppEnv, string> {
  return async (c) => {
    if (!(await remove(c.get('services').db, c.req.param('id')!))) throw new NotFoundError();
    return c.body(null, 204);
  };
}

/** A representation with its body already encoded, to be sent again and again. */
interface EncodedRepresentation extends Omit<Representation, 'body'> {
  body: Uint8Array<ArrayBuffer>;
}

function send(
  c: Context<AppEnv>,
  representation: Representation | EncodedRepresentation,
  status: number,
  extra: Record<string, string> = {},
): Response {
  // Plain headers, with those of every answer among them: the node adapter writes them as
  // they are, where a Headers object (which app.ts would have to build to add them) costs
  // a cached read as much as the rest of its work (src/bench/http.ts). Object.assign, not
  // spreads: on Node 20 a spread of headers costs a microsecond, a fortieth of such a read.
  const headers: Record<string, string> = Object.assign(
    {},
    c.get('answerHeaders'),
    representation.headers,
    extra,
  );
  headers['Content-Type'] = representation.contentType;
  headers.Vary = 'Accept';
  const response = new Response(representation.body, { status, headers });
  c.set('headedAnswer', response);
  return response;
}

const encoder = new TextEncoder();

/**
 * The representation of a resource in each media type, encoded once for a resource the
 * store computed once (store/stored-rows.ts) and kept as long as it is.
 */
const representedOnce = Object.fromEntries(
  resourceMediaTypes.map((mediaType) => [
    mediaType,
    oncePerStoredRow((resource: WireObject, kind: ResourceKind): EncodedRepresentation => {
      const representation = representResource(kind, resource, mediaType);
      return { ...representation, body: encoder.encode(representation.body) };
    }),
  ]),
) as Record<ResourceMediaType, (resource: WireObject, kind: ResourceKind) => EncodedRepresentation>;

/**
 * The resource in the representation `negotiated` chose (or `options.mediaType`), with
 * `options.included` beside it (JSON:API `included`).
 */
export function sendResource(
  c: Context<AppEnv>,
  kind: ResourceKind,
  resource: WireObject,
  options: {
    status?: number;
    headers?: Record<string, string>;
    mediaType?: ResourceMediaType;
    included?: { kind: ResourceKind; resource: WireObject }[];
  } = {},
): Response {
  const mediaType = options.mediaType ?? c.get('mediaType');
  return send(
    c,
    options.included
      ? representResource(kind, resource, mediaType, options.included)
      : representedOnce[mediaType](resource, kind),
    options.status ?? 200,
    options.headers,
  );
}

/** A resource just created: 201, with its address in `Location`. */
export function sendCreated(
  c: Context<AppEnv>,
  kind: ResourceKind,
  resource: WireObject,
  headers: Record<string, string> = {},
): Response {
  return sendResource(c, kind, resource, {
    status: 201,
    headers: { Location: kind.iri(resource), ...headers },
  });
}

export function sendCollection(
  c: Context<AppEnv>,
  kind: ResourceKind,
  resources: WireObject[],
  info: PageInfo,
  status = 200,
): Response {
  return send(c, representCollection(kind, resources, c.get('mediaType'), info), status);
}

/**
 * One page of a collection, in the representation `negotiated` chose, with the paging
 * links of the request's path and query. `filters` are the query parameters the
 * collection can be filtered by, for the Hydra search template.
 */
export function sendPage(
  c: Context<AppEnv>,
  kind: ResourceKind,
  resources: WireObject[],
  page: { window: PageWindow; total: number },
  more: Pick<PageInfo, 'filters' | 'plainJsonApiArray'> = { filters: [] },
): Response {
  return sendCollection(c, kind, resources, {
    path: c.req.path,
    query: queryWithoutPage(c),
    page: page.window.page,
    itemsPerPage: page.window.limit,
    totalItems: page.total,
    ...more,
  });
}

/**
 * `page`: 1 when absent or empty; a positive whole number otherwise. The query of every
 * collection starts with it. (Other parameters read an empty value as absent too, but the
 * document has always said so of the page alone: `allowEmptyValue`, which OpenAPI 3.1
 * advises against, goes no further.)
 */
export const pageNumber = absentWhenEmpty(
  wholeNumberParameter({
    minimum: 1,
    maximum: 999_999_999,
    fallback: 1,
    error: (text) =>
      `must be a whole number of 1 or more, not ${JSON.stringify(text.slice(0, 40))}`,
  }),
).register(z.globalRegistry, {
  description:
    `The page, from 1; empty means 1. ${itemsPerPage} items per page. The first, previous, ` +
    'next and last pages are linked in the Link header, the JSON:API links and the Hydra view.',
  allowEmptyValue: true,
});

/** The query of a collection that takes nothing but its page. */
export const pageOnlyQuery = z.object({ page: pageNumber });

/** The page of a collection request's query, 1 when it names none. */
export function readPage(query: Record<string, string | string[] | undefined>): PageWindow {
  return pageWindow(validateQuery(pageOnlyQuery, query).page);
}

/** The `page` of a collection request, read as `c.req.valid('query')`. */
export const pageQuery = validator('query', readPage);

/** The query of a collection request without `page`, to carry into the paging links. */
export function queryWithoutPage(c: Context<AppEnv>): URLSearchParams {
  const query = new URL(c.req.url).searchParams;
  query.delete('page');
  query.delete('access_token');
  return query;
}
