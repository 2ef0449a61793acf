/**
 * The HTTP app: a pure `(Request) => Promise<Response>` (Hono). Tests call `app.fetch`
 * in-process; main.ts binds it to a port.
 */
import { Hono } from 'hono';
import { getPath } from 'hono/utils/url';
import { randomUUID } from 'node:crypto';
import { api, apiRoutes } from './http/api.js';
import { authentication } from './http/auth.js';
import type { AppEnv, Services } from './http/context.js';
import { cors } from './http/cors.js';
import { answerProblem } from './http/error-answers.js';
import { lowerCaseIds } from './http/references.js';
import {
  badRequest,
  internalError,
  methodNotAllowed,
  notFound,
  problemOf,
  problemResponse,
} from './http/problem.js';
import { allowedMethods } from './http/route-table.js';
import { developersRoutes } from './http/routes/developers.js';
import { healthRoutes } from './http/routes/health.js';
import { hostedRoutes } from './http/routes/hosted.js';

export type App = Hono<AppEnv>;

/**
 * The routes a 405 speaks of: the resources'. The documentation's addresses answer
 * anything but GET with a 404, as the hosted pages do.
 */
const resourceRoutes = apiRoutes.filter((route) => route.access !== 'public');
const authenticate = authentication(apiRoutes);

/**
 * The path routes see: the request's, with its ids in lower case. Ids are UUIDs, and RFC
 * 9562 (§4) has them compared without regard to case, so `/api/buckets/0190A…` is the
 * bucket `/api/buckets/0190a…`, not a 404.
 */
function routedPath(request: Request): string {
  return lowerCaseIds(getPath(request));
}

export function createApp(services: Services): App {
  const app = new Hono<AppEnv>({ getPath: routedPath });

  app.use('*', async (c, next) => {
    const started = performance.now();
    const requestId = c.req.header('x-request-id')?.slice(0, 64) || randomUUID();
    // With the id goes nosniff: no answer (an uploaded file, results, a problem document
    // quoting what was sent) is ever to be read by a browser as another type than it says.
    const answerHeaders = { 'X-Request-Id': requestId, 'X-Content-Type-Options': 'nosniff' };
    c.set('services', services);
    c.set('requestId', requestId);
    c.set('answerHeaders', answerHeaders);
    await next();
    // The answers of respond.ts carry them already; any other gets them here. Not with
    // c.header(): after the handler it would rebuild the response around a web stream of
    // its body.
    if (c.res !== c.get('headedAnswer')) {
      for (const [name, value] of Object.entries(answerHeaders)) c.res.headers.set(name, value);
    }
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

  app.route('/', healthRoutes);
  app.use('/api/*', cors);
  app.use('/api/*', authenticate);
  app.route('/', api);
  app.route('/', hostedRoutes);
  app.route('/', developersRoutes);

  app.notFound((c) => {
    const allowed = allowedMethods(resourceRoutes, c.req.path);
    const error =
      allowed && !allowed.includes(c.req.method) ? methodNotAllowed(allowed) : notFound();
    return answerProblem(error, c.req.raw, c.req.path);
  });

  app.onError((error, c) => {
    // The client left (a page it stopped waiting for): nobody reads the answer, and
    // nothing went wrong here. 499 is what proxies log for it.
    if (c.req.raw.signal.aborted) return new Response(null, { status: 499 });
    const problem = problemOf(error);
    if (problem) return answerProblem(problem, c.req.raw, c.req.path);
    if (error instanceof URIError)
      return answerProblem(
        badRequest('The address is not correctly encoded.'),
        c.req.raw,
        c.req.path,
      );
    services.logger.error(
      { err: error, requestId: c.get('requestId'), path: c.req.path },
      'unhandled error',
    );
    return answerProblem(internalError(), c.req.raw, c.req.path);
  });

  return app;
}

/**
 * The whole HTTP app of a worker process (SERVICE_ROLE=worker): its health checks, for
 * whatever runs it to know it is alive and can reach what it needs, and nothing else.
 */
export function createHealthApp(services: Services): App {
  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    c.set('services', services);
    await next();
  });
  app.route('/', healthRoutes);
  app.notFound((c) => problemResponse(notFound(), c.req.path));
  return app;
}
