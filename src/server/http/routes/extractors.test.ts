import { describe, expect, it } from 'vitest';
import { labelNames } from '../../../contract/labels.js';
import type { Extractor } from '../../../contract/resources.js';
import {
  createExtractor,
  expectErrorAnswer,
  expectProblem,
  extractorInput,
  insertRun,
  insertRunOfNew,
  invoiceJsonSchema,
  storedState,
} from '../../testing/fixtures.js';
import { encodeBody, expectCollection, expectResource } from '../../testing/representations.js';
import { useTestService } from '../../testing/test-service.js';
import { resourceMediaTypes } from '../negotiation.js';

const service = useTestService();

const collections = ['/api/extractors', '/api/saved_extractors'] as const;
type Wire = Extractor & { id: string };

async function getExtractor(id: string): Promise<Extractor> {
  const response = await service.json('GET', `/api/extractors/${id}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Extractor;
}

const everyWritableField = {
  label: 'Purchase orders',
  jsonSchema: invoiceJsonSchema,
  strategy: 'local',
  model: 'local',
  outputInstructions: 'Amounts as numbers; 100% of "lines", <none> left out.',
  ...Object.fromEntries(labelNames.map((name) => [name, `${name} text`])),
  allowDownload: false,
  enableWebhook: true,
  webhookUrl: 'https://partner.example/hooks/extractor',
  redirectUrl: 'https://partner.example/done',
  includeText: false,
  includeEmbeddedImages: true,
  markEmbeddedImages: true,
  includePageImages: true,
  markPageImages: true,
  chunkSize: 1500,
  documentLanguages: ['de', 'ja'],
  checks: [
    { left: '/total', op: '>=', right: 0, message: 'The total is negative.' },
    { left: { add: ['/total', 1] }, op: '!=', right: { value: 1 }, tolerance: 0.5 },
  ],
};

describe.each(collections)('POST %s', (base) => {
  it.each(resourceMediaTypes)('creates an extractor and answers 201 in %s', async (mediaType) => {
    const response = await service.request(base, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: mediaType },
      body: JSON.stringify(everyWritableField),
    });
    expect(response.status).toBe(201);
    const id = response.headers.get('location')!.replace('/api/extractors/', '');
    const stored = await getExtractor(id);
    expect(stored).toMatchObject(everyWritableField);
    expect(stored).not.toHaveProperty('webhookSecret');
    const secret = /whsec_[A-Za-z0-9+/=]+/.exec(await response.clone().text())![0];
    await expectResource(response, mediaType, 'extractor', {
      ...stored,
      webhookSecret: secret,
    } as Wire);
  });

  it('fills the response-only fields with real values and applies defaults', async () => {
    const response = await service.json('POST', base, {
      label: 'Minimal',
      jsonSchema: invoiceJsonSchema,
    });
    const extractor = (await response.json()) as Extractor;
    expect(extractor).toMatchObject({
      strategy: 'local',
      model: 'local',
      outputInstructions: '',
      allowDownload: true,
      enableWebhook: false,
      includeText: true,
      chunkSize: 4000,
      runs: [],
      deletedAt: null,
      lastRanAt: null,
      embeddedUrl: `http://extractor.test/embed/${extractor.id}`,
      fullPageUrl: `http://extractor.test/x/${extractor.id}`,
    });
    expect(extractor.typedSchema).toBe(
      'export interface Minimal {\n  invoice_number: string;\n  total?: number | null;\n}\n',
    );
    expect(extractor.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(extractor.createdAt).toBe(extractor.updatedAt);
  });

  it.each(resourceMediaTypes)(
    'reads a body in %s, values of every type included',
    async (mediaType) => {
      const response = await service.request(base, {
        method: 'POST',
        headers: { 'Content-Type': mediaType },
        body: encodeBody(mediaType, everyWritableField, 'SavedExtractor'),
      });
      expect(response.status, await response.clone().text()).toBe(201);
      const extractor = (await response.json()) as Extractor;
      expect(await getExtractor(extractor.id)).toMatchObject(everyWritableField);
    },
  );

  it('ignores read-only fields', async () => {
    const response = await service.json('POST', base, {
      ...extractorInput(),
      id: 'mine',
      createdAt: '2000-01-01T00:00:00.000Z',
      deletedAt: '2000-01-01T00:00:00.000Z',
      lastRanAt: '2000-01-01T00:00:00.000Z',
      typedSchema: 'type Hacked = 1',
      embeddedUrl: 'https://evil.example/',
      fullPageUrl: 'https://evil.example/',
      webhookSecret: 'whsec_chosen',
      runs: ['/api/runs/1'],
    });
    const extractor = (await response.json()) as Extractor;
    expect(extractor.id).not.toBe('mine');
    expect(extractor).toMatchObject({ deletedAt: null, lastRanAt: null, runs: [] });
    expect(extractor.typedSchema).toContain('export interface Receipts');
    expect(extractor.embeddedUrl).toBe(`http://extractor.test/embed/${extractor.id}`);
    expect(extractor.webhookSecret).not.toBe('whsec_chosen');
    expect(extractor.createdAt!.startsWith('2000')).toBe(false);
  });

  it('answers 422 with a JSON pointer and a message for each invalid value, and stores nothing', async () => {
    const before = await storedState(service);
    const problem = await expectProblem(
      await service.json('POST', base, {
        label: '  ',
        jsonSchema: '{"type": "object", "properties": ',
        chunkSize: 10,
        includeText: 'yes please',
        redirectUrl: 'javascript:alert(1)',
      }),
      422,
    );
    expect(problem.errors?.map((error) => error.pointer).sort()).toEqual([
      '/chunkSize',
      '/includeText',
      '/jsonSchema',
      '/label',
    ]);
    expect(problem.errors?.every((error) => error.detail.length > 0)).toBe(true);
    expect(await storedState(service)).toEqual(before);
  });

  it('answers 422 listing the allowed strategies for an unknown strategy', async () => {
    const problem = await expectProblem(
      await service.json('POST', base, extractorInput({ strategy: 'magic' as 'local' })),
      422,
    );
    expect(problem.errors).toEqual([
      { pointer: '/strategy', detail: expect.stringContaining('"local"') },
    ]);
    expect(problem.errors![0]!.detail).toContain('"llm"');
  });

  it('answers 422 listing the allowed models for an unknown model', async () => {
    const problem = await expectProblem(
      await service.json('POST', base, extractorInput({ model: 'gpt-9' })),
      422,
    );
    expect(problem.errors).toEqual([
      { pointer: '/model', detail: expect.stringContaining('"local"') },
    ]);
    const llm = await expectProblem(
      await service.json('POST', base, extractorInput({ strategy: 'llm', model: 'local' })),
      422,
    );
    expect(llm.errors![0]!.detail).toContain('"gpt-4o-mini"');
  });
});

