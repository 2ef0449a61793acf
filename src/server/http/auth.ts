/**
 * Bearer authentication for `/api`: who is asking. The routes say which paths need no
 * token (the documentation and the JSON-LD contexts) and where EventSource, which cannot
 * send headers, may pass an embed session token as `access_token` (the event stream). What each token may
 * then see is access/token-scopes.ts.
 */
import type { Context, MiddlewareHandler } from 'hono';
import * as z from 'zod/mini';
import { verifyToken } from '../tokens/tokens.js';
import { absentWhenEmpty, validateQuery } from './body.js';
import type { AppEnv } from './context.js';
import { unauthorized } from './problem.js';
import type { DescribedRoute } from './route-table.js';

/** The token in the address, where a route allows it (`bearer-or-query`). */
export const accessTokenQuery = z.object({
  access_token: absentWhenEmpty(z.optional(z.string())).check(
    z.describe(
      'An embed session token, for clients that cannot send an Authorization header ' +
        '(EventSource); never a personal access token.',
    ),
  ),
});

/** The bearer token of the request, and whether it came in the address. */
function bearerToken(
  c: Context<AppEnv>,
  queryAllowed: boolean,
): { token: string | undefined; inQuery: boolean } {
  const header = c.req.header('authorization');
  if (header) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return { token: match?.[1], inQuery: false };
  }
  if (queryAllowed)
    return { token: validateQuery(accessTokenQuery, c.req.queries()).access_token, inQuery: true };
  return { token: undefined, inQuery: false };
}

/** The token in the Authorization header, of a request `authentication` let through with it. */
export function headerToken(c: Context<AppEnv>): string {
  const { token } = bearerToken(c, false);
  if (!token) throw unauthorized('This request needs "Authorization: Bearer <token>".');
  return token;
}

/** The bearer middleware of the API whose routes are `routes`. */
export function authentication(routes: readonly DescribedRoute[]): MiddlewareHandler<AppEnv> {
  const patterns = (access: DescribedRoute['access']) =>
    routes.filter((route) => route.access === access).map((route) => route.pattern);
  const publicPaths = patterns('public');
  const queryTokenPaths = patterns('bearer-or-query');
  return async (c, next) => {
    const path = c.req.path;
    if (c.req.method === 'OPTIONS' || publicPaths.some((pattern) => pattern.test(path)))
      return next();
    const header = c.req.header('authorization');
    const { token, inQuery } = bearerToken(
      c,
      queryTokenPaths.some((pattern) => pattern.test(path)),
    );
    if (!token) {
      throw unauthorized(
        header
          ? 'The Authorization header must be "Bearer <token>".'
          : 'This request needs an access token: send "Authorization: Bearer <token>".',
      );
    }
    const { db } = c.get('services');
    const verification = await verifyToken(db, token);
    if (!verification.ok) throw unauthorized(verification.reason, 'invalid_token');
    // An address ends up in logs, histories and Referer headers: a session token expires
    // within hours, a personal access token does not, so it is never taken from one.
    if (inQuery && verification.principal.kind !== 'session')
      throw unauthorized(
        'A personal access token is not accepted in access_token; send it as ' +
          '"Authorization: Bearer <token>", from a server, never a browser.',
      );
    c.set('principal', verification.principal);
    c.get('services').recordTokenUse(verification.principal.tokenId);
    return next();
  };
}
