import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBucket, createExtractor, expectProblem, insertRun } from '../testing/fixtures.js';
import { expectCollection, type ShapeName } from '../testing/representations.js';
import { startTestService, type TestService } from '../testing/test-service.js';
import { resourceMediaTypes } from './negotiation.js';

let service: TestService;
/** Each collection's resources, newest first, in their JSON form. */
const everything = new Map<
  string,
  { shape: ShapeName; resources: { id: string }[]; query?: string }
>();

beforeAll(async () => {
  service = await startTestService();
  const extractor = await createExtractor(service);
  const bucket = await createBucket(service);
  for (let index = 0; index < 61; index++) {
    await createBucket(service, { description: `bucket ${index}` });
    await createExtractor(service, { label: `Extractor ${index}` });
    await insertRun(service, {
      bucketId: bucket.id,
      extractorId: extractor.id,
      created_at: new Date(Date.UTC(2026, 1, 1, 10, index)).toISOString(),
    });
  }
  // The expected order comes from the store itself, not from the API under test.
  const { db } = service.services;
  const newestFirst = (table: 'buckets' | 'extractors' | 'runs') => {
    const rows = db.selectFrom(table).select('id');
    return (table === 'runs' ? rows : rows.where('deleted_at', 'is', null))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  };
  const [bucketIds, extractorIds, runIds] = [
    await newestFirst('buckets'),
    await newestFirst('extractors'),
    await newestFirst('runs'),
  ];
  const wires = async (base: string, rows: { id: string }[]) =>
    Promise.all(
      rows.map(
        async (row) =>
          (await (await service.json('GET', `${base}/${row.id}`)).json()) as { id: string },
      ),
    );
  const [buckets, extractors, runs] = [
    await wires('/api/buckets', bucketIds),
    await wires('/api/extractors', extractorIds),
    await wires('/api/runs', runIds),
  ];
  everything.set('/api/buckets', { shape: 'bucket', resources: buckets });
  everything.set('/api/extractors', { shape: 'extractor', resources: extractors });
  everything.set('/api/saved_extractors', { shape: 'extractor', resources: extractors });
  everything.set('/api/runs', { shape: 'run', resources: runs });
  everything.set('/api/extraction_runs', {
    shape: 'run',
    resources: runs,
    query: `saved_extractor_id=${extractor.id}`,
  });
});

afterAll(async () => {
  await service.dispose();
});

async function page(
  path: string,
  query: string | undefined,
  number: number | '',
): Promise<{ id: string }[]> {
  const response = await service.json('GET', `${path}?${query ? `${query}&` : ''}page=${number}`);
  expect(response.status).toBe(200);
  return (await response.json()) as { id: string }[];
}

const collections = [
  '/api/buckets',
  '/api/extractors',
  '/api/saved_extractors',
  '/api/runs',
  '/api/extraction_runs',
];

describe.each(collections)('paging %s', (path) => {
  it('pages through every resource once, 30 at a time, newest first', async () => {
    const entry = everything.get(path)!;
    const total = entry.resources.length;
    expect(total).toBeGreaterThanOrEqual(61);
    const pages = Math.ceil(total / 30);
    const seen: { id: string }[] = [];
    for (let number = 1; number <= pages; number++) {
      const resources = await page(path, entry.query, number);
      expect(resources).toHaveLength(number < pages ? 30 : total - 30 * (pages - 1));
      seen.push(...resources);
    }
    expect(seen.map((resource) => resource.id)).toEqual(
      entry.resources.map((resource) => resource.id),
    );
  });

  it.each(resourceMediaTypes)(
    'links the first, a middle and the last page correctly in %s',
    async (mediaType) => {
      const entry = everything.get(path)!;
      const total = entry.resources.length;
      const last = Math.ceil(total / 30);
      expect(last).toBeGreaterThanOrEqual(3);
      for (const number of [1, 2, last]) {
        const expected = entry.resources.slice((number - 1) * 30, number * 30);
        const response = await service.request(
          `${path}?${entry.query ? `${entry.query}&` : ''}page=${number}`,
          {
            headers: { Accept: mediaType },
          },
        );
        await expectCollection(response, mediaType, entry.shape, expected, {
          path,
          page: number,
          totalItems: total,
          query: entry.query,
        });
      }
    },
  );

  it('reads an empty page as the first and answers an empty page past the end', async () => {
    const entry = everything.get(path)!;
    expect(await page(path, entry.query, '')).toEqual(await page(path, entry.query, 1));
    expect(
      await service
        .json('GET', `${path}${entry.query ? `?${entry.query}` : ''}`)
        .then((r) => r.json()),
    ).toEqual(await page(path, entry.query, 1));
    const beyond = await service.request(
      `${path}?${entry.query ? `${entry.query}&` : ''}page=999`,
      { headers: { Accept: 'application/ld+json' } },
    );
    const document = (await beyond.json()) as { member: unknown[]; view: Record<string, string> };
    const last = Math.ceil(entry.resources.length / 30);
    expect(document.member).toEqual([]);
    expect(document.view.previous).toMatch(new RegExp(`page=${last}$`));
    expect(document.view.next).toBeUndefined();
  });

  it.each([
    'abc',
    '0',
    '-1',
    '1.5',
    '1e3',
    '0x10',
    '%201',
    '1%20',
    '9999999999',
    '%00',
    '1%00',
    'page',
  ])('answers 400 for page=%s', async (value) => {
    const problem = await expectProblem(await service.request(`${path}?page=${value}`), 400);
    expect(problem.errors).toEqual([{ parameter: 'page', detail: expect.any(String) }]);
  });
});