describe.each(collections)('POST %s, refused', (base) => {
  it('answers 422 for settings that do not fit together: a webhook without an address, a redirect that is not http', async () => {
    const problem = await expectProblem(
      await service.json(
        'POST',
        base,
        extractorInput({ enableWebhook: true, redirectUrl: 'ftp://example.com/' }),
      ),
      422,
    );
    expect(problem.errors?.map((error) => error.pointer).sort()).toEqual([
      '/redirectUrl',
      '/webhookUrl',
    ]);
  });

  it('answers 422 naming each check that does not fit the schema or the format, and stores nothing', async () => {
    const before = await storedState(service);
    const problem = await expectProblem(
      await service.json(
        'POST',
        base,
        extractorInput({
          checks: [
            { left: '/total', op: '>=', right: 0 },
            { left: '/totl', op: '=', right: 0 },
            { left: { sum: '/invoice_number' }, op: '=', right: '/total' },
            { left: '/invoice_number', op: '<', right: { value: 'A' } },
          ],
        }),
      ),
      422,
    );
    expect(problem.errors).toEqual([
      {
        pointer: '/checks/1/left',
        detail: 'check 1: "/totl" names no property of jsonSchema ("totl" is not one)',
      },
      {
        pointer: '/checks/2/left/sum',
        detail: 'check 2: "/invoice_number" has no *: a sum adds the values of a list\'s items',
      },
      {
        pointer: '/checks/2/left/sum',
        detail: 'check 2: "/invoice_number" is text; arithmetic needs numbers',
      },
      {
        pointer: '/checks/3/op',
        detail: 'check 3: "<" orders numbers and dates; text takes only = and !=',
      },
    ]);
    // An operand of no known shape is refused by the format, where it is.
    const shape = await expectProblem(
      await service.json(
        'POST',
        base,
        extractorInput({
          checks: [{ left: { max: '/total' }, op: '~', right: 0 } as never],
        }),
      ),
      422,
    );
    expect(shape.errors?.map((error) => error.pointer).sort()).toEqual([
      '/checks/0/left',
      '/checks/0/op',
    ]);
    expect(await storedState(service)).toEqual(before);
  });

  it('answers 400 for a body that cannot be read and 415 for a body of another type', async () => {
    const post = (body: string, contentType?: string) =>
      service.request(base, {
        method: 'POST',
        headers: contentType ? { 'Content-Type': contentType } : {},
        body,
      });
    await expectProblem(await post('{', 'application/json'), 400);
    await expectProblem(await post('{}', 'text/plain'), 415);
    await expectProblem(await post('{}'), 415);
  });
});

