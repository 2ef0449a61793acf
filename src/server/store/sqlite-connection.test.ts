import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cachedConnection, type CachedConnectionOptions } from './sqlite-connection.js';

interface Notes {
  notes: { id: string; body: string };
}

let directory: string;
let file: string;
const opened: Kysely<Notes>[] = [];

function open(options?: CachedConnectionOptions): Kysely<Notes> {
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  const db = new Kysely<Notes>({
    dialect: new SqliteDialect({ database: cachedConnection(sqlite, options) }),
  });
  opened.push(db);
  return db;
}

const note = (db: Kysely<Notes>, id: string) =>
  db.selectFrom('notes').selectAll().where('id', '=', id).executeTakeFirst();

/** Lets the event loop turn: the cache reads `PRAGMA data_version` once per turn. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'extractor-connection-'));
  file = join(directory, 'notes.sqlite');
  const setup = new SQLite(file);
  setup.pragma('journal_mode = WAL');
  setup.exec(`create table notes (id text primary key, body text not null);
    insert into notes values ('a', 'first'), ('b', 'second');`);
  setup.close();
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((db) => db.destroy()));
  rmSync(directory, { recursive: true, force: true });
});

describe('the point-read cache', () => {
  it('answers a repeated point read with the same frozen row', async () => {
    const db = open();
    const first = await note(db, 'a');
    expect(first).toEqual({ id: 'a', body: 'first' });
    expect(await note(db, 'a')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => {
      (first as { body: string }).body = 'changed';
    }).toThrow(TypeError);
    expect(await note(db, 'b')).toEqual({ id: 'b', body: 'second' });
  });

  it('keeps reads of several rows out of it', async () => {
    const db = open();
    const rows = await db.selectFrom('notes').selectAll().orderBy('id').execute();
    expect(rows).toHaveLength(2);
    expect(Object.isFrozen(rows[0])).toBe(false);
    expect(await db.selectFrom('notes').selectAll().orderBy('id').execute()).not.toBe(rows);
  });

  it('forgets everything when this connection writes', async () => {
    const db = open();
    await note(db, 'a');
    await db.updateTable('notes').set({ body: 'edited' }).where('id', '=', 'a').execute();
    expect(await note(db, 'a')).toEqual({ id: 'a', body: 'edited' });

    await note(db, 'c');
    // A statement that returns rows but writes (RETURNING) is a write too.
    const inserted = await db
      .insertInto('notes')
      .values({ id: 'c', body: 'third' })
      .returningAll()
      .executeTakeFirst();
    expect(inserted).toEqual({ id: 'c', body: 'third' });
    expect(await note(db, 'c')).toEqual({ id: 'c', body: 'third' });
  });

  it('forgets what was read inside a transaction that rolled back', async () => {
    const db = open();
    await expect(
      db.transaction().execute(async (transaction) => {
        await transaction
          .updateTable('notes')
          .set({ body: 'draft' })
          .where('id', '=', 'a')
          .execute();
        expect(await note(transaction, 'a')).toEqual({ id: 'a', body: 'draft' });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await note(db, 'a')).toEqual({ id: 'a', body: 'first' });
  });

  it('sees what another connection (another process) committed, from the next turn on', async () => {
    const db = open();
    const other = open();
    expect(await note(db, 'a')).toEqual({ id: 'a', body: 'first' });
    await other
      .updateTable('notes')
      .set({ body: 'from elsewhere' })
      .where('id', '=', 'a')
      .execute();
    await other.deleteFrom('notes').where('id', '=', 'b').execute();
    await nextTurn();
    expect(await note(db, 'a')).toEqual({ id: 'a', body: 'from elsewhere' });
    expect(await note(db, 'b')).toBeUndefined();
  });

  it('remembers a missing row until it appears', async () => {
    const db = open();
    const other = open();
    expect(await note(db, 'z')).toBeUndefined();
    await other.insertInto('notes').values({ id: 'z', body: 'late' }).execute();
    await nextTurn();
    expect(await note(db, 'z')).toEqual({ id: 'z', body: 'late' });
  });

  it('never mistakes one list of values for another, whatever characters they hold', async () => {
    const db = open();
    await db
      .insertInto('notes')
      .values([
        { id: 'x\u0000sy', body: 'z' },
        { id: 'x', body: 'y\u0000sz' },
      ])
      .execute();
    const find = (id: string, body: string) =>
      db
        .selectFrom('notes')
        .select('id')
        .where('id', '=', id)
        .where('body', '=', body)
        .executeTakeFirst();
    expect(await find('x\u0000sy', 'z')).toEqual({ id: 'x\u0000sy' });
    expect(await find('x', 'y\u0000sz')).toEqual({ id: 'x' });
  });

  it('stays within its bounds, dropping the oldest answers first', async () => {
    const db = open({ pointReads: 1 });
    const a = await note(db, 'a');
    const b = await note(db, 'b');
    expect(await note(db, 'b')).toBe(b);
    expect(await note(db, 'a')).not.toBe(a);

    const small = open({ pointReadCharacters: 16 * 8 });
    const long = await note(small, 'a');
    expect(await note(small, 'a')).not.toBe(long);
  });
});

describe('recall, the point-read cache without Kysely in between', () => {
  function openWithRecall() {
    const connection = cachedConnection(new SQLite(file));
    const db = new Kysely<Notes>({ dialect: new SqliteDialect({ database: connection }) });
    opened.push(db);
    const { sql, parameters } = db.selectFrom('notes').selectAll().where('id', '=', 'a').compile();
    return { db, recallA: () => connection.recall(sql, parameters) };
  }

  it('has the rows a point read left in the cache, the same frozen rows', async () => {
    const { db, recallA } = openWithRecall();
    expect(recallA()).toBeUndefined();
    const row = await note(db, 'a');
    expect(recallA()).toEqual([row]);
    expect(recallA()![0]).toBe(row);
    await db.updateTable('notes').set({ body: 'edited' }).where('id', '=', 'b').execute();
    expect(recallA()).toBeUndefined();
  });

  it('has nothing while a transaction is open, not even what it read itself', async () => {
    const { db, recallA } = openWithRecall();
    const seenInside: unknown[] = [];
    await db.transaction().execute(async (transaction) => {
      await transaction.updateTable('notes').set({ body: 'draft' }).where('id', '=', 'a').execute();
      expect(await note(transaction, 'a')).toEqual({ id: 'a', body: 'draft' });
      seenInside.push(recallA());
    });
    expect(seenInside).toEqual([undefined]);
    expect(await note(db, 'a')).toEqual({ id: 'a', body: 'draft' });
    expect(recallA()).toEqual([{ id: 'a', body: 'draft' }]);
  });

  it('forgets what another connection changed, from the next turn on', async () => {
    const { db, recallA } = openWithRecall();
    const other = open();
    await note(db, 'a');
    await other
      .updateTable('notes')
      .set({ body: 'from elsewhere' })
      .where('id', '=', 'a')
      .execute();
    await nextTurn();
    expect(recallA()).toBeUndefined();
  });
});
