import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Bucket, BucketFile } from '../../../contract/resources.js';
import {
  createBucket,
  createExtractor,
  expectProblem,
  insertRun,
  storedState,
  upload,
  uploaded,
} from '../../testing/fixtures.js';
import { expectCollection, expectResource } from '../../testing/representations.js';
import { sampleFiles } from '../../testing/sample-files.js';
import { useTestService } from '../../testing/test-service.js';
import { resourceMediaTypes } from '../negotiation.js';

const service = useTestService();

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

describe('POST /api/buckets/{id}/files', () => {
  it.each(resourceMediaTypes)('answers 201 with the file resources in %s', async (mediaType) => {
    const bucket = await createBucket(service);
    const pdf = sampleFiles.pdf();
    const response = await upload(
      service,
      bucket.id,
      [
        { name: 'invoice.pdf', bytes: pdf },
        { name: 'notes.txt', bytes: 'Total: 12\n' },
      ],
      {
        accept: mediaType,
      },
    );
    expect(response.status).toBe(201);
    const listed = (await (
      await service.json('GET', `/api/buckets/${bucket.id}/files`)
    ).json()) as BucketFile[];
    expect(listed).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        bucket: `/api/buckets/${bucket.id}`,
        name: 'invoice.pdf',
        size: pdf.length,
        mediaType: 'application/pdf',
        sha256: sha256(pdf),
        createdAt: expect.any(String),
        contentUrl: `/api/buckets/${bucket.id}/files/${listed[0]!.id}/content`,
        pageCount: 1,
        pageKind: 'image',
      },
      expect.objectContaining({
        name: 'notes.txt',
        size: 10,
        mediaType: 'text/plain',
        sha256: sha256('Total: 12\n'),
        pageCount: 1,
        pageKind: 'text',
      }),
    ]);
    await expectCollection(response, mediaType, 'file', listed as (BucketFile & { id: string })[], {
      path: `/api/buckets/${bucket.id}/files`,
      page: 1,
      totalItems: 2,
      itemsPerPage: 2,
      status: 201,
    });
  });

  it('reports the files in the bucket artifacts', async () => {
    const bucket = await createBucket(service);
    const files = await uploaded(service, bucket.id, [{ name: 'a.txt', bytes: 'first\n' }]);
    const later = await uploaded(service, bucket.id, [{ name: 'b.csv', bytes: 'a,b\n1,2\n' }]);
    const stored = (await (
      await service.json('GET', `/api/buckets/${bucket.id}`)
    ).json()) as Bucket;
    expect(JSON.parse(stored.artifacts!)).toEqual([...files, ...later]);
  });
});

describe('GET /api/buckets/{id}/files and /files/{fileId}', () => {
  it.each(resourceMediaTypes)('lists the files and reads one in %s', async (mediaType) => {
    const bucket = await createBucket(service);
    const files = await uploaded(service, bucket.id, [
      { name: 'one.md', bytes: '# One\n\n- item\n' },
      { name: 'two.png', bytes: sampleFiles.png() },
    ]);
    await expectCollection(
      await service.request(`/api/buckets/${bucket.id}/files?page=`, {
        headers: { Accept: mediaType },
      }),
      mediaType,
      'file',
      files as (BucketFile & { id: string })[],
      { path: `/api/buckets/${bucket.id}/files`, page: 1, totalItems: 2 },
    );
    const response = await service.request(`/api/buckets/${bucket.id}/files/${files[1]!.id}`, {
      headers: { Accept: mediaType },
    });
    expect(response.status).toBe(200);
    await expectResource(response, mediaType, 'file', files[1] as BucketFile & { id: string });
  });

  it('answers 404 for a file of another bucket and for an unknown file', async () => {
    const [first, second] = [await createBucket(service), await createBucket(service)];
    const [file] = await uploaded(service, first.id, [{ name: 'a.txt', bytes: 'mine\n' }]);
    await expectProblem(await service.request(`/api/buckets/${second.id}/files/${file!.id}`), 404);
    await expectProblem(
      await service.request(`/api/buckets/${second.id}/files/${file!.id}/content`),
      404,
    );
    await expectProblem(
      await service.request(`/api/buckets/${second.id}/files/${file!.id}`, { method: 'DELETE' }),
      404,
    );
    await expectProblem(
      await service.request(`/api/buckets/${first.id}/files/01900000-0000-7000-8000-000000000000`),
      404,
    );
  });

  it('answers 400 for a page that is not a positive whole number', async () => {
    const bucket = await createBucket(service);
    const problem = await expectProblem(
      await service.request(`/api/buckets/${bucket.id}/files?page=0`),
      400,
    );
    expect(problem.errors).toEqual([{ parameter: 'page', detail: expect.any(String) }]);
  });
});