describe.each(collections)('GET %s/{id}', (base) => {
  it.each(resourceMediaTypes)(
    'answers with the extractor in %s, without its webhook secret',
    async (mediaType) => {
      const created = await createExtractor(service, {
        outputInstructions: '=SUM(A1) & "quotes", <tags>\nand lines',
      });
      const extractor = await getExtractor(created.id);
      const response = await service.request(`${base}/${created.id}`, {
        headers: { Accept: mediaType },
      });
      expect(response.status).toBe(200);
      const text = await expectResource(response, mediaType, 'extractor', extractor as Wire);
      expect(text).not.toContain(created.webhookSecret!);
    },
  );

  it('shows the runs it made and when it last ran', async () => {
    const {
      bucket,
      extractor,
      run: first,
    } = await insertRunOfNew(service, {
      created_at: '2026-01-01T00:00:00.000Z',
    });
    const second = await insertRun(service, {
      bucketId: bucket.id,
      extractorId: extractor.id,
      created_at: '2026-01-02T00:00:00.000Z',
    });
    await service.services.db
      .updateTable('extractors')
      .set({ last_ran_at: second.created_at })
      .where('id', '=', extractor.id)
      .execute();
    const stored = (await (
      await service.json('GET', `${base}/${extractor.id}`)
    ).json()) as Extractor;
    expect(stored.runs).toEqual([`/api/runs/${first.id}`, `/api/runs/${second.id}`]);
    expect(stored.lastRanAt).toBe('2026-01-02T00:00:00.000Z');
  });

  it.each(resourceMediaTypes)('answers 404 for an unknown id, asked for %s', async (mediaType) => {
    await expectErrorAnswer(
      await service.request(`${base}/nothing-here`, { headers: { Accept: mediaType } }),
      404,
      mediaType,
    );
  });
});

describe.each(collections)('GET %s', (base) => {
  it.each(resourceMediaTypes)('lists extractors newest first in %s', async (mediaType) => {
    const listed = await service.json('GET', base);
    const total = Number(listed.headers.get('x-total-count'));
    const all = (await listed.json()) as Wire[];
    expect(all.length).toBe(Math.min(total, 30));
    await expectCollection(
      await service.request(base, { headers: { Accept: mediaType } }),
      mediaType,
      'extractor',
      all,
      {
        path: base,
        page: 1,
        totalItems: total,
      },
    );
  });

  it('filters by model exactly and by output_instructions as a case-insensitive substring', async () => {
    const marker = `marker${Date.now()}`;
    const plain = await createExtractor(service, {
      outputInstructions: `Say ${marker.toUpperCase()} loud`,
    });
    const llm = await createExtractor(service, {
      strategy: 'llm',
      model: 'gpt-4o',
      outputInstructions: `${marker} 100%_done`,
    });
    const list = async (query: string) =>
      ((await (await service.json('GET', `${base}?${query}`)).json()) as Extractor[]).map(
        (extractor) => extractor.id,
      );
    expect(await list(`output_instructions=${marker}`)).toEqual([llm.id, plain.id]);
    expect(await list(`output_instructions=${marker}&model=gpt-4o`)).toEqual([llm.id]);
    expect(await list(`model=gpt`)).toEqual([]);
    // % and _ are literal characters, not LIKE wildcards.
    expect(await list(`output_instructions=${encodeURIComponent(`${marker} 100%_`)}`)).toEqual([
      llm.id,
    ]);
    expect(await list(`output_instructions=${encodeURIComponent(`${marker} 1_0%`)}`)).toEqual([]);
    const response = await service.request(`${base}?output_instructions=${marker}&model=`, {
      headers: { Accept: 'application/vnd.api+json' },
    });
    const document = (await response.json()) as {
      links: { self: string };
      meta: { totalItems: number };
    };
    expect(document.meta.totalItems).toBe(2);
    expect(document.links.self).toBe(`${base}?output_instructions=${marker}&model=&page=1`);
  });
});

