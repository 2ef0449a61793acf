/**
 * Access tokens. Personal access tokens can do everything; embed session tokens are
 * scoped to one extractor and one bucket and expire. Only a SHA-256 of each token is
 * stored: the tokens carry 256 random bits, so a fast hash is enough and keeps every
 * request cheap.
 */
import { createHmac, hash, randomBytes } from 'node:crypto';
import { ConflictError } from '../errors.js';
import { dialectOf } from '../store/clock.js';
import type { Db } from '../store/database.js';
import { newId, nowIso } from '../store/ids.js';
import { preparedQuery } from '../store/prepared-query.js';
import type { Transaction } from 'kysely';
import type { Database, TokenRow, TokenTable } from '../store/schema.js';
import { oncePerStoredRow } from '../store/stored-rows.js';
import { resolveColorScheme, type ColorScheme } from '../../contract/color-scheme.js';
import type { Theme } from '../../contract/resources.js';
import type { StringOverrides } from '../../contract/session-language.js';

export const personalTokenPrefix = 'xpat_';
export const sessionTokenPrefix = 'xses_';

export function hashToken(token: string): string {
  // The one-shot form: no Hash object per request.
  return hash('sha256', token, 'hex');
}

function mintToken(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}

export type Principal =
  | { kind: 'personal'; tokenId: string }
  | {
      kind: 'session';
      tokenId: string;
      /** The session the token belongs to: the id of the token minted, shared by its renewals. */
      sessionId: string;
      extractorId: string;
      bucketId: string;
      allowedOrigins: string[];
      theme: Theme | null;
      locale: string | null;
      strings: StringOverrides;
      colorScheme: ColorScheme;
      expiresAt: string;
      renewableUntil: string;
    };

