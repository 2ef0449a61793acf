import { describe, expect, it } from 'vitest';
import type { Run } from '../../../contract/resources.js';
import {
  createBucket,
  createExtractor,
  expectErrorAnswer,
  expectProblem,
  insertRun,
  insertRunOfNew,
  storedState,
  uploaded,
} from '../../testing/fixtures.js';
import { expectCollection, expectResource } from '../../testing/representations.js';
import { useTestService } from '../../testing/test-service.js';
import { resourceMediaTypes } from '../negotiation.js';

const service = useTestService();

const collections = ['/api/runs', '/api/extraction_runs'] as const;
type Wire = Run & { id: string };

async function list(path: string): Promise<Wire[]> {
  const response = await service.json('GET', path);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Wire[];
}

describe.each(collections)('GET %s/{id}', (base) => {
  it.each(resourceMediaTypes)('answers with the run in %s', async (mediaType) => {
    const [bucket, extractor] = [await createBucket(service), await createExtractor(service)];
    const row = await insertRun(service, {
      bucketId: bucket.id,
      extractorId: extractor.id,
      status: 'completed',
      result_json: '{"invoice_number":"=1+1","total":12.5}',
      partial_result_json: '{"invoice_number":"=1+1"}',
      token_stats: '[{"input":10,"output":4}]',
      total_input_tokens: 10,
      chunks_completed: 1,
      chunks_total: 1,
      evaluation_type: 'json-schema',
      started_at: '2026-03-01T10:00:00.000Z',
      finished_at: '2026-03-01T10:01:04.250Z',
    });
    const run = (await (await service.json('GET', `${base}/${row.id}`)).json()) as Wire;
    expect(run).toMatchObject({
      id: row.id,
      status: 'completed',
      bucket: `/api/buckets/${bucket.id}`,
      savedExtractor: `/api/extractors/${extractor.id}`,
      duration: 'PT64.25S',
      formattedDuration: '1m 04s',
      totalInputTokens: '10',
      data: row.result_json,
      partialData: row.result_json,
      chunkSize: 4000,
      includeText: true,
      includePageImages: false,
    });
    const response = await service.request(`${base}/${row.id}`, { headers: { Accept: mediaType } });
    expect(response.status).toBe(200);
    await expectResource(response, mediaType, 'run', run);
  });

  it('shows edited results as data and leaves timing fields null until the run ends', async () => {
    const [bucket, extractor] = [await createBucket(service), await createExtractor(service)];
    const queued = await insertRun(service, { bucketId: bucket.id, extractorId: extractor.id });
    expect(await (await service.json('GET', `${base}/${queued.id}`)).json()).toMatchObject({
      status: 'queued',
      startedAt: null,
      finishedAt: null,
      duration: null,
      formattedDuration: null,
      totalInputTokens: null,
      data: null,
      partialData: null,
    });
    const edited = await insertRun(service, {
      bucketId: bucket.id,
      extractorId: extractor.id,
      status: 'completed',
      result_json: '{"invoice_number":"A"}',
      edited_result_json: '{"invoice_number":"B"}',
      started_at: '2026-03-01T10:00:00.000Z',
      finished_at: '2026-03-01T10:00:00.400Z',
    });
    expect(await (await service.json('GET', `${base}/${edited.id}`)).json()).toMatchObject({
      resultJson: '{"invoice_number":"A"}',
      editedResultJson: '{"invoice_number":"B"}',
      data: '{"invoice_number":"B"}',
      formattedDuration: '<1s',
    });
  });

  it.each(resourceMediaTypes)('answers 404 for an unknown run, asked for %s', async (mediaType) => {
    await expectErrorAnswer(
      await service.request(`${base}/01900000-0000-7000-8000-000000000000`, {
        headers: { Accept: mediaType },
      }),
      404,
      mediaType,
    );
  });
});

