/**
 * The S3 file store against a stand-in that speaks S3's protocol (s3rver, in a process of
 * its own): what is committed comes back byte for byte, under the configured prefix; a
 * removed file is gone; a large file goes up in parts and comes down as a stream, neither
 * way growing this process's memory by anything like its size.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
} from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { documentsOfResults, type BucketFile } from '../../contract/resources.js';
import { newId } from '../store/ids.js';
import { createBucket, upload } from '../testing/fixtures.js';
import { startS3StandIn, type S3StandIn } from '../testing/s3-stand-in.js';
import { startTestService } from '../testing/test-service.js';
import { S3FileStore } from './s3-store.js';

let standIn: S3StandIn;
let tmpDir: string;
let store: S3FileStore;

beforeAll(async () => {
  standIn = await startS3StandIn();
  tmpDir = mkdtempSync(join(tmpdir(), 'extractor-s3-store-'));
  store = new S3FileStore({
    bucket: standIn.bucket,
    prefix: 'tenant-a/files',
    tmpDir: join(tmpDir, 'tmp'),
    clientConfig: standIn.clientConfig,
  });
  await store.init();
});

afterAll(async () => {
  store.close();
  await standIn.stop();
  rmSync(tmpDir, { recursive: true, force: true });
});

async function sha256Of(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A temporary file as an upload leaves it, with its hash. */
async function temporaryFile(bytes: Buffer): Promise<{ path: string; sha256: string }> {
  const path = store.newTempPath();
  await writeFile(path, bytes);
  return { path, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** Runs `work` while sampling this process's resident memory; the most it grew by. */
async function growthWhile(work: () => Promise<void>): Promise<number> {
  const before = process.memoryUsage.rss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return Math.max(peak, process.memoryUsage.rss()) - before;
}

describe('the S3 file store', () => {
  it('keeps a committed file under its prefix and gives the same bytes back', async () => {
    const bucketId = newId();
    const fileId = newId();
    const file = await temporaryFile(randomBytes(100_000));
    await store.commit(file.path, bucketId, fileId);

    expect(existsSync(file.path)).toBe(false);
    const listed = await store.client.send(
      new ListObjectsV2Command({ Bucket: standIn.bucket, Prefix: 'tenant-a/files/' }),
    );
    expect(listed.Contents?.map((object) => object.Key)).toContain(
      `tenant-a/files/${bucketId}/${fileId}`,
    );
    expect(await sha256Of(store.read(bucketId, fileId))).toBe(file.sha256);

    const copy = await store.localCopy(bucketId, fileId);
    expect(await sha256Of(createReadStream(copy.path))).toBe(file.sha256);
    await copy.release();
    expect(existsSync(copy.path)).toBe(false);
  });

  it('forgets a removed file: reading it fails the stream, and a local copy is refused', async () => {
    const bucketId = newId();
    const fileId = newId();
    await store.commit((await temporaryFile(Buffer.from('short-lived'))).path, bucketId, fileId);
    await store.remove(bucketId, fileId);

    const stream = store.read(bucketId, fileId);
    stream.resume();
    await expect(finished(stream)).rejects.toMatchObject({ name: 'NoSuchKey' });
    await expect(store.localCopy(bucketId, fileId)).rejects.toMatchObject({ name: 'NoSuchKey' });
  });

  it('refuses a key that is not built from the service’s own ids', () => {
    expect(() => store.read('../other-tenant', newId())).toThrow(/Not a storage id/);
    expect(() => store.keyOf(newId(), 'a/b')).toThrow(/Not a storage id/);
  });

  it('streams a large file up in parts and back down without holding it in memory', async () => {
    const size = 96 * 1024 * 1024;
    const path = store.newTempPath();
    const hash = createHash('sha256');
    const out = createWriteStream(path);
    for (let written = 0; written < size; written += 1024 * 1024) {
      const chunk = randomBytes(1024 * 1024);
      hash.update(chunk);
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', resolve));
    }
    out.end();
    await finished(out);
    const sha256 = hash.digest('hex');
    const bucketId = newId();
    const fileId = newId();

    const commands: string[] = [];
    store.client.middlewareStack.add(
      (next, context) => (args) => {
        commands.push(context.commandName ?? '');
        return next(args);
      },
      { name: 'recordCommands' },
    );
    const up = await growthWhile(() => store.commit(path, bucketId, fileId));
    store.client.middlewareStack.remove('recordCommands');
    const head = await store.client.send(
      new HeadObjectCommand({ Bucket: standIn.bucket, Key: store.keyOf(bucketId, fileId) }),
    );
    expect(head.ContentLength).toBe(size);
    expect(commands.filter((name) => name === 'UploadPartCommand').length).toBeGreaterThan(10);
    expect(commands).toContain('CompleteMultipartUploadCommand');

    let downloaded = '';
    const down = await growthWhile(async () => {
      downloaded = await sha256Of(store.read(bucketId, fileId));
    });
    expect(downloaded).toBe(sha256);
    expect(up).toBeLessThan(size / 3);
    expect(down).toBeLessThan(size / 3);
  });

  it('sweeps only objects no row knows that are older than the grace period', async () => {
    const bucketId = newId();
    const known = newId();
    const orphan = newId();
    for (const fileId of [known, orphan])
      await store.commit((await temporaryFile(Buffer.from(fileId))).path, bucketId, fileId);
    // Something else's object under the prefix is never touched.
    await store.client.send(
      new PutObjectCommand({
        Bucket: standIn.bucket,
        Key: 'tenant-a/files/notes.txt',
        Body: 'not ours',
      }),
    );
    const isKnown = (b: string, f: string) => b !== bucketId || f === known;

    expect(await store.sweep(isKnown)).toBe(0);
    const eager = new S3FileStore({
      bucket: standIn.bucket,
      prefix: 'tenant-a/files',
      tmpDir: join(tmpDir, 'tmp'),
      clientConfig: standIn.clientConfig,
      sweepGraceMs: 0,
    });
    expect(await eager.sweep(isKnown)).toBe(1);
    eager.close();

    expect(await sha256Of(store.read(bucketId, known))).toBe(
      createHash('sha256').update(known).digest('hex'),
    );
    await expect(store.localCopy(bucketId, orphan)).rejects.toMatchObject({ name: 'NoSuchKey' });
    const notes = await store.client.send(
      new GetObjectCommand({ Bucket: standIn.bucket, Key: 'tenant-a/files/notes.txt' }),
    );
    expect(await notes.Body?.transformToString()).toBe('not ours');
  });

  it('is ready when its bucket answers, and says why not when it does not', async () => {
    await expect(store.check()).resolves.toBeUndefined();
    const missing = new S3FileStore({
      bucket: 'no-such-bucket',
      prefix: '',
      tmpDir: join(tmpDir, 'tmp'),
      clientConfig: standIn.clientConfig,
    });
    await expect(missing.check()).rejects.toThrow();
    missing.close();
  });
});

describe('the service on FILES_URL=s3://…', () => {
  beforeAll(() => {
    // The SDK reads its endpoint and credentials from the environment, as in production.
    for (const [name, value] of Object.entries(standIn.env)) vi.stubEnv(name, value);
  });
  afterAll(() => {
    vi.unstubAllEnvs();
  });

  it('uploads into the bucket under the prefix, serves the bytes back, and deletes them', async () => {
    const service = await startTestService({
      FILES_URL: `s3://${standIn.bucket}/service-test`,
      WORKER_CONCURRENCY: '0',
    });
    try {
      const bucket = await createBucket(service);
      const bytes = randomBytes(200_000).toString('base64');
      const response = await upload(service, bucket.id, [{ name: 'notes.txt', bytes }]);
      expect(response.status).toBe(201);
      const [file] = (await response.json()) as BucketFile[];
      const key = `service-test/${bucket.id}/${file!.id}`;
      const stored = await store.client.send(
        new GetObjectCommand({ Bucket: standIn.bucket, Key: key }),
      );
      expect(await stored.Body?.transformToString()).toBe(bytes);

      const content = await service.request(`/api/buckets/${bucket.id}/files/${file!.id}/content`);
      expect(content.status).toBe(200);
      expect(await content.text()).toBe(bytes);

      const removed = await service.request(`/api/buckets/${bucket.id}/files/${file!.id}`, {
        method: 'DELETE',
      });
      expect(removed.status).toBe(204);
      await expect(
        store.client.send(new HeadObjectCommand({ Bucket: standIn.bucket, Key: key })),
      ).rejects.toMatchObject({ name: 'NotFound' });
    } finally {
      await service.dispose();
    }
  });

  it('works runs from its documents, leaving no local copy, and names a file that is gone', async () => {
    const service = await startTestService({
      FILES_URL: `s3://${standIn.bucket}/worker-test`,
      WORKER_CONCURRENCY: '1',
      WORKER_POLL_MS: '50',
    });
    try {
      const extractors = (await (await service.json('GET', '/api/extractors')).json()) as {
        id: string;
      }[];
      const run = async (bucketId: string) => {
        const created = await service.json('POST', '/api/extraction_runs', {
          bucket: bucketId,
          savedExtractor: extractors[0]!.id,
        });
        expect(created.status).toBe(201);
        const { id } = (await created.json()) as { id: string };
        const deadline = Date.now() + 30_000;
        for (;;) {
          const current = (await (await service.json('GET', `/api/runs/${id}`)).json()) as {
            status: string;
            error: string | null;
            resultJson: string | null;
          };
          if (!['queued', 'running'].includes(current.status) || Date.now() > deadline)
            return current;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      const bucket = await createBucket(service);
      const text = 'Invoice number: S3-4711\nDate: 2024-03-01\nTotal: 12.50 EUR\n';
      const uploaded = await upload(service, bucket.id, [{ name: 'invoice.txt', bytes: text }]);
      const [file] = (await uploaded.json()) as BucketFile[];

      const done = await run(bucket.id);
      expect(done).toMatchObject({ status: 'completed', error: null });
      expect(documentsOfResults(done.resultJson)[0]?.data).toMatchObject({
        invoice_number: 'S3-4711',
      });
      // The download the reader worked from was removed once it was read.
      expect(readdirSync(join(service.dataDir, 'tmp'))).toEqual([]);

      await store.client.send(
        new DeleteObjectCommand({
          Bucket: standIn.bucket,
          Key: `worker-test/${bucket.id}/${file!.id}`,
        }),
      );
      const failed = await run(bucket.id);
      expect(failed.status).toBe('failed');
      expect(failed.error).toBe('invoice.txt is missing from the file store.');
    } finally {
      await service.dispose();
    }
  });
});
