import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBucket } from '../buckets/buckets.js';
import { loadConfig } from '../config.js';
import { demoExtractor } from '../extractors/demo.js';
import { createExtractor } from '../extractors/extractors.js';
import { openSqliteStore, type Store } from '../store/database.js';
import {
  createSessionToken,
  revokeToken,
  verifyToken,
  type SessionGrant,
  type Verification,
} from './tokens.js';

const principalOf = (verification: Verification) =>
  verification.ok ? verification.principal : undefined;

let store: Store;
let grant: SessionGrant;

beforeEach(async () => {
  store = await openSqliteStore(':memory:');
  const bucket = await createBucket(store.db, {}, 'api');
  const { row: extractor } = await createExtractor(store.db, demoExtractor, loadConfig({}));
  grant = {
    extractorId: extractor.id,
    bucketId: bucket.id,
    ttlSeconds: 3600,
    renewableUntil: new Date(Date.now() + 86_400_000).toISOString(),
    allowedOrigins: ['https://partner.example'],
    theme: null,
    locale: 'de',
    strings: { 'app.title': 'Rechnungen' },
    colorScheme: 'light',
  };
});

afterEach(() => store.close());

describe('verifyToken', () => {
  it('reads a session’s settings once while its stored row stays the same, and again when it changes', async () => {
    const { id, token } = await createSessionToken(store.db, grant);
    const first = await verifyToken(store.db, token);
    expect(first).toEqual({
      ok: true,
      principal: expect.objectContaining({
        kind: 'session',
        tokenId: id,
        allowedOrigins: ['https://partner.example'],
        locale: 'de',
        strings: { 'app.title': 'Rechnungen' },
      }),
    });
    // The same row, shared by the store: the same principal, not parsed again.
    expect(principalOf(await verifyToken(store.db, token))).toBe(principalOf(first));

    await store.db
      .updateTable('tokens')
      .set({ allowed_origins: JSON.stringify(['https://other.example']) })
      .where('id', '=', id)
      .execute();
    expect(principalOf(await verifyToken(store.db, token))).toMatchObject({
      allowedOrigins: ['https://other.example'],
    });

    await revokeToken(store.db, id);
    expect(await verifyToken(store.db, token)).toEqual({
      ok: false,
      reason: 'The access token has been revoked.',
    });
  });
});
