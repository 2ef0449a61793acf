/**
 * Opens the store. The embedded default is SQLite through better-sqlite3 in WAL mode with
 * `synchronous = FULL`: a 201 is only sent once the row is on disk, so a crash right after
 * it loses nothing.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { migrationProvider, type Dialect } from './migrations.js';
import type { Database } from './schema.js';
import { recallPreparedQueries } from './prepared-query.js';
import { cachedConnection } from './sqlite-connection.js';

export type Db = Kysely<Database>;

export interface Store {
  db: Db;
  dialect: Dialect;
  close(): Promise<void>;
}

/** The SQLite file under DATA_DIR: the server and `npm run token` open the same one. */
export function databaseFile(config: { dataDir: string }): string {
  return join(config.dataDir, 'extractor.sqlite');
}

export async function openSqliteStore(file: string): Promise<Store> {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  // Writers from the worker and the HTTP side wait for each other instead of failing.
  sqlite.pragma('busy_timeout = 5000');
  const connection = cachedConnection(sqlite);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) });
  recallPreparedQueries(db, connection.recall);
  await migrate(db, 'sqlite');
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

async function migrate(db: Db, dialect: Dialect): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider(dialect) });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
