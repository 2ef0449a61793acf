import { rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { S3FileStore } from './files/s3-store.js';
import { checkReadiness } from './health.js';
import { readinessResponse } from './http/routes/health.js';
import { openStore } from './store/database.js';
import { expectProblem } from './testing/fixtures.js';
import { startTestService, type TestService } from './testing/test-service.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function service(): Promise<TestService> {
  const started = await startTestService();
  cleanups.push(() => started.dispose());
  return started;
}

/** A TCP server that accepts connections and never says a word: a hung dependency. */
async function silentServer(): Promise<{ endpoint: string }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  const address = server.address() as { port: number };
  return { endpoint: `http://127.0.0.1:${address.port}` };
}

describe('GET /healthz and /readyz', () => {
  it('answer without a token while the database and the files answer', async () => {
    const running = await service();
    const alive = await running.request('/healthz', { token: null });
    expect(alive.status).toBe(200);
    expect(await alive.json()).toEqual({ status: 'alive' });

    const ready = await running.request('/readyz', { token: null });
    expect(ready.status).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', files: 'ok', disk: 'ok' },
    });
  });

  it('answer 503 naming the file store when its directory is gone, while alive stays 200', async () => {
    const running = await service();
    rmSync(join(running.dataDir, 'files'), { recursive: true, force: true });

    const problem = await expectProblem(await running.request('/readyz', { token: null }), 503);
    expect(problem.detail).toMatch(/the file store cannot be reached/);
    expect(problem.checks).toEqual({ database: 'ok', files: 'failing', disk: 'ok' });
    expect(problem.detail).not.toContain(running.dataDir);
    expect((await running.request('/healthz', { token: null })).status).toBe(200);
  });

  it('link their 503 to a problem type the documentation and the OpenAPI document describe', async () => {
    const running = await service();
    rmSync(join(running.dataDir, 'files'), { recursive: true, force: true });
    const response = await running.request('/readyz', { token: null });
    expect(response.headers.get('retry-after')).toBe('5');
    const problem = await expectProblem(response, 503);
    expect(problem).toMatchObject({ type: '/api/docs#problem-not-ready', title: 'Not ready' });

    const docs = await running.request('/api/docs', {
      token: null,
      headers: { Accept: 'text/html' },
    });
    expect(await docs.text()).toContain('id="problem-not-ready"');
    const openApi = (await (await running.request('/api/docs.json', { token: null })).json()) as {
      components: { responses: Record<string, { content: Record<string, { example: unknown }> }> };
    };
    expect(
      openApi.components.responses['not-ready']?.content['application/problem+json']?.example,
    ).toMatchObject({
      type: '/api/docs#problem-not-ready',
      status: 503,
      title: 'Not ready',
    });
  });

  it('find the database failing once it cannot be queried', async () => {
    const running = await service();
    // A connection of its own, closed: the service's stays up for its own shutdown.
    const gone = await openStore(running.config);
    await gone.close();

    const readiness = await checkReadiness({
      db: gone.db,
      storage: running.services.storage,
      dataDirectory: running.services.dataDirectory,
      logger: pino({ level: 'silent' }),
    });
    expect(readiness).toEqual({
      ready: false,
      checks: { database: 'failing', files: 'ok', disk: 'ok' },
      reasons: {},
    });
    const problem = await expectProblem(readinessResponse(readiness, '/readyz'), 503);
    expect(problem.detail).toMatch(/the database cannot be reached/);
    expect(problem.instance).toBe('/readyz');
  });

  it('give up on a file store that never answers instead of hanging the probe', async () => {
    const running = await service();
    const { endpoint } = await silentServer();
    const hung = new S3FileStore({
      bucket: 'extractor-files',
      prefix: '',
      tmpDir: join(running.dataDir, 'tmp'),
      clientConfig: {
        endpoint,
        region: 'us-east-1',
        credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
        maxAttempts: 1,
      },
    });
    cleanups.push(() => hung.close());

    const started = Date.now();
    const readiness = await checkReadiness(
      {
        db: running.services.db,
        storage: hung,
        dataDirectory: running.services.dataDirectory,
        logger: pino({ level: 'silent' }),
      },
      300,
    );
    expect(readiness).toEqual({
      ready: false,
      checks: { database: 'ok', files: 'failing', disk: 'ok' },
      reasons: {},
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
