/**
 * Which store the tests of this project run on. The `server` project runs them on SQLite;
 * the `server-postgres` project runs the same files on a real PostgreSQL server started by
 * its global set-up (postgres-global-setup.ts), with a fresh database for each store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { openStore, type Store } from '../store/database.js';
import type { Dialect } from '../store/migrations.js';
import { createTestDatabase } from './postgres-server.js';

export function testDialect(): Dialect {
  return inject('postgresAdminUrl') ? 'postgres' : 'sqlite';
}

/** Where one test's store lives: a temporary data directory, and a database on PostgreSQL. */
export interface TestStoreLocation {
  dataDir: string;
  databaseUrl: string | undefined;
  /** The variables that point the service (or `npm run token`) at this store. */
  env: Record<string, string>;
  /** Opens the store, again if need be: each store opened is a connection of its own. */
  open(): Promise<Store>;
  /** Removes the directory and drops the database. */
  dispose(): Promise<void>;
}

export async function testStoreLocation(prefix = 'extractor-test-'): Promise<TestStoreLocation> {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const adminUrl = inject('postgresAdminUrl');
  const database = adminUrl ? await createTestDatabase(adminUrl) : undefined;
  const databaseUrl = database?.url;
  return {
    dataDir,
    databaseUrl,
    // Empty on SQLite, so that no DATABASE_URL of the shell reaches a child process.
    env: { DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '' },
    open: () => openStore({ dataDir, databaseUrl }),
    async dispose() {
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Another process's place beside `location`: a data directory of its own (processes never
 * share one), the same PostgreSQL database and the same files. Disposing it removes only
 * its directory; the database goes with `location`.
 */
export function besideStoreLocation(location: TestStoreLocation): TestStoreLocation {
  const databaseUrl = location.databaseUrl;
  if (!databaseUrl) throw new Error('Processes share a store on PostgreSQL only.');
  const dataDir = mkdtempSync(join(tmpdir(), 'extractor-test-beside-'));
  return {
    dataDir,
    databaseUrl,
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      FILES_URL: location.env.FILES_URL ?? join(location.dataDir, 'files'),
    },
    open: () => openStore({ dataDir, databaseUrl }),
    async dispose() {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
