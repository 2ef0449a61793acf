/**
 * A real service on a fresh temporary data directory, for in-process tests: the same
 * store, files and app as `npm start`, called through `app.fetch` without a socket. The
 * store is SQLite in that directory, or a fresh PostgreSQL database in the
 * `server-postgres` project (test-database.ts).
 */
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { loadConfig, type Config } from '../config.js';
import { createService, type Service } from '../service.js';
import { writeStandInBuild } from './stand-in-build.js';
import { testStoreLocation, type TestStoreLocation } from './test-database.js';

export const adminToken = 'xpat_test-admin-token-0123456789abcdef';

export interface TestService extends Service {
  dataDir: string;
  /** Where its store is: another service beside it shares it (besideStoreLocation). */
  location: TestStoreLocation;
  config: Config;
  /** Sends a request to the app; `token` defaults to the admin token, `null` sends none. */
  request(path: string, init?: RequestInit & { token?: string | null }): Promise<Response>;
  /** `request` with a JSON body and JSON answers. */
  json(method: string, path: string, body?: unknown, token?: string | null): Promise<Response>;
  /** Closes the service and removes its data directory (and its database). */
  dispose(): Promise<void>;
}

/** A test service on a new store, or on `at` (another process's place beside a service). */
export async function startTestService(
  env: Record<string, string> = {},
  at?: TestStoreLocation,
): Promise<TestService> {
  const location = at ?? (await testStoreLocation());
  const dataDir = location.dataDir;
  const config = loadConfig({
    ...location.env,
    // Hosted pages answer from a stand-in build, whether or not the checkout was built.
    DIST_DIR: join(dataDir, 'dist'),
    EXTRACTOR_ADMIN_TOKEN: adminToken,
    PUBLIC_BASE_URL: 'http://extractor.test',
    WEBHOOK_ALLOW_PRIVATE: '1',
    WORKER_CONCURRENCY: '0',
    // Disposing stops the work in flight at once; SIGTERM's grace is main.ts's concern.
    SHUTDOWN_GRACE_SECONDS: '0',
    // A reserve as small as will do: every test's service writes it at start.
    DATA_DIR_RESERVE_MB: '1',
    ...env,
  });
  writeStandInBuild(config.distDir);
  let service: Service;
  try {
    service = await createService(config, { logger: pino({ level: 'silent' }) });
  } catch (error) {
    await location.dispose();
    throw error;
  }
  const request: TestService['request'] = (path, init = {}) => {
    const { token = adminToken, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (token !== null && !headers.has('authorization'))
      headers.set('Authorization', `Bearer ${token}`);
    return Promise.resolve(
      service.app.fetch(new Request(`http://extractor.test${path}`, { ...rest, headers })),
    );
  };
  return {
    ...service,
    dataDir,
    location,
    config,
    request,
    json(method, path, body, token) {
      const headers: Record<string, string> = { Accept: 'application/json' };
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      return request(path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        token: token === undefined ? adminToken : token,
      });
    },
    async dispose() {
      await service.close();
      await location.dispose();
    },
  };
}

/**
 * A test service for the tests around the call: started before them, disposed after. The
 * object stands for the service once it runs, so tests use it as they would the service.
 */
export function useTestService(env: Record<string, string> = {}): TestService {
  let current: TestService | undefined;
  beforeAll(async () => {
    current = await startTestService(env);
  });
  afterAll(async () => {
    await current?.dispose();
  });
  return new Proxy({} as TestService, {
    get(_target, key) {
      if (!current) throw new Error('The test service starts in beforeAll; use it inside a test.');
      const value = current[key as keyof TestService];
      return typeof value === 'function' ? value.bind(current) : value;
    },
  });
}
