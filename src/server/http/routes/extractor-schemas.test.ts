/**
 * Target schemas that once broke the service for everyone (issue 22): one nested a thousand
 * deep was stored, then every list of extractors answered 500; a pattern only a backtracking
 * engine can match was stored, then ran on the service's thread. Both are refused when the
 * extractor is saved, with a 422 naming what is wrong, and nothing is stored; a schema stored
 * before the limits no longer breaks the lists.
 */
import { describe, expect, it } from 'vitest';
import type { GraphqlResponse } from '../../../contract/graphql.js';
import { isFinalRunStatus } from '../../../contract/run-status.js';
import { runSchema, type Extractor, type Run } from '../../../contract/resources.js';
import {
  createBucket,
  createExtractor,
  expectProblem,
  extractorInput,
  nestedSchema,
  storedState,
  upload,
} from '../../testing/fixtures.js';
import { useTestService } from '../../testing/test-service.js';

const service = useTestService({ WORKER_CONCURRENCY: '1', WORKER_POLL_MS: '50' });

interface FieldProblem {
  detail: string;
  errors: { pointer: string; detail: string }[];
}

/** The 422 of a save, and that the service holds exactly what it held before. */
async function expectRefused(save: () => Promise<Response>): Promise<FieldProblem> {
  const before = await storedState(service);
  const problem = (await expectProblem(await save(), 422)) as unknown as FieldProblem;
  expect(await storedState(service)).toEqual(before);
  return problem;
}

const create = (jsonSchema: string) =>
  service.json('POST', '/api/extractors', extractorInput({ jsonSchema }));

async function listsAnswer(): Promise<void> {
  const rest = await service.json('GET', '/api/extractors');
  expect(rest.status, await rest.clone().text()).toBe(200);
  const graphql = await service.request('/api/graphql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query: '{ savedExtractors { totalItems items { id typedSchema } } }' }),
  });
  expect(graphql.status).toBe(200);
  const answer = (await graphql.json()) as GraphqlResponse;
  expect(answer.errors).toBeUndefined();
}

describe('the depth and size of jsonSchema', () => {
  it.each([1200, 3000])(
    'refuses a schema nested %i levels deep with a 422 naming the limit and where it is passed, on create and on update',
    async (levels) => {
      const deep = nestedSchema(levels);
      const created = await expectRefused(() => create(deep));
      const passed = `/properties/a`.repeat(32);
      expect(created.errors).toEqual([
        {
          pointer: '/jsonSchema',
          detail: `jsonSchema nests objects and arrays deeper than 64 levels, at ${passed}`,
        },
      ]);

      const extractor = await createExtractor(service);
      const updated = await expectRefused(() =>
        service.json('PUT', `/api/extractors/${extractor.id}`, {
          ...extractorInput(),
          jsonSchema: deep,
        }),
      );
      expect(updated.errors).toEqual(created.errors);
      await listsAnswer();
    },
  );

  it('takes a schema at the depth limit, and gives its typedSchema', async () => {
    const extractor = await createExtractor(service, { jsonSchema: nestedSchema(30) });
    expect(extractor.typedSchema).toContain('leaf?: string | null;');
    const refused = await expectRefused(() => create(nestedSchema(31)));
    expect(refused.errors[0]!.detail).toMatch(/deeper than 64 levels/);
  });

  it('refuses a schema over 256 KiB or over 10,000 values', async () => {
    const described = JSON.stringify({
      type: 'object',
      properties: { note: { type: 'string', description: 'é'.repeat(140_000) } },
    });
    const large = await expectRefused(() => create(described));
    expect(large.errors[0]).toEqual({
      pointer: '/jsonSchema',
      detail: `jsonSchema is ${described.length + 140_000} bytes long; the limit is 262144 bytes`,
    });

    const many = JSON.stringify({
      type: 'object',
      properties: { code: { type: 'string', enum: Array.from({ length: 10_000 }, String) } },
    });
    const counted = await expectRefused(() => create(many));
    expect(counted.errors[0]!.detail).toBe(
      'jsonSchema holds more than 10000 JSON values (objects, arrays, strings, numbers, booleans and nulls)',
    );
  });

  it('keeps the lists answering when a schema over the limits was stored before them', async () => {
    const extractor = await createExtractor(service);
    // As a service before the limits stored it.
    await service.services.db
      .updateTable('extractors')
      .set({ json_schema: nestedSchema(1200) })
      .where('id', '=', extractor.id)
      .execute();
    await listsAnswer();
    const list = (await (await service.json('GET', '/api/extractors')).json()) as Extractor[];
    const stored = list.find((item) => item.id === extractor.id)!;
    expect(stored.jsonSchema).toBe(nestedSchema(1200));
    expect(stored.typedSchema).toBe('');
    const one = await service.json('GET', `/api/extractors/${extractor.id}`);
    expect(one.status).toBe(200);
  });

  it('fails a run over a schema stored before the limits as misconfigured, not the file as damaged', async () => {
    const extractor = await createExtractor(service);
    await service.services.db
      .updateTable('extractors')
      .set({ json_schema: nestedSchema(1200) })
      .where('id', '=', extractor.id)
      .execute();
    const bucket = await createBucket(service);
    expect((await upload(service, bucket.id, [{ name: 'a.txt', bytes: 'Total: 3' }])).status).toBe(
      201,
    );
    const started = await service.json('POST', '/api/extraction_runs', {
      bucket: bucket.id,
      savedExtractor: extractor.id,
    });
    expect(started.status).toBe(201);
    let run: Run = runSchema.parse(await started.json());
    while (!isFinalRunStatus(run.status)) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      run = runSchema.parse(
        await (await service.json('GET', `/api/extraction_runs/${run.id}`)).json(),
      );
    }
    expect(run.status).toBe('failed');
    expect(run.error).toBe(
      `The extractor's schema nests objects and arrays deeper than 64 levels, at ${'/properties/a'.repeat(32)}.`,
    );
    expect(run.documents.map((document) => document.errorCode)).not.toContain('damaged_file');
  });

  it('writes typedSchema in a length linear in the depth', async () => {
    const lengths: number[] = [];
    for (const levels of [27, 28, 29, 30]) {
      const extractor = await createExtractor(service, { jsonSchema: nestedSchema(levels) });
      lengths.push(extractor.typedSchema.length);
    }
    const steps = lengths.slice(1).map((length, index) => length - lengths[index]!);
    // Each level adds the same text, however deep it sits.
    expect(new Set(steps).size).toBe(1);
  });
});