describe.each(collections)('GET %s', (base) => {
  it.each(resourceMediaTypes)(
    'lists runs newest first in %s; JSON:API is a plain array',
    async (mediaType) => {
      const [bucket, extractor] = [await createBucket(service), await createExtractor(service)];
      for (const day of ['01', '03', '02']) {
        await insertRun(service, {
          bucketId: bucket.id,
          extractorId: extractor.id,
          created_at: `2026-05-${day}T00:00:00.000Z`,
        });
      }
      const query = `saved_extractor_id=${extractor.id}`;
      const runs = await list(`${base}?${query}`);
      expect(runs.map((run) => run.createdAt)).toEqual([
        '2026-05-03T00:00:00.000Z',
        '2026-05-02T00:00:00.000Z',
        '2026-05-01T00:00:00.000Z',
      ]);
      const response = await service.request(`${base}?${query}`, {
        headers: { Accept: mediaType },
      });
      await expectCollection(response, mediaType, 'run', runs, {
        path: base,
        page: 1,
        totalItems: 3,
        query,
      });
    },
  );

  it('filters exactly by ids and enumerations and by substring in text, all together', async () => {
    const [bucket, extractor, other] = [
      await createBucket(service),
      await createExtractor(service),
      await createExtractor(service),
    ];
    const ids = { bucketId: bucket.id, extractorId: extractor.id };
    const completed = await insertRun(service, {
      ...ids,
      status: 'completed',
      result_json: '{"vendor":"ACME Widgets"}',
    });
    const failed = await insertRun(service, {
      ...ids,
      status: 'failed',
      error: 'The PDF is Encrypted; no text.',
    });
    const llm = await insertRun(service, {
      ...ids,
      status: 'running',
      strategy: 'llm',
      model: 'gpt-4o-mini',
      partial_result_json: '{"vendor":"Widget 50%_off"}',
    });
    const elsewhere = await insertRun(service, {
      bucketId: bucket.id,
      extractorId: other.id,
      status: 'completed',
      result_json: '{"vendor":"ACME"}',
    });
    const own = `saved_extractor_id=${extractor.id}`;
    const idsOf = async (query: string) =>
      (await list(`${base}?${query}`)).map((run) => run.id).sort();

    expect(await idsOf(own)).toEqual([completed.id, failed.id, llm.id].sort());
    expect(
      await idsOf(`saved_extractor_id=${encodeURIComponent(`/api/saved_extractors/${other.id}`)}`),
    ).toEqual([elsewhere.id]);
    expect(
      await idsOf(`saved_extractor_id=${encodeURIComponent(`/api/extractors/${other.id}`)}`),
    ).toEqual([elsewhere.id]);
    expect(await idsOf(`saved_extractor_id=${other.id.slice(0, 20)}`)).toEqual([]);
    expect(await idsOf(`${own}&status=completed`)).toEqual([completed.id]);
    expect(await idsOf(`${own}&strategy=llm`)).toEqual([llm.id]);
    expect(await idsOf(`${own}&model=gpt-4o-mini`)).toEqual([llm.id]);
    expect(await idsOf(`${own}&model=gpt-4o`)).toEqual([]);
    expect(await idsOf(`${own}&result_json=acme widgets`)).toEqual([completed.id]);
    expect(await idsOf(`result_json=acme&status=completed&${own}`)).toEqual([completed.id]);
    expect(await idsOf(`${own}&error=encrypted`)).toEqual([failed.id]);
    expect(await idsOf(`${own}&partial_result_json=${encodeURIComponent('50%_')}`)).toEqual([
      llm.id,
    ]);
    expect(await idsOf(`${own}&partial_result_json=${encodeURIComponent('5_%')}`)).toEqual([]);
    expect(await idsOf(`${own}&status=&error=&model=`)).toEqual(
      [completed.id, failed.id, llm.id].sort(),
    );
  });

  it('keeps the filters in the paging links and the Hydra search template', async () => {
    const extractor = await createExtractor(service);
    const query = `status=queued&saved_extractor_id=${extractor.id}`;
    const response = await service.request(`${base}?${query}&page=`, {
      headers: { Accept: 'application/ld+json' },
    });
    const document = (await response.json()) as {
      view: { first: string };
      search: { template: string; mapping: { variable: string; property: string | null }[] };
    };
    expect(document.view.first).toBe(`${base}?${query}&page=1`);
    expect(document.search.template).toBe(
      `${base}{?page,result_json,partial_result_json,error,model,saved_extractor_id,strategy,status}`,
    );
    expect(document.search.mapping.map((mapping) => mapping.variable)).toEqual([
      'page',
      'result_json',
      'partial_result_json',
      'error',
      'model',
      'saved_extractor_id',
      'strategy',
      'status',
    ]);
  });

  it.each([
    ['status=done', 'status'],
    ['strategy=magic', 'strategy'],
    ['saved_extractor_id=%2Fapi%2Fbuckets%2Fabc', 'saved_extractor_id'],
    ['page=two', 'page'],
    ['page=-1', 'page'],
    ['page=1.5', 'page'],
    ['page=0', 'page'],
  ])('answers 400 for %s, naming the parameter', async (query, parameter) => {
    const problem = await expectProblem(await service.request(`${base}?${query}`), 400);
    expect(problem.errors).toEqual([{ parameter, detail: expect.any(String) }]);
  });
});