describe.each(collections)('PUT %s/{id}', (base) => {
  it.each(resourceMediaTypes)(
    'replaces the writable fields from a %s body and answers with the result',
    async (mediaType) => {
      const created = await createExtractor(service, {
        outputInstructions: 'will be dropped',
        pageTitle: 'will be dropped',
        allowDownload: false,
        chunkSize: 900,
      });
      const replacement = {
        label: 'Replaced',
        jsonSchema: invoiceJsonSchema,
        introductionViewHeading: 'Hello',
      };
      const response = await service.request(`${base}/${created.id}`, {
        method: 'PUT',
        headers: { 'Content-Type': mediaType, Accept: mediaType },
        body: encodeBody(
          mediaType,
          { ...replacement, id: 'other', createdAt: '2000-01-01T00:00:00.000Z' },
          'SavedExtractor',
        ),
      });
      expect(response.status).toBe(200);
      const stored = await getExtractor(created.id);
      expect(stored).toMatchObject({
        ...replacement,
        id: created.id,
        createdAt: created.createdAt,
        outputInstructions: '',
        pageTitle: '',
        allowDownload: true,
        chunkSize: 4000,
        typedSchema: expect.stringContaining('export interface Replaced'),
      });
      expect(stored.updatedAt! >= created.updatedAt!).toBe(true);
      await expectResource(response, mediaType, 'extractor', stored as Wire);
    },
  );

  it('keeps the languages its documents are written in, and answers 422 naming one it does not know', async () => {
    const created = await createExtractor(service);
    expect(created.documentLanguages).toEqual([]);
    const before = await storedState(service);
    const problem = await expectProblem(
      await service.json(
        'PUT',
        `${base}/${created.id}`,
        extractorInput({ documentLanguages: ['de', 'xx' as 'de'] }),
      ),
      422,
    );
    expect(problem.errors?.map((error) => error.pointer)).toEqual(['/documentLanguages/1']);
    expect(await storedState(service)).toEqual(before);
    const replaced = await service.json(
      'PUT',
      `${base}/${created.id}`,
      extractorInput({ documentLanguages: ['ar', 'pl'] }),
    );
    expect(replaced.status).toBe(200);
    expect((await getExtractor(created.id)).documentLanguages).toEqual(['ar', 'pl']);
  });

  it('answers 404 for an unknown or deleted extractor, and 422 for invalid values, changing nothing', async () => {
    const created = await createExtractor(service);
    const before = await storedState(service);
    await expectProblem(await service.json('PUT', `${base}/unknown`, extractorInput()), 404);
    await expectProblem(
      await service.json('PUT', `${base}/${created.id}`, { label: 'no schema' }),
      422,
    );
    await expectProblem(
      await service.json(
        'PUT',
        `${base}/${created.id}`,
        extractorInput({ strategy: 'nope' as 'local' }),
      ),
      422,
    );
    const checks = await expectProblem(
      await service.json(
        'PUT',
        `${base}/${created.id}`,
        extractorInput({ checks: [{ left: '/line_items/*/amount', op: '=', right: 0 }] }),
      ),
      422,
    );
    expect(checks.errors).toEqual([
      {
        pointer: '/checks/0/left',
        detail:
          'check 0: "/line_items/*/amount" names no property of jsonSchema ("line_items" is not one)',
      },
    ]);
    await expectProblem(
      await service.request(`${base}/${created.id}`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/xml' },
        body: '<x/>',
      }),
      415,
    );
    expect(await storedState(service)).toEqual(before);
    await service.request(`${base}/${created.id}`, { method: 'DELETE' });
    await expectProblem(await service.json('PUT', `${base}/${created.id}`, extractorInput()), 404);
  });
});

describe.each(collections)('DELETE %s/{id}', (base) => {
  it('deletes softly: 204, then 404 and gone from the list, while its runs still name it', async () => {
    const { extractor, run } = await insertRunOfNew(service, { status: 'completed' });
    const response = await service.request(`${base}/${extractor.id}`, { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    await expectProblem(await service.json('GET', `${base}/${extractor.id}`), 404);
    const listed = (await (await service.json('GET', `${base}?page=1`)).json()) as Extractor[];
    expect(listed.map((item) => item.id)).not.toContain(extractor.id);
    const runWire = (await (await service.json('GET', `/api/runs/${run.id}`)).json()) as {
      savedExtractor: string;
    };
    expect(runWire.savedExtractor).toBe(`/api/extractors/${extractor.id}`);
    await expectProblem(
      await service.request(`${base}/${extractor.id}`, { method: 'DELETE' }),
      404,
    );
    await expectProblem(
      await service.request(`${base}/${extractor.id}/webhook_secret`, { method: 'POST' }),
      404,
    );
  });
});

describe.each(collections)('POST %s/{id}/webhook_secret', (base) => {
  it.each(resourceMediaTypes)(
    'rotates the secret and shows the new one once, in %s',
    async (mediaType) => {
      const created = await createExtractor(service);
      const response = await service.request(`${base}/${created.id}/webhook_secret`, {
        method: 'POST',
        headers: { Accept: mediaType },
      });
      expect(response.status).toBe(200);
      const text = await response.text();
      const secret = /whsec_[A-Za-z0-9+/=]+/.exec(text)?.[0];
      expect(secret).toBeDefined();
      expect(secret).not.toBe(created.webhookSecret);
      const row = await service.services.db
        .selectFrom('extractors')
        .select('webhook_secret')
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
      expect(row.webhook_secret).toBe(secret);
      expect(JSON.stringify(await getExtractor(created.id))).not.toContain('whsec_');
    },
  );
});
