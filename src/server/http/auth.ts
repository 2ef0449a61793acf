/**
 * Bearer authentication for `/api`, and the scope rules of embed session tokens: a
 * session sees its extractor, its bucket and that bucket's runs of its extractor, and
 * nothing else. Whatever lies outside answers 404, exactly as a missing resource does,
 * so ids cannot be probed.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { verifyToken, type Principal } from '../tokens/tokens.js';
import type { AppEnv } from './context.js';
import { notFound, unauthorized } from './problem.js';

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

export function isPersonal(
  principal: Principal,
): principal is Extract<Principal, { kind: 'personal' }> {
  return principal.kind === 'personal';
}

/** Only personal access tokens get past; a session token sees a 404. */
export function requirePersonal(c: Context<AppEnv>): void {
  if (!isPersonal(c.get('principal'))) throw notFound();
}

export function canSeeBucket(principal: Principal, bucketId: string): boolean {
  return principal.kind === 'personal' || principal.bucketId === bucketId;
}

export function canSeeExtractor(principal: Principal, extractorId: string): boolean {
  return principal.kind === 'personal' || principal.extractorId === extractorId;
}

export function canSeeRun(
  principal: Principal,
  run: { bucket_id: string; extractor_id: string },
): boolean {
  return canSeeBucket(principal, run.bucket_id) && canSeeExtractor(principal, run.extractor_id);
}
