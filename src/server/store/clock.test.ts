/**
 * The database's clock, on the dialect this project runs: its times are written exactly as
 * the store writes every other time, so they compare as text with them, and an offset
 * moves them by that much.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  testDialect,
  testStoreLocation,
  type TestStoreLocation,
} from '../testing/test-database.js';
import { databaseTime, dialectOf } from './clock.js';
import type { Store } from './database.js';

let location: TestStoreLocation;
let store: Store;

beforeAll(async () => {
  location = await testStoreLocation('extractor-clock-');
  store = await location.open();
});
afterAll(async () => {
  await store.close();
  await location.dispose();
});

async function read(): Promise<string> {
  const { rows } = await sql<{ now: string }>`select ${databaseTime(store.db)} as now`.execute(
    store.db,
  );
  return rows[0]!.now;
}

describe('databaseTime', () => {
  it('knows the dialect it speaks, in a transaction too', async () => {
    expect(dialectOf(store.db)).toBe(testDialect());
    await store.db.transaction().execute(async (trx) => {
      expect(dialectOf(trx)).toBe(testDialect());
    });
  });

  it('is ISO 8601 in UTC with milliseconds, as toISOString writes it, and near this clock', async () => {
    const before = Date.now();
    const now = await read();
    const after = Date.now();
    expect(now).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(new Date(now).toISOString()).toBe(now);
    // The same machine's clock: within the round trip, and a little for rounding.
    expect(Date.parse(now)).toBeGreaterThanOrEqual(before - 1_000);
    expect(Date.parse(now)).toBeLessThanOrEqual(after + 1_000);
  });

  it('moves by the offset, forwards and back, to the millisecond', async () => {
    // One statement: its 'now' is one instant on either dialect.
    const { rows } = await sql<{ now: string; ahead: string; behind: string }>`select
      ${databaseTime(store.db)} as now,
      ${databaseTime(store.db, 90_500)} as ahead,
      ${databaseTime(store.db, -2_250)} as behind`.execute(store.db);
    const { now, ahead, behind } = rows[0]!;
    expect(Date.parse(ahead) - Date.parse(now)).toBe(90_500);
    expect(Date.parse(now) - Date.parse(behind)).toBe(2_250);
    // Text order is time order, as leases and due times are compared.
    expect([ahead, now, behind].sort()).toEqual([behind, now, ahead]);
  });
});
