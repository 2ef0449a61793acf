import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Db } from './database.js';
import { preparedQuery } from './prepared-query.js';

function memoryStore(): Db {
  const sqlite = new SQLite(':memory:');
  sqlite.exec(`create table buckets (id text primary key, description text);
    insert into buckets values ('one', 'First'), ('two', 'Second'), ('three', 'Third');`);
  return new Kysely({ dialect: new SqliteDialect({ database: sqlite }) }) as unknown as Db;
}

describe('preparedQuery', () => {
  it('runs the query it compiled once with each call’s own values, on each store', async () => {
    const bucketsBetween = preparedQuery(
      (db, { from, to }: { from: string; to: string }) =>
        db
          .selectFrom('buckets')
          .select(['id', 'description'])
          .where('id', '>=', from)
          .where('id', '<=', to)
          .where('description', 'is not', null)
          .orderBy('id'),
      ['from', 'to'],
    );
    const first = memoryStore();
    const second = memoryStore();
    await second.deleteFrom('buckets').where('id', '=', 'two').execute();

    expect(await bucketsBetween(first, { from: 'one', to: 'three' })).toEqual([
      { id: 'one', description: 'First' },
      { id: 'three', description: 'Third' },
    ]);
    expect(await bucketsBetween(first, { from: 'three', to: 'two' })).toEqual([
      { id: 'three', description: 'Third' },
      { id: 'two', description: 'Second' },
    ]);
    expect(await bucketsBetween(second, { from: 'three', to: 'two' })).toEqual([
      { id: 'three', description: 'Third' },
    ]);
    // A value that looks like SQL stays a value.
    expect(await bucketsBetween(first, { from: "' or 1=1 --", to: '' })).toEqual([]);
    await Promise.all([first.destroy(), second.destroy()]);
  });

  it('refuses a query that leaves a named value out', async () => {
    const careless = preparedQuery(
      (db, _values: { id: string }) => db.selectFrom('buckets').selectAll(),
      ['id'],
    );
    const db = memoryStore();
    await expect(careless(db, { id: 'one' })).rejects.toThrow(/does not use all of id/);
    await db.destroy();
  });
});

describe('preparedQuery on a store with a point-read cache (Db.recall)', () => {
  it('takes the rows the store can recall, and runs the query for the rest', async () => {
    const bucketById = preparedQuery(
      (db, { id }: { id: string }) =>
        db.selectFrom('buckets').select(['id', 'description']).where('id', '=', id),
      ['id'],
    );
    const remembered = [{ id: 'one', description: 'Remembered' }];
    const asked: unknown[] = [];
    // A cache of our own making, to see what is asked of it and what is taken from it.
    const db: Db = Object.assign(memoryStore(), {
      recall(sql: string, parameters: readonly unknown[]) {
        asked.push([sql, ...parameters]);
        return parameters[0] === 'one' ? remembered : undefined;
      },
    });
    const sql = 'select "id", "description" from "buckets" where "id" = ?';
    expect(await bucketById(db, { id: 'one' })).toBe(remembered);
    expect(await bucketById(db, { id: 'two' })).toEqual([{ id: 'two', description: 'Second' }]);
    expect(asked).toEqual([
      [sql, 'one'],
      [sql, 'two'],
    ]);
    // Another store has nothing to recall.
    const other = memoryStore();
    expect(await bucketById(other, { id: 'one' })).toEqual([{ id: 'one', description: 'First' }]);
    await Promise.all([db.destroy(), other.destroy()]);
  });
});