describe('references as a JSON-LD client sends them back', () => {
  /** A bucket with a file and an extractor, ready for a run. */
  async function runnable() {
    const [bucket, extractor] = [await createBucket(service), await createExtractor(service)];
    await uploaded(service, bucket.id, [{ name: 'a.txt', bytes: 'Invoice 1\n' }]);
    return { bucket, extractor };
  }

  const start = (path: string, body: Record<string, unknown>) =>
    service.request(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/ld+json', Accept: 'application/json' },
      body: JSON.stringify({ '@context': '/api/contexts/ExtractionRun', ...body }),
    });

  it.each([
    ['absolute IRIs', (id: string, path: string) => `http://extractor.test/api/${path}/${id}`],
    [
      'IRIs relative to the run, as jsonld.js compacts them',
      (id: string, path: string) => `../${path}/${id}`,
    ],
    ['ids in upper case', (id: string) => id.toUpperCase()],
  ])('starts a run over references written as %s', async (_what, reference) => {
    const { bucket, extractor } = await runnable();
    for (const collection of ['/api/runs', '/api/extraction_runs']) {
      const response = await start(collection, {
        bucket: reference(bucket.id, 'buckets'),
        savedExtractor: reference(extractor.id, 'saved_extractors'),
      });
      expect(response.status, await response.clone().text()).toBe(201);
      const run = (await response.json()) as Run;
      expect(run).toMatchObject({
        bucket: `/api/buckets/${bucket.id}`,
        savedExtractor: `/api/extractors/${extractor.id}`,
      });
    }
  });

  it('mints a session and saves edited results over absolute IRIs', async () => {
    const { bucket, extractor } = await runnable();
    const session = await service.request('/api/embed_sessions', {
      method: 'POST',
      headers: { 'Content-Type': 'application/ld+json', Accept: 'application/json' },
      body: JSON.stringify({
        savedExtractor: `http://extractor.test/api/saved_extractors/${extractor.id}`,
        bucket: `http://extractor.test/api/buckets/${bucket.id.toUpperCase()}`,
      }),
    });
    expect(session.status, await session.clone().text()).toBe(201);
    expect(((await session.json()) as { bucket: string }).bucket).toBe(`/api/buckets/${bucket.id}`);

    const { run } = await insertRunOfNew(service, {
      status: 'completed',
      documents: [{ data: { invoice_number: 'A-1', total: 1 } }],
    });
    const [fileId] = JSON.parse(run.file_ids) as string[];
    const saved = await service.json('PUT', `/api/runs/${run.id}/results`, {
      documents: [
        {
          file: `http://extractor.test/api/buckets/${run.bucket_id}/files/${fileId}`,
          data: { invoice_number: 'A-2', total: 2 },
        },
      ],
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect(((await saved.json()) as Run).editedResultJson).toContain('A-2');
  });

  it('refuses a reference to another host with a 422 naming the field, and stores nothing', async () => {
    const { bucket, extractor } = await runnable();
    const before = await storedState(service);
    const problem = await expectProblem(
      await start('/api/runs', {
        bucket: `https://elsewhere.example/api/buckets/${bucket.id}`,
        savedExtractor: extractor.id,
      }),
      422,
    );
    expect(problem.errors).toEqual([{ pointer: '/bucket', detail: expect.any(String) }]);
    expect(await storedState(service)).toEqual(before);
  });
});

describe('the JSON-LD vocabulary', () => {
  it('describes every term and type a context expands to, as JSON-LD and as a page', async () => {
    const run = await insertRunOfNew(service, { documents: [{ data: {} }] });
    const context = (await (
      await service.request('/api/contexts/ExtractionRun', { token: null })
    ).json()) as { '@context': Record<string, unknown> };
    const vocabulary = context['@context']['@vocab'] as string;
    const typeIri = context['@context'].ExtractionRun as string;
    expect(typeIri).toBe('/api/vocab#ExtractionRun');
    const resource = (await (
      await service.request(`/api/runs/${run.run.id}`, {
        headers: { Accept: 'application/ld+json' },
      })
    ).json()) as Record<string, unknown>;
    // Every field and every name within the run's documents expands to an IRI that resolves.
    const documents = resource.documents as Record<string, unknown>[];
    const terms = [...Object.keys(resource), ...Object.keys(documents[0] ?? { file: '' })]
      .filter((term) => !term.startsWith('@') && !(term in context['@context']))
      .map((term) => `${vocabulary}${term}`);
    expect(terms).toContain('/api/vocab#ExtractionRun.resultJson');

    const asJsonLd = await service.request('/api/vocab', { token: null });
    expect(asJsonLd.status).toBe(200);
    expect(asJsonLd.headers.get('content-type')).toMatch(/^application\/ld\+json/);
    const { '@graph': graph } = (await asJsonLd.json()) as { '@graph': { '@id': string }[] };
    const described = new Set(graph.map((node) => node['@id']));
    expect(described).toContain(typeIri);
    for (const term of terms) expect(described, term).toContain(term);

    const page = await service.request('/api/vocab', {
      token: null,
      headers: { Accept: 'text/html' },
    });
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    for (const term of [typeIri, ...terms])
      expect(html, term).toContain(`id="${term.slice('/api/vocab#'.length)}"`);
  });
});
