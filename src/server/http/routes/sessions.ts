/**
 * Embed sessions: short-lived tokens for the browser, scoped to one extractor and one
 * bucket, minted with a personal access token on the partner's server. The URLs in the
 * answer already carry the session.
 */
import type { Hono } from 'hono';
import { idFromReference, iriOf } from '../../../contract/iri.js';
import {
  embedSessionInputSchema,
  type CurrentSession,
  type EmbedSession,
} from '../../../contract/resources.js';
import { createBucket, findBucket } from '../../buckets/buckets.js';
import { findExtractor } from '../../extractors/extractors.js';
import { createSessionToken, revokeToken } from '../../tokens/tokens.js';
import { requirePersonal } from '../../tokens/access.js';
import { readInput } from '../body.js';
import type { AppEnv } from '../context.js';
import { currentSessionKind, embedSessionKind } from '../kinds.js';
import { notFound, validationError, type FieldError } from '../problem.js';
import { chooseRepresentation, sendResource } from '../respond.js';

/** An origin as browsers send it (`scheme://host[:port]`), or `undefined` when the text is not one. */
export function normaliseOrigin(value: string): string | undefined {
  try {
    const url = new URL(value.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username)
      return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

export function registerSessionRoutes(app: Hono<AppEnv>): void {
  app.post('/api/embed_sessions', async (c) => {
    requirePersonal(c.get('principal'));
    const mediaType = chooseRepresentation(c);
    const input = await readInput(c.req.raw, embedSessionInputSchema);
    const { db, config } = c.get('services');
    const errors: FieldError[] = [];

    const extractorId = idFromReference('extractor', input.savedExtractor);
    const extractor = extractorId ? await findExtractor(db, extractorId) : undefined;
    if (!extractor)
      errors.push({ pointer: '/savedExtractor', detail: 'savedExtractor names no extractor' });

    let bucketId: string | undefined;
    if (input.bucket !== undefined) {
      bucketId = idFromReference('bucket', input.bucket);
      if (!bucketId || !(await findBucket(db, bucketId)))
        errors.push({ pointer: '/bucket', detail: 'bucket names no bucket' });
    }

    const allowedOrigins: string[] = [];
    input.allowedOrigins.forEach((value, index) => {
      const origin = normaliseOrigin(value);
      if (origin) allowedOrigins.push(origin);
      else
        errors.push({
          pointer: `/allowedOrigins/${index}`,
          detail: `"${value}" is not an origin like https://partner.example`,
        });
    });
    if (errors.length > 0 || !extractor) throw validationError(errors);

    bucketId ??= (await createBucket(db, {}, 'embed')).id;
    const theme = input.theme ?? null;
    const session = await createSessionToken(db, {
      extractorId: extractor.id,
      bucketId,
      ttlSeconds: input.ttlSeconds,
      allowedOrigins: [...new Set(allowedOrigins)],
      theme,
    });
    const query = `?session=${encodeURIComponent(session.token)}`;
    const wire: EmbedSession = {
      id: session.id,
      token: session.token,
      expiresAt: session.expiresAt,
      bucket: iriOf('bucket', bucketId),
      savedExtractor: iriOf('extractor', extractor.id),
      allowedOrigins: [...new Set(allowedOrigins)],
      theme,
      embeddedUrl: `${config.publicBaseUrl}/embed/${encodeURIComponent(extractor.id)}${query}`,
      fullPageUrl: `${config.publicBaseUrl}/x/${encodeURIComponent(extractor.id)}${query}`,
    };
    return sendResource(embedSessionKind, wire, mediaType, {
      status: 201,
      headers: { Location: embedSessionKind.iri(wire), 'Cache-Control': 'no-store' },
    });
  });

  /** A session token asks about itself: its extractor, bucket, expiry and theme. */
  app.get('/api/embed_sessions/current', (c) => {
    const principal = c.get('principal');
    if (principal.kind !== 'session') throw notFound();
    const mediaType = chooseRepresentation(c);
    const wire: CurrentSession = {
      id: principal.tokenId,
      expiresAt: principal.expiresAt,
      bucket: iriOf('bucket', principal.bucketId),
      savedExtractor: iriOf('extractor', principal.extractorId),
      allowedOrigins: principal.allowedOrigins,
      theme: principal.theme,
    };
    return sendResource(currentSessionKind, wire, mediaType);
  });

  app.delete('/api/embed_sessions/:id', async (c) => {
    requirePersonal(c.get('principal'));
    const revoked = await revokeToken(c.get('services').db, c.req.param('id'), 'session');
    if (!revoked) throw notFound();
    return c.body(null, 204);
  });
}
