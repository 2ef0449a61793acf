import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Db } from './database.js';
import { oncePerFrozenRow } from './frozen-rows.js';
import { preparedQuery, recallPreparedQueries } from './prepared-query.js';

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

describe('recallPreparedQueries', () => {
  it('takes the rows the store can recall, and runs the query for the rest', async () => {
    const bucketById = preparedQuery(
      (db, { id }: { id: string }) =>
        db.selectFrom('buckets').select(['id', 'description']).where('id', '=', id),
      ['id'],
    );
    const db = memoryStore();
    const remembered = [{ id: 'one', description: 'Remembered' }];
    const asked: unknown[] = [];
    recallPreparedQueries(db, (sql, parameters) => {
      asked.push([sql, ...parameters]);
      return parameters[0] === 'one' ? remembered : undefined;
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

describe('oncePerFrozenRow', () => {
  it('computes once for a frozen row and every time for one that may still change', () => {
    let computed = 0;
    const describeRow = oncePerFrozenRow((row: { id: string }) => ({
      label: `#${row.id}`,
      n: ++computed,
    }));
    const frozen = Object.freeze({ id: 'a' });
    const first = describeRow(frozen);
    expect(describeRow(frozen)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);

    const open = { id: 'b' };
    expect(describeRow(open)).toEqual({ label: '#b', n: 2 });
    open.id = 'c';
    expect(describeRow(open)).toEqual({ label: '#c', n: 3 });
  });
});