describe('GET /api/buckets/{id}/files/{fileId}/content', () => {
  it('answers the exact bytes with their detected type, length and a safe download name', async () => {
    const bucket = await createBucket(service);
    const png = sampleFiles.png();
    const [file] = await uploaded(service, bucket.id, [
      { name: 'Rechnung Müller (März).pdf', bytes: png, type: 'application/pdf' },
    ]);
    const response = await service.request(`/api/buckets/${bucket.id}/files/${file!.id}/content`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-length')).toBe(String(png.length));
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain('sandbox');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Rechnung M_ller (M_rz).pdf"; filename*=UTF-8''Rechnung%20M%C3%BCller%20%28M%C3%A4rz%29.pdf`,
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(sha256(bytes)).toBe(sha256(png));
    expect(file!.sha256).toBe(sha256(png));
  });

  it('serves uploaded HTML as an inert attachment, never as a page of the service', async () => {
    const bucket = await createBucket(service);
    const [file] = await uploaded(service, bucket.id, [
      { name: 'page.html', bytes: '<!doctype html><script>alert(1)</script><p>x</p>' },
    ]);
    const response = await service.request(`/api/buckets/${bucket.id}/files/${file!.id}/content`);
    expect(response.headers.get('content-type')).toBe('text/html');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(response.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
  });
});

describe('DELETE /api/buckets/{id}/files/{fileId}', () => {
  it('removes the file: 204, then 404, gone from the list, the artifacts and the disk', async () => {
    const bucket = await createBucket(service);
    const [kept, removed] = await uploaded(service, bucket.id, [
      { name: 'keep.txt', bytes: 'keep\n' },
      { name: 'remove.txt', bytes: 'remove\n' },
    ]);
    const path = join(service.dataDir, 'files', bucket.id, removed!.id);
    expect(existsSync(path)).toBe(true);
    const response = await service.request(`/api/buckets/${bucket.id}/files/${removed!.id}`, {
      method: 'DELETE',
    });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(existsSync(path)).toBe(false);
    await expectProblem(
      await service.request(`/api/buckets/${bucket.id}/files/${removed!.id}`),
      404,
    );
    await expectProblem(
      await service.request(`/api/buckets/${bucket.id}/files/${removed!.id}/content`),
      404,
    );
    expect(await (await service.json('GET', `/api/buckets/${bucket.id}/files`)).json()).toEqual([
      kept,
    ]);
    const stored = (await (
      await service.json('GET', `/api/buckets/${bucket.id}`)
    ).json()) as Bucket;
    expect(JSON.parse(stored.artifacts!)).toEqual([kept]);
    await expectProblem(
      await service.request(`/api/buckets/${bucket.id}/files/${removed!.id}`, { method: 'DELETE' }),
      404,
    );
  });

  it('answers 409 while a run over the bucket is under way, and keeps the file', async () => {
    const bucket = await createBucket(service);
    const extractor = await createExtractor(service);
    const [file] = await uploaded(service, bucket.id, [{ name: 'busy.txt', bytes: 'in use\n' }]);
    await insertRun(service, { bucketId: bucket.id, extractorId: extractor.id, status: 'running' });
    const before = await storedState(service);
    const problem = await expectProblem(
      await service.request(`/api/buckets/${bucket.id}/files/${file!.id}`, { method: 'DELETE' }),
      409,
    );
    expect(problem.currentStatus).toBe('running');
    expect(await storedState(service)).toEqual(before);
  });
});
