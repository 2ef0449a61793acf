/**
 * Vitest's global set-up for the `server-postgres` project: one PostgreSQL server for the
 * whole run, shared by every test file (each test service makes a database of its own on
 * it: test-database.ts), stopped and removed at the end.
 */
import type { TestProject } from 'vitest/node';
import { startPostgresServer } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set in the `server-postgres` project: the server's own database, to create others. */
    postgresAdminUrl: string | undefined;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgresServer();
  project.provide('postgresAdminUrl', server.adminUrl);
  return () => server.stop();
}
