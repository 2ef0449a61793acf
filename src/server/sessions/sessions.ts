/**
 * Embed sessions: short-lived tokens for the browser, scoped to one extractor and one
 * bucket, minted with a personal access token on the partner's server. The URLs of a new
 * session already carry it.
 */
import { idFromReference, iriOf } from '../../contract/iri.js';
import {
  defaultSessionLifetimeSeconds,
  type CurrentSession,
  type EmbedSession,
} from '../../contract/resources.js';
import {
  canonicalLocale,
  type EmbedSessionInputWithLanguage,
} from '../../contract/session-language.js';
import { createBucket, findBucket } from '../buckets/buckets.js';
import type { Config } from '../config.js';
import { InvalidInputError, type FieldError } from '../errors.js';
import { findExtractor } from '../extractors/extractors.js';
import type { Db } from '../store/database.js';
import {
  createSessionToken,
  renewSessionToken,
  type IssuedSessionToken,
  type Principal,
} from '../tokens/tokens.js';

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

/** What a session is minted with and keeps through its renewals, beside its extractor and bucket. */
type SessionSettings = Pick<
  EmbedSession,
  'allowedOrigins' | 'theme' | 'locale' | 'strings' | 'colorScheme'
>;

function settingsOf(principal: SessionSettings): SessionSettings {
  const { allowedOrigins, theme, locale, strings, colorScheme } = principal;
  return { allowedOrigins, theme, locale, strings, colorScheme };
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
  const lifetimeSeconds =
    input.maxLifetimeSeconds ?? Math.max(input.ttlSeconds, defaultSessionLifetimeSeconds);
  if (lifetimeSeconds < input.ttlSeconds)
    errors.push({
      pointer: '/maxLifetimeSeconds',
      detail: 'maxLifetimeSeconds must be at least ttlSeconds',
    });
  if (errors.length > 0 || !extractor) throw new InvalidInputError(errors);

  const settings: SessionSettings = {
    allowedOrigins: [...new Set(origins)],
    theme: input.theme ?? null,
    locale: input.locale === undefined ? null : canonicalLocale(input.locale),
    strings: input.strings ?? {},
    colorScheme: input.colorScheme,
  };
  const { session, sessionBucketId } = await db.transaction().execute(async (trx) => {
    const sessionBucketId = bucketId ?? (await createBucket(trx, {}, 'embed')).id;
    const session = await createSessionToken(trx, {
      extractorId: extractor.id,
      bucketId: sessionBucketId,
      ttlSeconds: input.ttlSeconds,
      ...settings,
      renewableUntil: new Date(Date.now() + lifetimeSeconds * 1000).toISOString(),
    });
    return { session, sessionBucketId };
  });
  return describeSession(config, session, sessionBucketId, extractor.id, settings);
}

/**
 * Renews the session of a session token (`POST /api/embed_sessions/renew`): a new token
 * for the same extractor, bucket, origins, theme, language and scheme, living as long as the first
 * did but never past the session's `renewableUntil`, which was fixed when it was minted.
 * So a person working on the full page can go on, and a stolen token cannot be kept alive
 * forever. A token is renewed once; renewing it again answers the same renewal, and the
 * session never has more than two live tokens (renewSessionToken). The token used keeps its
 * own expiry: requests under way with it still finish. A 409 once the session has no time
 * left to give (less than a minute).
 */
export async function renewEmbedSession(
  db: Db,
  config: Pick<Config, 'publicBaseUrl'>,
  principal: Extract<Principal, { kind: 'session' }>,
  token: string,
): Promise<EmbedSession> {
  const { tokenId, sessionId } = principal;
  const session = await renewSessionToken(db, { tokenId, sessionId, token });
  return describeSession(
    config,
    session,
    principal.bucketId,
    principal.extractorId,
    settingsOf(principal),
  );
}

function describeSession(
  config: Pick<Config, 'publicBaseUrl'>,
  session: IssuedSessionToken,
  bucketId: string,
  extractorId: string,
  settings: SessionSettings,
): EmbedSession {
  const query = `?session=${encodeURIComponent(session.token)}`;
  return {
    id: session.id,
    token: session.token,
    expiresAt: session.expiresAt,
    bucket: iriOf('bucket', bucketId),
    savedExtractor: iriOf('extractor', extractorId),
    ...settings,
    renewableUntil: session.renewableUntil,
    embeddedUrl: `${config.publicBaseUrl}/embed/${encodeURIComponent(extractorId)}${query}`,
    fullPageUrl: `${config.publicBaseUrl}/x/${encodeURIComponent(extractorId)}${query}`,
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
    ...settingsOf(principal),
    renewableUntil: principal.renewableUntil,
  };
}
