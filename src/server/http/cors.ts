/**
 * CORS for `/api`, and only for the allowed origins of the session in use. A preflight
 * carries no token, so it is answered for any origin: it reveals nothing, and the actual
 * response is what the browser gates. That response gets `Access-Control-Allow-Origin`
 * only when its session token lists the page's origin. A personal access token never gets
 * CORS: it must never be used from a browser. 401s are readable everywhere, so an embed
 * can tell a person that their session ended instead of failing silently.
 */
import type { Context, MiddlewareHandler, Next } from 'hono';
import type { AppEnv } from './context.js';

const allowedHeaders = 'Authorization, Content-Type, Accept, Last-Event-ID, X-Request-Id';
const exposedHeaders =
  'Content-Disposition, Location, Link, X-Total-Count, X-Request-Id, Extractor-Ignored-Fields';

export const cors: MiddlewareHandler<AppEnv> = (c, next) => {
  const origin = c.req.header('origin');
  // Not async: most requests are not a browser's, and pass on without another promise.
  return origin ? crossOrigin(c, next, origin) : next();
};

async function crossOrigin(c: Context<AppEnv>, next: Next, origin: string) {
  if (c.req.method === 'OPTIONS' && c.req.header('access-control-request-method')) {
    return c.body(null, 204, {
      'Access-Control-Allow-Origin': origin,
      'Access-Control-Allow-Methods': 'GET, POST, PUT, DELETE',
      'Access-Control-Allow-Headers': allowedHeaders,
      'Access-Control-Max-Age': '600',
      Vary: 'Origin',
    });
  }
  await next();
  const principal = c.get('principal');
  const allowed =
    c.res.status === 401 ||
    (principal?.kind === 'session' && principal.allowedOrigins.includes(origin));
  c.res.headers.append('Vary', 'Origin');
  if (allowed) {
    c.res.headers.set('Access-Control-Allow-Origin', origin);
    c.res.headers.set('Access-Control-Expose-Headers', exposedHeaders);
  }
}
