/**
 * The HTTP app: a pure `(Request) => Promise<Response>` (Hono). Tests call `app.fetch`
 * in-process; main.ts binds it to a port.
 */
import type { HttpBindings } from '@hono/node-server';
import { Hono } from 'hono';
import { authenticate } from './http/auth.js';
import { cors } from './http/cors.js';
import type { AppEnv, Services } from './http/context.js';
import { resourceKinds } from './http/kinds.js';
import {
  badRequest,
  internalError,
  methodNotAllowed,
  notFound,
  problemOf,
  problemResponse,
} from './http/problem.js';
import { jsonLdContext } from './http/representations.js';
import { registerBucketRoutes } from './http/routes/buckets.js';
import { registerDocsRoutes } from './http/routes/docs.js';
import { registerDevelopersRoutes } from './http/routes/developers.js';
import { registerGraphqlRoutes } from './graphql/endpoint.js';
import { registerExtractorRoutes, extractorCollections } from './http/routes/extractors.js';
import { registerHostedRoutes } from './http/routes/hosted.js';
import { registerRunLifecycleRoutes } from './http/routes/run-lifecycle.js';
import { registerRunReadRoutes, runCollections } from './http/routes/runs.js';
import { registerSessionRoutes } from './http/routes/sessions.js';
import { randomUUID } from 'node:crypto';

export type App = Hono<AppEnv>;

/** Paths and the methods they answer, for 405s with an Allow header. */
const knownPaths: [RegExp, string[]][] = [
  [/^\/api\/buckets$/, ['GET', 'POST']],
  [/^\/api\/buckets\/[^/]+$/, ['GET', 'DELETE']],
  [/^\/api\/buckets\/[^/]+\/files$/, ['GET', 'POST']],
  [/^\/api\/buckets\/[^/]+\/files\/[^/]+$/, ['GET', 'DELETE']],
  [/^\/api\/buckets\/[^/]+\/files\/[^/]+\/content$/, ['GET']],
  ...extractorCollections.flatMap((base): [RegExp, string[]][] => [
    [new RegExp(`^${base}$`), ['GET', 'POST']],
    [new RegExp(`^${base}/[^/]+$`), ['GET', 'PUT', 'DELETE']],
    [new RegExp(`^${base}/[^/]+/webhook_secret$`), ['POST']],
  ]),
  ...runCollections.flatMap((base): [RegExp, string[]][] => [
    [new RegExp(`^${base}$`), ['GET', 'POST']],
    [new RegExp(`^${base}/[^/]+$`), ['GET']],
    [new RegExp(`^${base}/[^/]+/(pause|resume|cancel|submit)$`), ['POST']],
    [new RegExp(`^${base}/[^/]+/results$`), ['GET', 'PUT']],
    [new RegExp(`^${base}/[^/]+/events$`), ['GET']],
  ]),
  [/^\/api\/embed_sessions$/, ['POST']],
  [/^\/api\/embed_sessions\/current$/, ['GET']],
  [/^\/api\/embed_sessions\/[^/]+$/, ['DELETE']],
];

export function createApp(services: Services): App {
  const app = new Hono<AppEnv>();

  app.use('*', async (c, next) => {
    const started = performance.now();
    const requestId = c.req.header('x-request-id')?.slice(0, 64) || randomUUID();
    c.set('services', services);
    c.set('requestId', requestId);
    // Behind node (main.ts) the id goes straight onto node's response, whose writeHead
    // merges it with the app's headers: touching `c.res.headers` would turn a response's
    // plain headers into a Headers object only for the adapter to take it apart again.
    const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
    outgoing?.setHeader('X-Request-Id', requestId);
    await next();
    // In-process (tests) there is no node response: the id goes on the Response itself.
    // Not c.header(): after the handler it would rebuild the response around a web
    // stream of its body.
    if (!outgoing) c.res.headers.set('X-Request-Id', requestId);
    // The query is left out: it can carry an access token or a session.
    services.logger.info(
      {
        requestId,
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      'request',
    );
  });

  app.use('/api/*', cors);
  app.use('/api/*', authenticate);

  app.get('/api/contexts/:type', (c) => {
    const kind = resourceKinds.find((candidate) => candidate.type === c.req.param('type'));
    if (!kind) throw notFound();
    return c.body(JSON.stringify(jsonLdContext(kind)), 200, {
      'Content-Type': 'application/ld+json',
    });
  });

  registerBucketRoutes(app);
  registerExtractorRoutes(app);
  registerRunReadRoutes(app);
  registerRunLifecycleRoutes(app);
  registerSessionRoutes(app);
  registerHostedRoutes(app, { distDir: services.config.distDir });
  registerDocsRoutes(app);
  registerDevelopersRoutes(app, { distDir: services.config.distDir });
  registerGraphqlRoutes(app);

  app.notFound((c) => {
    const allowed = knownPaths.find(([pattern]) => pattern.test(c.req.path))?.[1];
    const error =
      allowed && !allowed.includes(c.req.method) ? methodNotAllowed(allowed) : notFound();
    return problemResponse(error, c.req.path);
  });

  app.onError((error, c) => {
    const problem = problemOf(error);
    if (problem) return problemResponse(problem, c.req.path);
    if (error instanceof URIError)
      return problemResponse(badRequest('The address is not correctly encoded.'), c.req.path);
    services.logger.error(
      { err: error, requestId: c.get('requestId'), path: c.req.path },
      'unhandled error',
    );
    return problemResponse(internalError(), c.req.path);
  });

  return app;
}
