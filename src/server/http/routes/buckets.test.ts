import { describe, expect, it } from 'vitest';
import type { Bucket } from '../../../contract/resources.js';
import {
  createBucket,
  createExtractor,
  expectErrorAnswer,
  expectProblem,
  insertRun,
  storedState,
  upload,
} from '../../testing/fixtures.js';
import { encodeBody, expectCollection, expectResource } from '../../testing/representations.js';
import { useTestService } from '../../testing/test-service.js';
import { resourceMediaTypes } from '../negotiation.js';

const service = useTestService();

async function getBucket(id: string): Promise<Bucket> {
  const response = await service.json('GET', `/api/buckets/${id}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Bucket;
}

describe('POST /api/buckets', () => {
  it.each(resourceMediaTypes)('creates a bucket and answers 201 in %s', async (mediaType) => {
    const response = await service.request('/api/buckets', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: mediaType },
      body: JSON.stringify({ description: `answered as ${mediaType}` }),
    });
    expect(response.status).toBe(201);
    const location = response.headers.get('location')!;
    expect(location).toMatch(/^\/api\/buckets\/[0-9a-f-]{36}$/);
    const id = location.split('/').pop()!;
    const stored = await getBucket(id);
    expect(stored).toMatchObject({
      description: `answered as ${mediaType}`,
      createdUsing: 'api',
      deletedAt: null,
      artifacts: '[]',
      runs: [],
    });
    await expectResource(response, mediaType, 'bucket', stored as Bucket & { id: string });
  });

  it.each(resourceMediaTypes)('reads a body in %s', async (mediaType) => {
    const description = 'Invoices, "Q3", <2024> & more';
    const response = await service.request('/api/buckets', {
      method: 'POST',
      headers: { 'Content-Type': mediaType },
      body: encodeBody(mediaType, { description }, 'ExtractionBucket'),
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const bucket = (await response.json()) as Bucket;
    expect(bucket.description).toBe(description);
    expect((await getBucket(bucket.id)).description).toBe(description);
  });

  it('ignores read-only fields and gives every bucket a fresh, unguessable id', async () => {
    const response = await service.json('POST', '/api/buckets', {
      id: 'chosen-by-client',
      createdAt: '1999-01-01T00:00:00.000Z',
      updatedAt: '1999-01-01T00:00:00.000Z',
      deletedAt: '1999-01-01T00:00:00.000Z',
      artifacts: '[{"id":"x"}]',
      runs: ['/api/runs/x'],
    });
    expect(response.headers.get('extractor-ignored-fields')).toBe(
      '"/id", "/deletedAt", "/createdAt", "/updatedAt", "/artifacts", "/runs"',
    );
    const bucket = (await response.json()) as Bucket;
    expect(bucket.id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(bucket).toMatchObject({
      deletedAt: null,
      artifacts: '[]',
      runs: [],
      description: null,
      createdUsing: 'api',
    });
    expect(Date.now() - Date.parse(bucket.createdAt!)).toBeLessThan(60_000);
    const other = await createBucket(service);
    expect(other.id).not.toBe(bucket.id);
  });

  it('records how the bucket came to be', async () => {
    expect((await createBucket(service)).createdUsing).toBe('api');
    expect((await createBucket(service, { createdUsing: 'embed' })).createdUsing).toBe('embed');
  });

  it('answers 400 for a body that is not a document of its type, and stores nothing', async () => {
    const before = await storedState(service);
    const bodies: [string, string][] = [
      ['application/json', '{"description": '],
      ['application/json', '["a list"]'],
      ['application/json', ''],
      ['application/vnd.api+json', '{"attributes": {}}'],
      ['application/ld+json', 'null'],
      ['text/csv', 'description\r\none\r\ntwo\r\n'],
      ['text/csv', 'description,createdUsing\r\n"never closed\r\n'],
      ['text/html', '<p>no definition list</p>'],
    ];
    for (const [type, body] of bodies) {
      // A client that sends JSON:API is answered in JSON:API.
      await expectErrorAnswer(
        await service.request('/api/buckets', {
          method: 'POST',
          headers: { 'Content-Type': type },
          body,
        }),
        400,
        type,
      );
    }
    expect(await storedState(service)).toEqual(before);
  });

  it('answers 422 with a JSON pointer for each invalid value, and stores nothing', async () => {
    const before = await storedState(service);
    const problem = await expectProblem(
      await service.json('POST', '/api/buckets', {
        description: 42,
        createdUsing: 'carrier pigeon',
      }),
      422,
    );
    expect(problem.errors?.map((error) => error.pointer).sort()).toEqual([
      '/createdUsing',
      '/description',
    ]);
    expect(problem.errors?.every((error) => error.detail.length > 0)).toBe(true);
    expect(await storedState(service)).toEqual(before);
  });

  it('answers 415 for a body of another type, naming the accepted ones', async () => {
    const response = await service.request('/api/buckets', {
      method: 'POST',
      headers: { 'Content-Type': 'application/xml' },
      body: '<bucket/>',
    });
    expect(response.headers.get('accept-post')).toBe(resourceMediaTypes.join(', '));
    const problem = await expectProblem(response, 415);
    expect(problem.allowed).toEqual([...resourceMediaTypes]);
  });

  it('answers 406 before creating anything when no acceptable type can be produced', async () => {
    const before = await storedState(service);
    const response = await service.request('/api/buckets', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/xml' },
      body: '{}',
    });
    await expectProblem(response, 406);
    expect(await storedState(service)).toEqual(before);
  });
});

describe('GET /api/buckets/{id}', () => {
  it.each(resourceMediaTypes)(
    'answers with the bucket in %s, its files in artifacts and its runs',
    async (mediaType) => {
      const bucket = await createBucket(service, {
        description: 'with <files>, "runs", and =formulas',
      });
      const extractor = await createExtractor(service);
      const uploaded = (await (
        await upload(service, bucket.id, [{ name: 'a.txt', bytes: 'hello\n' }])
      ).json()) as { id: string }[];
      const run = await insertRun(service, { bucketId: bucket.id, extractorId: extractor.id });
      const stored = await getBucket(bucket.id);
      expect(stored.runs).toEqual([`/api/runs/${run.id}`]);
      expect(JSON.parse(stored.artifacts!)).toEqual([
        expect.objectContaining({ id: uploaded[0]!.id, name: 'a.txt', size: 6 }),
      ]);
      const response = await service.request(`/api/buckets/${bucket.id}`, {
        headers: { Accept: mediaType },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('vary')).toBe('Accept');
      await expectResource(response, mediaType, 'bucket', stored as Bucket & { id: string });
    },
  );

  it.each(resourceMediaTypes)(
    'answers 404 as an error document for an unknown id, asked for %s',
    async (mediaType) => {
      const response = await service.request('/api/buckets/01900000-0000-7000-8000-000000000000', {
        headers: { Accept: mediaType },
      });
      await expectErrorAnswer(response, 404, mediaType);
    },
  );

  it('accepts the spec query parameters model and output_instructions without effect', async () => {
    const bucket = await createBucket(service);
    const response = await service.json(
      'GET',
      `/api/buckets/${bucket.id}?model=local&output_instructions=x`,
    );
    expect(await response.json()).toEqual(await getBucket(bucket.id));
  });
});

describe('GET /api/buckets', () => {
  it.each(resourceMediaTypes)('lists buckets newest first in %s', async (mediaType) => {
    const all = (await (await service.json('GET', '/api/buckets')).json()) as Bucket[];
    const total = Number((await service.json('GET', '/api/buckets')).headers.get('x-total-count'));
    const response = await service.request('/api/buckets', { headers: { Accept: mediaType } });
    await expectCollection(response, mediaType, 'bucket', all as (Bucket & { id: string })[], {
      path: '/api/buckets',
      page: 1,
      totalItems: total,
    });
    const created = all.map((bucket) => bucket.createdAt!);
    expect(created).toEqual([...created].sort().reverse());
  });
});

describe('DELETE /api/buckets/{id}', () => {
  it('deletes softly: 204, then 404 and gone from the list, while the row stays', async () => {
    const bucket = await createBucket(service);
    const response = await service.request(`/api/buckets/${bucket.id}`, { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    await expectProblem(await service.json('GET', `/api/buckets/${bucket.id}`), 404);
    await expectProblem(await service.request(`/api/buckets/${bucket.id}/files`), 404);
    await expectProblem(
      await upload(service, bucket.id, [{ name: 'late.txt', bytes: 'too late' }]),
      404,
    );
    const list = (await (await service.json('GET', '/api/buckets?page=1')).json()) as Bucket[];
    expect(list.map((item) => item.id)).not.toContain(bucket.id);
    const row = await service.services.db
      .selectFrom('buckets')
      .selectAll()
      .where('id', '=', bucket.id)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    await expectProblem(
      await service.request(`/api/buckets/${bucket.id}`, { method: 'DELETE' }),
      404,
    );
  });

  it('answers 404 for an id that never existed', async () => {
    await expectProblem(
      await service.request('/api/buckets/no-such-bucket', { method: 'DELETE' }),
      404,
    );
  });

  it('takes an id in upper case as the same id (UUIDs are case-insensitive)', async () => {
    const bucket = await createBucket(service, { description: 'shouting' });
    const upper = bucket.id.toUpperCase();
    const read = await service.json('GET', `/api/buckets/${upper}`);
    expect(read.status).toBe(200);
    expect(((await read.json()) as Bucket).id).toBe(bucket.id);
    const listed = await service.json('GET', `/api/buckets/${upper}/files`);
    expect(listed.status).toBe(200);
    await listed.body?.cancel();
    expect((await service.request(`/api/buckets/${upper}`, { method: 'DELETE' })).status).toBe(204);
    await expectProblem(await service.json('GET', `/api/buckets/${bucket.id}`), 404);
  });

  it('answers 405 with Allow for a method the address does not answer', async () => {
    const bucket = await createBucket(service);
    const response = await service.json('PUT', `/api/buckets/${bucket.id}`, {});
    expect(response.headers.get('allow')).toBe('GET, HEAD, DELETE');
    await expectProblem(response, 405);
  });
});
