/**
 * The API: one Hono sub-app per resource, each of whose routes carries its operation
 * (openapi.ts, `operation(…)`): what it reads and answers, in terms of the contract. The
 * OpenAPI document, the 405s with `Allow`, the paths that need no token and the tests'
 * list of routes are all read from here.
 */
import { Hono } from 'hono';
import { graphqlRoutes, graphqlTag } from '../graphql/endpoint.js';
import type { AppEnv } from './context.js';
import { buildOpenApiDocument } from './openapi/document.js';
import type { OpenApiDocument } from './openapi/objects.js';
import { describedRoutes } from './route-table.js';
import { bucketRoutes, bucketsTag } from './routes/buckets.js';
import { aboutTag, docsRoutes } from './routes/docs.js';
import { extractorRoutes, extractorsTag } from './routes/extractors.js';
import { fileRoutes, filesTag } from './routes/files.js';
import { runRoutes, runsTag } from './routes/runs.js';
import { sessionRoutes, sessionsTag } from './routes/sessions.js';

/** The tags of the document, in the order it lists them. */
const tags = [bucketsTag, filesTag, extractorsTag, runsTag, sessionsTag, graphqlTag, aboutTag];

// A resource with two names is mounted under both; the first is the canonical one.
export const api: Hono<AppEnv> = new Hono<AppEnv>()
  .route('/api/buckets', bucketRoutes)
  .route('/api/buckets/:id/files', fileRoutes)
  .route('/api/extractors', extractorRoutes)
  .route('/api/saved_extractors', extractorRoutes)
  .route('/api/runs', runRoutes)
  .route('/api/extraction_runs', runRoutes)
  .route('/api/embed_sessions', sessionRoutes)
  .route('/api/graphql', graphqlRoutes)
  .route(
    '/api',
    docsRoutes((serverUrl) => openApiDocument(serverUrl)),
  );

/** The OpenAPI document of the API, for a service reached at `serverUrl`. */
export function openApiDocument(serverUrl: string): Promise<OpenApiDocument> {
  return buildOpenApiDocument(api, tags, serverUrl);
}

/** Every route of the API with what it says about itself. */
export const apiRoutes = describedRoutes(api);
