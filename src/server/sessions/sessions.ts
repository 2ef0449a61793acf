/**
 * Embed sessions: short-lived tokens for the browser, scoped to one extractor and one
 * bucket, minted with a personal access token on the partner's server. The URLs of a new
 * session already carry it.
 */
import { idFromReference, iriOf } from '../../contract/iri.js';
import type { CurrentSession, EmbedSession } from '../../contract/resources.js';
import {
  canonicalLocale,
  type EmbedSessionInputWithLanguage,
} from '../../contract/session-language.js';
import { createBucket, findBucket } from '../buckets/buckets.js';
import type { Config } from '../config.js';
import { InvalidInputError, type FieldError } from '../errors.js';
import { findExtractor } from '../extractors/extractors.js';
import type { Db } from '../store/database.js';
import { createSessionToken, type Principal } from '../tokens/tokens.js';

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

/**
 * Mints a session for the extractor and bucket the input names, making a bucket for it
 * when it names none. The bucket and the token are written in one transaction: a failure
 * leaves no bucket behind that no session can reach.
 */
export async function mintEmbedSession(
  db: Db,
  config: Pick<Config, 'publicBaseUrl'>,
  input: EmbedSessionInputWithLanguage,
): Promise<EmbedSession> {
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

  const origins: string[] = [];
  input.allowedOrigins.forEach((value, index) => {
    const origin = normaliseOrigin(value);
    if (origin) origins.push(origin);
    else
      errors.push({
        pointer: `/allowedOrigins/${index}`,
        detail: `"${value}" is not an origin like https://partner.example`,
      });
  });
  if (errors.length > 0 || !extractor) throw new InvalidInputError(errors);

  const allowedOrigins = [...new Set(origins)];
  const theme = input.theme ?? null;
  const locale = input.locale === undefined ? null : canonicalLocale(input.locale);
  const strings = input.strings ?? {};
  const { session, sessionBucketId } = await db.transaction().execute(async (trx) => {
    const sessionBucketId = bucketId ?? (await createBucket(trx, {}, 'embed')).id;
    const session = await createSessionToken(trx, {
      extractorId: extractor.id,
      bucketId: sessionBucketId,
      ttlSeconds: input.ttlSeconds,
      allowedOrigins,
      theme,
      locale,
      strings,
    });
    return { session, sessionBucketId };
  });
  const query = `?session=${encodeURIComponent(session.token)}`;
  return {
    id: session.id,
    token: session.token,
    expiresAt: session.expiresAt,
    bucket: iriOf('bucket', sessionBucketId),
    savedExtractor: iriOf('extractor', extractor.id),
    allowedOrigins,
    theme,
    locale,
    strings,
    embeddedUrl: `${config.publicBaseUrl}/embed/${encodeURIComponent(extractor.id)}${query}`,
    fullPageUrl: `${config.publicBaseUrl}/x/${encodeURIComponent(extractor.id)}${query}`,
  };
}

/** What a session token is told about itself; `undefined` for any other token. */
export function currentSession(principal: Principal): CurrentSession | undefined {
  if (principal.kind !== 'session') return undefined;
  return {
    id: principal.tokenId,
    expiresAt: principal.expiresAt,
    bucket: iriOf('bucket', principal.bucketId),
    savedExtractor: iriOf('extractor', principal.extractorId),
    allowedOrigins: principal.allowedOrigins,
    theme: principal.theme,
    locale: principal.locale,
    strings: principal.strings,
  };
}
