/**
 * A full disk under the data directory, for real: the real server runs with DATA_DIR (its
 * SQLite database, files, temporary files and cache) on a small tmpfs, which the test fills
 * until the kernel answers ENOSPC. A write then answers 507 with a problem document at once
 * and keeps nothing of itself; the process lives on, starts again on the full disk, and
 * `/readyz` says not ready until there is room.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runSchema, type Bucket, type BucketFile, type Run } from '../contract/resources.js';
import { isFinalRunStatus } from '../contract/run-status.js';
import { answer, held, startChatCompletionsServer } from './testing/chat-completions-server.js';
import { expectProblem, uploadForm } from './testing/fixtures.js';
import { sampleFiles } from './testing/sample-files.js';
import { requestServer, startRealServer, type RealServer } from './testing/real-server.js';
import { mountSmallDisk, type SmallDisk } from './testing/small-disk.js';

const token = 'xpat_full-disk-test-token-0123456789';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A small disk, unmounted after the test. */
function smallDisk(megabytes = 16): SmallDisk {
  const disk = mountSmallDisk(megabytes);
  cleanups.push(() => disk.unmount());
  return disk;
}

/** The real server on `disk`, stopped after the test (before the disk is unmounted). */
async function serverOn(disk: SmallDisk, env: Record<string, string> = {}): Promise<RealServer> {
  const server = await startRealServer({
    dataDir: disk.path,
    // A reserve of 1 MB, enough for SQLite to open and to delete a row on the full disk.
    env: { EXTRACTOR_ADMIN_TOKEN: token, LOG_LEVEL: 'warn', DATA_DIR_RESERVE_MB: '1', ...env },
  });
  cleanups.push(() => server.stop());
  return server;
}

const call = (server: RealServer, method: string, path: string, body?: unknown) =>
  requestServer(server, token, method, path, body);

async function created<T>(response: Response): Promise<T> {
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as T;
}

const upload = (server: RealServer, bucketId: string, name: string, bytes: string | Buffer) =>
  call(server, 'POST', `/api/buckets/${bucketId}/files`, uploadForm([{ name, bytes }]));

/** A 507 problem document that says the disk is full, and that the process still answers. */
async function expectNoRoom(server: RealServer, response: Response): Promise<void> {
  const problem = await expectProblem(response, 507);
  expect(problem).toMatchObject({
    type: '/api/docs#problem-insufficient-storage',
    title: 'Insufficient storage',
  });
  expect(problem.detail).toMatch(/disk is full/);
  expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
}

