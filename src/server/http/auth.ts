/**
 * Bearer authentication for `/api`: who is asking. What each token may then see is
 * tokens/access.ts.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { verifyToken } from '../tokens/tokens.js';
import type { AppEnv } from './context.js';
import { unauthorized } from './problem.js';

/** Paths under /api that describe the API rather than hold data, and need no token. */
const publicPaths = [/^\/api\/docs(\.json)?$/, /^\/api\/contexts\/[A-Za-z]+$/];

/** Where EventSource, which cannot send headers, may pass the token as `access_token`. */
const queryTokenPaths = [/^\/api\/(extraction_runs|runs)\/[^/]+\/events$/];

function bearerToken(c: Context<AppEnv>): string | undefined {
  const header = c.req.header('authorization');
  if (header) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match?.[1];
  }
  if (queryTokenPaths.some((path) => path.test(c.req.path)))
    return c.req.query('access_token') || undefined;
  return undefined;
}

export const authenticate: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method === 'OPTIONS' || publicPaths.some((path) => path.test(c.req.path)))
    return next();
  const header = c.req.header('authorization');
  const token = bearerToken(c);
  if (!token) {
    throw unauthorized(
      header
        ? 'The Authorization header must be "Bearer <token>".'
        : 'This request needs an access token: send "Authorization: Bearer <token>".',
    );
  }
  const { db } = c.get('services');
  const verification = await verifyToken(db, token);
  if (!verification.ok) throw unauthorized(verification.reason);
  c.set('principal', verification.principal);
  c.get('services').recordTokenUse(verification.principal.tokenId);
  return next();
};
