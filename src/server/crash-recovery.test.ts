/**
 * A 201 means the resource is on disk: the real server is killed with SIGKILL the moment
 * each 201 arrives (no shutdown, no flushing), restarted on the same data directory, and
 * what it answered for is still there, the uploaded bytes included.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Bucket, BucketFile, Extractor } from '../contract/resources.js';
import { extractorInput, uploadForm } from './testing/fixtures.js';
import { startRealServer, type RealServer } from './testing/real-server.js';

const token = 'xpat_crash-test-token-0123456789abcdef';
const dataDir = mkdtempSync(join(tmpdir(), 'extractor-crash-'));
let server: RealServer | undefined;

async function start(): Promise<RealServer> {
  server = await startRealServer({
    dataDir,
    env: { EXTRACTOR_ADMIN_TOKEN: token, LOG_LEVEL: 'warn' },
  });
  return server;
}

/**
 * Sends a request and kills the server with SIGKILL as soon as the status line and headers
 * of a 201 have arrived, before anything else can happen in it.
 */
function sendThenKill(
  target: RealServer,
  path: string,
  body: Buffer,
  contentType: string,
): Promise<IncomingHttpHeaders> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      `${target.baseUrl}${path}`,
      {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': contentType,
          'Content-Length': body.length,
        },
      },
      (response) => {
        if (response.statusCode === 201) target.child.kill('SIGKILL');
        else reject(new Error(`${path} answered ${response.statusCode}`));
        response.resume();
        resolve(response.headers);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

async function killedAfter201(
  path: string,
  body: Buffer,
  contentType: string,
): Promise<IncomingHttpHeaders> {
  const target = await start();
  const headers = await sendThenKill(target, path, body, contentType);
  await target.exited;
  expect(target.child.signalCode).toBe('SIGKILL');
  return headers;
}

async function getJson<T>(target: RealServer, path: string): Promise<T> {
  const response = await fetch(`${target.baseUrl}${path}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('SIGKILL right after a 201', () => {
  it('keeps a created bucket, a created extractor and an uploaded file, bytes and all', async () => {
    const bucketHeaders = await killedAfter201(
      '/api/buckets',
      Buffer.from('{"description":"survives"}'),
      'application/json',
    );
    const bucketPath = bucketHeaders.location!;
    expect(bucketPath).toMatch(/^\/api\/buckets\/[0-9a-f-]{36}$/);

    const extractorHeaders = await killedAfter201(
      '/api/saved_extractors',
      Buffer.from(JSON.stringify(extractorInput({ label: 'Survivor' }))),
      'application/json',
    );
    const extractorPath = extractorHeaders.location!;

    // A few megabytes of random bytes behind a PDF signature: accepted, and nothing to guess.
    const bytes = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(4 * 1024 * 1024)]);
    const form = new Response(uploadForm([{ name: 'survivor.pdf', bytes }]));
    const multipart = Buffer.from(await form.arrayBuffer());
    await killedAfter201(`${bucketPath}/files`, multipart, form.headers.get('content-type')!);

    const restarted = await start();
    const bucket = await getJson<Bucket>(restarted, bucketPath);
    expect(bucket.description).toBe('survives');
    expect((await getJson<Extractor>(restarted, extractorPath)).label).toBe('Survivor');
    const files = await getJson<BucketFile[]>(restarted, `${bucketPath}/files`);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(files).toEqual([
      expect.objectContaining({
        name: 'survivor.pdf',
        size: bytes.length,
        sha256,
        mediaType: 'application/pdf',
      }),
    ]);
    expect(JSON.parse(bucket.artifacts!)).toEqual(files);
    const content = await fetch(`${restarted.baseUrl}${files[0]!.contentUrl}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const stored = Buffer.from(await content.arrayBuffer());
    expect(createHash('sha256').update(stored).digest('hex')).toBe(sha256);
    await restarted.stop();
  });
});