describe('a full disk under DATA_DIR', () => {
  it('answers an upload 507 at once, and keeps no temporary file and no row of it', async () => {
    const disk = smallDisk();
    const server = await serverOn(disk);
    const bucket = await created<Bucket>(await call(server, 'POST', '/api/buckets', {}));
    const [kept] = await created<BucketFile[]>(
      await upload(server, bucket.id, 'kept.txt', 'Invoice INV-1\n'),
    );
    disk.fill();

    await expectNoRoom(
      server,
      await upload(server, bucket.id, 'lost.txt', 'Invoice INV-2\n'.repeat(20_000)),
    );
    expect(readdirSync(join(disk.path, 'tmp'))).toEqual([]);
    expect(readdirSync(join(disk.path, 'files', bucket.id))).toEqual([kept!.id]);

    disk.free();
    const files = (await (
      await call(server, 'GET', `/api/buckets/${bucket.id}/files`)
    ).json()) as BucketFile[];
    expect(files.map((file) => file.name)).toEqual(['kept.txt']);
    await created(await upload(server, bucket.id, 'later.txt', 'Invoice INV-3\n'));
  });

  it('answers a write to the database 507, not 500, a transaction included', async () => {
    const disk = smallDisk();
    const server = await serverOn(disk);
    const bucket = await created<Bucket>(await call(server, 'POST', '/api/buckets', {}));
    await created(await upload(server, bucket.id, 'a.txt', 'Invoice INV-1\n'));
    const [extractor] = (await (await call(server, 'GET', '/api/extractors')).json()) as {
      id: string;
    }[];
    disk.fill();

    await expectNoRoom(server, await call(server, 'POST', '/api/buckets', {}));
    // Created in one transaction with its documents and its first event.
    await expectNoRoom(
      server,
      await call(server, 'POST', '/api/extraction_runs', {
        bucket: bucket.id,
        savedExtractor: extractor!.id,
      }),
    );
    // Reading goes on.
    expect((await call(server, 'GET', `/api/buckets/${bucket.id}`)).status).toBe(200);

    disk.free();
    await created(await call(server, 'POST', '/api/buckets', {}));
  });

  it('answers a page picture it has no room to keep 507, and keeps nothing of it', async () => {
    const disk = smallDisk();
    const server = await serverOn(disk);
    const bucket = await created<Bucket>(await call(server, 'POST', '/api/buckets', {}));
    const [file] = await created<BucketFile[]>(
      await upload(server, bucket.id, 'scan.png', sampleFiles.png()),
    );
    disk.fill();

    const page = () =>
      fetch(`${server.baseUrl}/api/buckets/${bucket.id}/files/${file!.id}/pages/1?width=400`, {
        headers: { Authorization: `Bearer ${token}`, Accept: 'image/png' },
      });
    await expectNoRoom(server, await page());
    expect(readdirSync(join(disk.path, 'cache', 'pages'))).toEqual([]);

    disk.free();
    const drawn = await page();
    expect(drawn.status).toBe(200);
    expect(drawn.headers.get('content-type')).toBe('image/png');
  });

  it('makes /readyz say not ready, and why, until there is room again', async () => {
    const disk = smallDisk();
    const server = await serverOn(disk);
    expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
    disk.fill();

    const problem = await expectProblem(await fetch(`${server.baseUrl}/readyz`), 503);
    expect(problem.checks).toEqual({ database: 'ok', files: 'ok', disk: 'failing' });
    expect(problem.detail).toMatch(/the data directory cannot be written \(its disk is full\)/);
    expect(problem.detail).not.toContain(disk.path);
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);

    disk.free();
    const ready = await fetch(`${server.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ checks: { disk: 'ok' } });
  });
});

describe('a full disk under DATA_DIR: restarts, deletions and runs', () => {
  it('starts again on a full disk, answers reads, and is ready once there is room', async () => {
    const disk = smallDisk();
    const first = await serverOn(disk);
    const bucket = await created<Bucket>(await call(first, 'POST', '/api/buckets', {}));
    await first.stop();
    disk.fill();

    const server = await serverOn(disk);
    expect((await call(server, 'GET', `/api/buckets/${bucket.id}`)).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(503);

    disk.free();
    expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
    await created(await call(server, 'POST', '/api/buckets', {}));
  });

  it('deletes a file on a full disk, its bytes with it', async () => {
    const disk = smallDisk();
    const server = await serverOn(disk);
    const bucket = await created<Bucket>(await call(server, 'POST', '/api/buckets', {}));
    const [file] = await created<BucketFile[]>(
      await upload(server, bucket.id, 'big.txt', 'Invoice INV-1\n'.repeat(50_000)),
    );
    disk.fill();

    const path = `/api/buckets/${bucket.id}/files/${file!.id}`;
    expect((await call(server, 'DELETE', path)).status).toBe(204);
    expect((await call(server, 'GET', path)).status).toBe(404);
    expect(readdirSync(join(disk.path, 'files', bucket.id))).toEqual([]);
  });

  it('fails the document whose write found no room, says why, and lives on', async () => {
    const stand = await startChatCompletionsServer();
    cleanups.push(() => stand.close());
    const disk = smallDisk();
    const server = await serverOn(disk, {
      WORKER_CONCURRENCY: '1',
      WORKER_POLL_MS: '50',
      LLM_BASE_URL: stand.baseUrl,
      LLM_API_KEY: 'sk-test',
    });
    const extractor = await created<{ id: string }>(
      await call(server, 'POST', '/api/extractors', {
        label: 'Invoices',
        jsonSchema: JSON.stringify({
          type: 'object',
          properties: { invoice_number: { type: ['string', 'null'] } },
        }),
        strategy: 'llm',
        model: 'gpt-4o-mini',
      }),
    );
    const bucket = await created<Bucket>(await call(server, 'POST', '/api/buckets', {}));
    await created(await upload(server, bucket.id, 'first.txt', 'Invoice INV-1\n'));
    await created(await upload(server, bucket.id, 'second.txt', 'Invoice INV-2\n'));
    // The model holds the first document's answer while the disk fills.
    const first = held();
    stand.enqueue(first.reply);
    stand.fallback = answer({ invoice_number: 'INV-2' });
    const run = await created<Run>(
      await call(server, 'POST', '/api/extraction_runs', {
        bucket: bucket.id,
        savedExtractor: extractor.id,
      }),
    );
    await first.arrived;
    disk.fill();
    first.release(answer({ invoice_number: 'INV-1' }));

    let current: Run;
    do {
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(server.child.exitCode, `The server exited:\n${server.output()}`).toBeNull();
      current = runSchema.parse(
        await (await call(server, 'GET', `/api/extraction_runs/${run.id}`)).json(),
      );
    } while (!isFinalRunStatus(current.status));
    expect(server.child.exitCode).toBeNull();
    // Storing the first document's record found no room; why it failed is recorded (the
    // reserve made room for it), and the second document, which had room, completed.
    expect(current.status).toBe('partially_completed');
    expect(current.documents).toEqual([
      expect.objectContaining({
        name: 'first.txt',
        status: 'failed',
        errorCode: 'extraction_failed',
        error: expect.stringMatching(
          /first\.txt could not be extracted: the service's disk is full/,
        ),
      }),
      expect.objectContaining({ name: 'second.txt', status: 'completed' }),
    ]);
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
  });
});