export interface TokenSummary {
  id: string;
  kind: TokenTable['kind'];
  name: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

export async function createPersonalToken(
  db: Db,
  name: string,
): Promise<{ id: string; token: string }> {
  const token = mintToken(personalTokenPrefix);
  const id = newId();
  await db
    .insertInto('tokens')
    .values({
      id,
      kind: 'personal',
      name,
      token_hash: hashToken(token),
      created_at: nowIso(),
    })
    .execute();
  return { id, token };
}

/**
 * Registers a token chosen outside (EXTRACTOR_ADMIN_TOKEN) as a personal access token,
 * unless it is registered already. Registering it again changes nothing: in particular a
 * revoked token stays revoked (a revocation is meant to last, and every start registers
 * the variable again); the answer says so, for the service to tell the operator. API
 * processes starting together may register it at the same moment: one insert wins, the
 * others find its row.
 */
export async function registerPersonalToken(
  db: Db,
  token: string,
  name: string,
): Promise<'registered' | 'known' | 'revoked'> {
  const tokenHash = hashToken(token);
  const inserted = await db
    .insertInto('tokens')
    .values({
      id: newId(),
      kind: 'personal',
      name,
      token_hash: tokenHash,
      created_at: nowIso(),
    })
    .onConflict((conflict) => conflict.column('token_hash').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return 'registered';
  const existing = await db
    .selectFrom('tokens')
    .select('revoked_at')
    .where('token_hash', '=', tokenHash)
    .executeTakeFirstOrThrow();
  return existing.revoked_at ? 'revoked' : 'known';
}

export interface SessionGrant {
  extractorId: string;
  bucketId: string;
  ttlSeconds: number;
  /** No token of the session expires later, renewed or not (ISO 8601). */
  renewableUntil: string;
  allowedOrigins: string[];
  theme: Theme | null;
  locale: string | null;
  strings: StringOverrides;
  colorScheme: ColorScheme;
}

/** A session token as minted or renewed. The token itself is in no store: only here. */
export interface IssuedSessionToken {
  id: string;
  token: string;
  expiresAt: string;
  renewableUntil: string;
}

export async function createSessionToken(db: Db, grant: SessionGrant): Promise<IssuedSessionToken> {
  const token = mintToken(sessionTokenPrefix);
  const id = newId();
  const ttlEnd = new Date(Date.now() + grant.ttlSeconds * 1000).toISOString();
  const expiresAt = ttlEnd < grant.renewableUntil ? ttlEnd : grant.renewableUntil;
  await db
    .insertInto('tokens')
    .values({
      id,
      kind: 'session',
      name: 'embed session',
      token_hash: hashToken(token),
      created_at: nowIso(),
      expires_at: expiresAt,
      extractor_id: grant.extractorId,
      bucket_id: grant.bucketId,
      allowed_origins: JSON.stringify(grant.allowedOrigins),
      theme: grant.theme ? JSON.stringify(grant.theme) : null,
      locale: grant.locale,
      strings: Object.keys(grant.strings).length > 0 ? JSON.stringify(grant.strings) : null,
      color_scheme: grant.colorScheme,
      renewable_until: grant.renewableUntil,
      session_id: id,
    })
    .execute();
  return { id, token, expiresAt, renewableUntil: grant.renewableUntil };
}

/**
 * The token of a renewal: derived from the token renewed and a random salt kept on the
 * renewal's row. Neither token is stored, yet renewing the same token again gives the same
 * renewal back; deriving it takes the token renewed, which only its holder has.
 */
function renewalToken(renewed: string, salt: string): string {
  return sessionTokenPrefix + createHmac('sha256', renewed).update(salt).digest('base64url');
}

/** Less than this left of a session's lifetime is not worth a renewal. */
const shortestRenewalMs = 60_000;

/**
 * On PostgreSQL, locks the row of the token that began the session. Renewal and revocation
 * both take it first, so one crossing the other cannot leave a live token behind (a
 * renewal committed while a revocation updates the session's rows would be missed by it).
 * SQLite writes one transaction at a time.
 */
async function lockSession(trx: Transaction<Database>, sessionId: string): Promise<void> {
  if (dialectOf(trx) !== 'postgres') return;
  await trx.selectFrom('tokens').select('id').where('id', '=', sessionId).forUpdate().execute();
}

/**
 * Renews the session token `token` (row `tokenId` of the session `sessionId`). A token is
 * renewed once: asked again, it answers the same renewal (the same token, id and expiry),
 * so a client that lost the answer, or two tabs renewing one token, end up with one token
 * between them. A new renewal lives as long as the token renewed was given (at least a
 * minute), never past the session's renewableUntil. The token renewed keeps its expiry, so
 * requests under way with it finish; every older token of the session expires now, so a
 * session has at most two live tokens however often it is renewed, and revoking any one of
 * them ends all (revokeToken). A 409 once the session has no time left to give.
 */
export async function renewSessionToken(
  db: Db,
  renewed: { tokenId: string; sessionId: string; token: string },
): Promise<IssuedSessionToken> {
  return db.transaction().execute(async (trx) => {
    await lockSession(trx, renewed.sessionId);
    const row = await trx
      .selectFrom('tokens')
      .selectAll()
      .where('id', '=', renewed.tokenId)
      .executeTakeFirstOrThrow();
    const now = nowIso();
    // Revoked or retired by a renewal that crossed this one since the token was checked.
    if (row.revoked_at || row.expires_at! <= now)
      throw new ConflictError('This session has ended and cannot be renewed. Mint a new session.');
    const renewableUntil = row.renewable_until ?? row.expires_at!;
    const earlier = await trx
      .selectFrom('tokens')
      .selectAll()
      .where('renewal_of', '=', row.id)
      .executeTakeFirst();
    if (earlier) return issuedToken(earlier, renewalToken(renewed.token, earlier.renewal_salt!));
    if (Date.parse(renewableUntil) - Date.now() < shortestRenewalMs)
      throw new ConflictError(
        `This session can no longer be renewed: it was allowed to last until ${renewableUntil}. Mint a new session.`,
      );
    const lifetimeMs = Math.max(Date.parse(row.expires_at!) - Date.parse(row.created_at), 60_000);
    const ttlEnd = new Date(Date.now() + lifetimeMs).toISOString();
    const salt = randomBytes(32).toString('base64url');
    const token = renewalToken(renewed.token, salt);
    const renewal = await trx
      .insertInto('tokens')
      .values({
        ...row,
        id: newId(),
        token_hash: hashToken(token),
        created_at: now,
        expires_at: ttlEnd < renewableUntil ? ttlEnd : renewableUntil,
        last_used_at: null,
        renewable_until: renewableUntil,
        session_id: renewed.sessionId,
        renewal_of: row.id,
        renewal_salt: salt,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('tokens')
      .set({ expires_at: now })
      .where('session_id', '=', renewed.sessionId)
      .where('id', 'not in', [row.id, renewal.id])
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .execute();
    return issuedToken(renewal, token);
  });
}

function issuedToken(row: TokenRow, token: string): IssuedSessionToken {
  // A session token always has an expiry; renewable_until is set on every renewal.
  return { id: row.id, token, expiresAt: row.expires_at!, renewableUntil: row.renewable_until! };
}

export type Verification = { ok: true; principal: Principal } | { ok: false; reason: string };

const tokenByHash = preparedQuery(
  (db, { hash }: { hash: string }) =>
    db.selectFrom('tokens').selectAll().where('token_hash', '=', hash),
  ['hash'],
);

/** Who a bearer token speaks for, or why it speaks for nobody. */
export async function verifyToken(db: Db, token: string): Promise<Verification> {
  const [row] = await tokenByHash(db, { hash: hashToken(token) });
  if (!row) return { ok: false, reason: 'The access token is not valid.' };
  if (row.revoked_at) return { ok: false, reason: 'The access token has been revoked.' };
  if (row.expires_at && row.expires_at <= nowIso())
    return { ok: false, reason: 'The access token has expired.' };
  return { ok: true, principal: principalOf(row) };
}

/**
 * Whom a valid token's row speaks for: once per row the store shares (stored-rows.ts), so
 * an embed polling its run does not parse its session's settings again on every request.
 */
const principalOf = oncePerStoredRow((row: TokenRow): Principal => {
  if (row.kind === 'personal') return { kind: 'personal', tokenId: row.id };
  return {
    kind: 'session',
    tokenId: row.id,
    // Sessions minted before sessions were recorded are each a session of their own.
    sessionId: row.session_id ?? row.id,
    extractorId: row.extractor_id!,
    bucketId: row.bucket_id!,
    allowedOrigins: row.allowed_origins ? (JSON.parse(row.allowed_origins) as string[]) : [],
    theme: row.theme ? (JSON.parse(row.theme) as Theme) : null,
    locale: row.locale,
    strings: row.strings ? (JSON.parse(row.strings) as StringOverrides) : {},
    colorScheme: resolveColorScheme(row.color_scheme),
    expiresAt: row.expires_at!,
    // Sessions minted before renewal existed end when they expire.
    renewableUntil: row.renewable_until ?? row.expires_at!,
  };
});

/**
 * Notes that a token was used, at most once a minute per token and process so reads stay
 * reads. With several API processes each writes on its own minute; the time only moves
 * forward, so a process whose write arrives late cannot put it back.
 */
export function createUsageRecorder(db: Db): (tokenId: string) => void {
  const lastWritten = new Map<string, number>();
  return (tokenId) => {
    const now = Date.now();
    if ((lastWritten.get(tokenId) ?? 0) > now - 60_000) return;
    lastWritten.set(tokenId, now);
    const usedAt = new Date(now).toISOString();
    void db
      .updateTable('tokens')
      .set({ last_used_at: usedAt })
      .where('id', '=', tokenId)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', usedAt)]))
      .execute()
      .catch(() => lastWritten.delete(tokenId));
  };
}

export async function listTokens(db: Db, kind?: TokenTable['kind']): Promise<TokenSummary[]> {
  let query = db.selectFrom('tokens').selectAll().orderBy('created_at');
  if (kind) query = query.where('kind', '=', kind);
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    name: row.name,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
  }));
}

/**
 * Revokes a token; `false` when there is no such live token. Revoking any token of an embed
 * session revokes the whole session: the token minted and every renewal.
 */
export async function revokeToken(db: Db, id: string, kind?: TokenTable['kind']): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    let query = trx.selectFrom('tokens').select('session_id').where('id', '=', id);
    if (kind) query = query.where('kind', '=', kind);
    const row = await query.executeTakeFirst();
    if (!row) return false;
    let revoke = trx
      .updateTable('tokens')
      .set({ revoked_at: nowIso() })
      .where('revoked_at', 'is', null);
    if (row.session_id) {
      await lockSession(trx, row.session_id);
      revoke = revoke.where('session_id', '=', row.session_id);
    } else revoke = revoke.where('id', '=', id);
    const result = await revoke.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  });
}

