/**
 * Opens the store. The embedded default is SQLite through better-sqlite3 in WAL mode with
 * `synchronous = FULL`: a 201 is only sent once the row is on disk, so a crash right after
 * it loses nothing. With DATABASE_URL it is PostgreSQL through node-postgres, which any
 * number of processes on any number of machines can share.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  type PostgresPool,
  type PostgresPoolClient,
} from 'kysely';
import pg from 'pg';
import { migrationProvider, type Dialect } from './migrations.js';
import type { Database } from './schema.js';
import { cachedConnection, type CachedConnection } from './sqlite-connection.js';

/**
 * Kysely over the schema. A store with a point-read cache (SQLite's) lends it as `recall`,
 * for prepared queries (prepared-query.ts) to answer from without a round through Kysely's
 * executor; PostgreSQL's, and a transaction, have none.
 */
export interface Db extends Kysely<Database> {
  /** The rows of a compiled query from the store's cache, now; undefined when it has none. */
  recall?(sql: string, parameters: readonly unknown[]): readonly unknown[] | undefined;
}

/** Kysely over SQLite, through the connection whose caches sqlite-connection.ts describes. */
class SqliteDb extends Kysely<Database> implements Db {
  readonly #connection: CachedConnection;

  constructor(connection: CachedConnection) {
    super({ dialect: new SqliteDialect({ database: connection }) });
    this.#connection = connection;
  }

  recall(sql: string, parameters: readonly unknown[]): readonly unknown[] | undefined {
    return this.#connection.recall(sql, parameters);
  }
}

export interface Store {
  db: Db;
  dialect: Dialect;
  close(): Promise<void>;
}

/** The SQLite file under DATA_DIR: the server and `npm run token` open the same one. */
export function databaseFile(config: { dataDir: string }): string {
  return join(config.dataDir, 'extractor.sqlite');
}

/** The store the configuration names: PostgreSQL at DATABASE_URL, else SQLite under DATA_DIR. */
export function openStore(
  config: { dataDir: string; databaseUrl: string | undefined; databasePoolSize?: number },
  options: { onError?: (error: Error) => void } = {},
): Promise<Store> {
  return config.databaseUrl
    ? openPostgresStore(config.databaseUrl, { ...options, poolSize: config.databasePoolSize })
    : openSqliteStore(databaseFile(config));
}

export async function openSqliteStore(file: string): Promise<Store> {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  let db: SqliteDb;
  try {
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    // Writers from the worker and the HTTP side wait for each other instead of failing.
    sqlite.pragma('busy_timeout = 5000');
    db = new SqliteDb(cachedConnection(sqlite));
    await migrate(db, 'sqlite');
  } catch (error) {
    // A full disk fails the first pragma; the caller may make room and open it again.
    sqlite.close();
    throw error;
  }
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/**
 * node-postgres hands `bigint` (int8) values out as strings, since they may not fit a
 * number. Here they always fit (counts, sizes, event ids, token totals), and SQLite hands
 * them out as numbers: read them the same way. A value that would not fit is an error, not
 * a quietly rounded number.
 */
const pgTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === pg.types.builtins.INT8 && format !== 'binary') {
      return (text: string) => {
        const value = Number(text);
        if (!Number.isSafeInteger(value)) throw new RangeError(`${text} does not fit a number`);
        return value;
      };
    }
    return pg.types.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * PostgreSQL's text cannot hold U+0000, and a value with one fails the whole statement,
 * where SQLite would have stored it or simply found nothing. Any request can carry one (an
 * id in a path, a filter, a description), so every text parameter has it replaced by
 * U+FFFD, the replacement character, as a decoder replaces what it cannot represent: a
 * lookup or filter with it finds nothing, as on SQLite, and a text with it is kept rather
 * than refused with a 500.
 */
function withStorableText(pool: pg.Pool): PostgresPool {
  const storable = (value: unknown) =>
    typeof value === 'string' && value.includes('\u0000')
      ? value.replaceAll('\u0000', '\ufffd')
      : value;
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let wrapped = clients.get(client);
      if (!wrapped) {
        // Only Kysely's `stream()` would pass a cursor instead, and without a cursor class
        // in the dialect's configuration it refuses before it gets here.
        const query = (text: string, parameters: readonly unknown[]) =>
          client.query(text, parameters.map(storable));
        wrapped = {
          query: query as unknown as PostgresPoolClient['query'],
          release: () => client.release(),
        };
        clients.set(client, wrapped);
      }
      return wrapped;
    },
    end: () => pool.end(),
  };
}

/**
 * PostgreSQL at `url`. Nothing here caches rows: other processes change the database at any
 * moment, and every read must see what they committed. (The SQLite store's caches,
 * sqlite-connection.ts and `Db.recall`, are for one process on one file.)
 */
export async function openPostgresStore(
  url: string,
  options: { poolSize?: number; onError?: (error: Error) => void } = {},
): Promise<Store> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    types: pgTypes,
    // A connection that cannot be had within this time fails the request instead of
    // stalling it for as long as the database is unreachable.
    connectionTimeoutMillis: 10_000,
  });
  // An idle connection that the server drops (a restart, a fail-over) emits here; without
  // a listener node would end the process. The pool replaces the connection on next use.
  pool.on('error', (error) => options.onError?.(error));
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: withStorableText(pool) }),
  });
  try {
    await migrate(db, 'postgres');
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return { db, dialect: 'postgres', close: () => db.destroy() };
}

async function migrate(db: Db, dialect: Dialect): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider(dialect) });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