describe('patterns of jsonSchema', () => {
  const withPattern = (pattern: string) =>
    JSON.stringify({
      type: 'object',
      properties: {
        contact: { type: 'object', properties: { email: { type: 'string', pattern } } },
      },
    });

  it.each([
    ['a backreference', '^(\\w)\\1$', 'uses a backreference (\\1, \\k<name>)'],
    ['a named backreference', '^(?<c>\\w)\\k<c>$', 'uses a backreference (\\1, \\k<name>)'],
    ['a lookahead', '^(?=\\d)\\w+$', 'invalid or unsupported Perl syntax: `(?=`'],
    ['a repeat RE2 does not count to', '^\\d{1001}$', 'invalid repeat count'],
  ])(
    'refuses %s with a 422 naming the pattern, on create and on update',
    async (_name, pattern, reason) => {
      const created = await expectRefused(() => create(withPattern(pattern)));
      expect(created.errors).toHaveLength(1);
      expect(created.errors[0]!.pointer).toBe('/jsonSchema');
      expect(created.errors[0]!.detail).toContain(
        'jsonSchema /properties/contact/properties/email.pattern ',
      );
      expect(created.errors[0]!.detail).toContain(reason);

      const extractor = await createExtractor(service);
      const updated = await expectRefused(() =>
        service.json('PUT', `/api/extractors/${extractor.id}`, {
          ...extractorInput(),
          jsonSchema: withPattern(pattern),
        }),
      );
      expect(updated.errors).toEqual(created.errors);
    },
  );

  it('refuses a pattern too large to run quickly', async () => {
    const refused = await expectRefused(() => create(withPattern('^\\w{0,600}@\\w{0,600}$')));
    expect(refused.errors[0]!.detail).toMatch(
      /\.pattern compiles to \d+ RE2 instructions; the limit is 1000$/,
    );
  });

  it('takes the patterns people write, backtracking ones included, since RE2 runs them in linear time', async () => {
    for (const pattern of [
      '^([a-zA-Z0-9_\\-\\.]+)+@([a-zA-Z0-9_\\-\\.]+)\\.([a-zA-Z]{2,5})$',
      '^[A-Z]{2}\\d{2}[A-Z0-9]{10,30}$',
      '^(?<year>\\d{4})-\\d{2}$',
      '(?<=€)\\s?\\d+',
      '^\\p{Lu}\\p{Ll}+$',
    ]) {
      const response = await create(withPattern(pattern));
      expect(response.status, pattern).toBe(201);
    }
  });
});