const tokenLifeById = preparedQuery(
  (db, { id }: { id: string }) =>
    db.selectFrom('tokens').select(['revoked_at', 'expires_at']).where('id', '=', id),
  ['id'],
);

/** Whether any personal access token was ever made (a first start makes one). */
export async function hasPersonalToken(db: Db): Promise<boolean> {
  return Boolean(
    await db
      .selectFrom('tokens')
      .select('id')
      .where('kind', '=', 'personal')
      .limit(1)
      .executeTakeFirst(),
  );
}

/** Whether the token is still good: neither revoked nor expired (nor gone). */
export async function isTokenLive(db: Db, tokenId: string): Promise<boolean> {
  const [row] = await tokenLifeById(db, { id: tokenId });
  return !!row && !row.revoked_at && !(row.expires_at && row.expires_at <= nowIso());
}

/**
 * A signal that aborts once the token is revoked or expires, for what outlives the
 * request that checked it (an event stream). The token is looked at every `checkMs`:
 * a revocation may come from another process (the token CLI). Watching stops when
 * `until` aborts.
 */
export function tokenEnd(
  db: Db,
  tokenId: string,
  until: AbortSignal,
  checkMs = 2_000,
): AbortSignal {
  const ended = new AbortController();
  const check = () => {
    void isTokenLive(db, tokenId).then(
      (live) => {
        if (!live) ended.abort();
      },
      // A store that cannot answer now is asked again at the next check.
      () => undefined,
    );
  };
  const timer = setInterval(check, checkMs);
  timer.unref();
  const stop = () => clearInterval(timer);
  ended.signal.addEventListener('abort', stop, { once: true });
  until.addEventListener('abort', stop, { once: true });
  return ended.signal;
}
