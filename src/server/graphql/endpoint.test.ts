import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Check } from '../../contract/check-schemas.js';
import type { GraphqlResponse } from '../../contract/graphql.js';
import {
  documentSummarySchema,
  extractorSchema,
  runSchema,
  type Bucket,
  type Extractor,
  type Run,
} from '../../contract/resources.js';
import {
  createBucket,
  createExtractor,
  createSession,
  expectProblem,
  expectUnauthorized,
  insertRun,
  upload,
} from '../testing/fixtures.js';
import { startTestService, type TestService } from '../testing/test-service.js';

let service: TestService;

/** Answers are navigated as the test expects them to be; a wrong shape fails the assertions. */
type Answer = Omit<GraphqlResponse, 'data'> & { data?: Record<string, Result> | null };
type Result = Page & Record<string, unknown>;
interface Page {
  totalItems: number;
  itemsPerPage: number;
  currentPage: number;
  items: (Record<string, unknown> & { id: string })[];
}

async function graphql(query: string, variables?: Record<string, unknown>, token?: string | null) {
  const response = await service.request('/api/graphql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query, variables }),
    ...(token === undefined ? {} : { token }),
  });
  return { status: response.status, body: (await response.json()) as Answer };
}

async function rest<T>(path: string): Promise<T> {
  const response = await service.json('GET', path);
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

/**
 * A session of `extractor` on a bucket of its own, a run of the extractor there (`own`),
 * and one in another bucket (`elsewhere`).
 */
async function sessionWithRuns(extractor: Extractor) {
  const [bucket, otherBucket] = [await createBucket(service), await createBucket(service)];
  const session = await createSession(service, {
    savedExtractor: extractor.id,
    bucket: bucket.id,
  });
  const own = await insertRun(service, { bucketId: bucket.id, extractorId: extractor.id });
  const elsewhere = await insertRun(service, {
    bucketId: otherBucket.id,
    extractorId: extractor.id,
  });
  return { bucket, otherBucket, session, own, elsewhere };
}

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.dispose();
});

describe('GraphQL at /api/graphql', () => {
  it('pages savedExtractors 30 at a time, newest first', async () => {
    const before = (await graphql('{ savedExtractors { totalItems } }')).body.data!.savedExtractors!
      .totalItems;
    const created: Extractor[] = [];
    for (let index = 0; index < 31; index++)
      created.push(await createExtractor(service, { label: `Receipts ${index}` }));
    const total = before + 31;

    const first = await graphql(
      '{ savedExtractors { totalItems itemsPerPage currentPage items { id label } } }',
    );
    expect(first.status).toBe(200);
    expect(first.body.errors).toBeUndefined();
    const page1 = first.body.data!.savedExtractors!;
    expect(page1).toMatchObject({ totalItems: total, itemsPerPage: 30, currentPage: 1 });
    expect(page1.items).toHaveLength(30);
    expect(page1.items[0]).toEqual({ id: created[30]!.id, label: 'Receipts 30' });

    const second = await graphql(
      'query Page($page: Int) { savedExtractors(page: $page) { currentPage items { id } } }',
      { page: 2 },
    );
    const page2 = second.body.data!.savedExtractors!;
    expect(page2.currentPage).toBe(2);
    expect(page2.items).toHaveLength(total - 30);
    const seen = new Set([...page1.items, ...page2.items].map((item) => item.id));
    expect(seen.size).toBe(total);
    for (const extractor of created) expect(seen.has(extractor.id)).toBe(true);
  });

  it('selects every field of an extractor, the same as REST shows it', async () => {
    const checks: Check[] = [
      { left: { sum: '/lines/*/amount' }, op: '=', right: '/total', tolerance: 0.01 },
      { left: '/total', op: '>=', right: 0, message: 'A total is never negative.' },
      { left: { subtract: ['/total', 5] }, op: '!=', right: { value: 7 } },
    ];
    const extractor = await createExtractor(service, {
      label: 'Every field',
      jsonSchema: JSON.stringify({
        type: 'object',
        properties: {
          total: { type: 'number' },
          lines: {
            type: 'array',
            items: { type: 'object', properties: { amount: { type: 'number' } } },
          },
        },
      }),
      outputInstructions: 'Dates as ISO',
      checks,
    });
    // Every field but the signing secret; the checks with each of theirs.
    const fields = Object.keys(extractorSchema.shape)
      .filter((field) => field !== 'webhookSecret' && field !== 'checks')
      .concat('checks { left op right tolerance message }');
    const { body } = await graphql(
      `query One($id: ID!) { savedExtractor(id: $id) { ${fields.join(' ')} } }`,
      { id: extractor.id },
    );
    expect(body.errors).toBeUndefined();
    const { webhookSecret: _secret, ...shown } = await rest<Extractor>(
      `/api/saved_extractors/${extractor.id}`,
    );
    const answered = body.data!.savedExtractor as unknown as Extractor;
    // Operands come as JSON text; a field a check does not have is null.
    expect({
      ...answered,
      checks: answered.checks.map((check) => ({
        ...Object.fromEntries(Object.entries(check).filter(([, value]) => value !== null)),
        left: JSON.parse(check.left as string) as unknown,
        right: JSON.parse(check.right as string) as unknown,
      })),
    }).toEqual(shown);
    expect(shown.checks).toEqual(checks);

    const missing = await graphql('{ savedExtractor(id: "no-such-id") { id } }');
    expect(missing.body).toEqual({ data: { savedExtractor: null } });
    // The signing secret is not part of the GraphQL view.
    expect(
      (await graphql(`{ savedExtractor(id: "${extractor.id}") { webhookSecret } }`)).status,
    ).toBe(400);
  });
});

describe('GraphQL at /api/graphql: buckets and runs', () => {
  it('lists and reads buckets with their files and runs', async () => {
    const bucket = await createBucket(service, { description: 'Invoices of May' });
    await upload(service, bucket.id, [{ name: 'may.txt', bytes: 'Invoice No 5' }]);
    const extractor = await createExtractor(service);
    await insertRun(service, { bucketId: bucket.id, extractorId: extractor.id });

    const { body } = await graphql(
      '{ buckets { totalItems items { id description createdUsing artifacts runs } } }',
    );
    const listed = body.data!.buckets!.items.find((item) => item.id === bucket.id)!;
    const shown = await rest<Bucket>(`/api/buckets/${bucket.id}`);
    expect(listed).toEqual({
      id: shown.id,
      description: 'Invoices of May',
      createdUsing: 'api',
      artifacts: shown.artifacts,
      runs: shown.runs,
    });
    expect(JSON.parse(listed.artifacts as string)).toMatchObject([{ name: 'may.txt' }]);
    expect(listed.runs).toHaveLength(1);

    const fields = 'id description deletedAt createdAt updatedAt createdUsing artifacts runs';
    const one = await graphql(`{ bucket(id: "${bucket.id}") { ${fields} } }`);
    expect(one.body.data!.bucket).toEqual(shown);
  });

  it('lists runs with the REST filters and reads one with every field', async () => {
    const bucket = await createBucket(service);
    const [mine, other] = [await createExtractor(service), await createExtractor(service)];
    const done = await insertRun(service, {
      bucketId: bucket.id,
      extractorId: mine.id,
      status: 'completed',
      documents: [{ name: 'inv-77.pdf', data: { invoice_number: 'INV-77', total: 77 } }],
      started_at: '2025-01-01T10:00:00.000Z',
      finished_at: '2025-01-01T10:01:04.000Z',
      chunks_completed: 2,
      chunks_total: 2,
    });
    await insertRun(service, {
      bucketId: bucket.id,
      extractorId: other.id,
      status: 'failed',
      error: 'scan.pdf has no text layer',
    });

    const byExtractor = await graphql(
      `{ runs(savedExtractorId: "/api/extractors/${mine.id}") { totalItems items { id status } } }`,
    );
    expect(byExtractor.body.data!.runs).toEqual({
      totalItems: 1,
      items: [{ id: done.id, status: 'completed' }],
    });
    const byText = await graphql(
      '{ runs(resultJson: "inv-77", status: completed) { items { id } } }',
    );
    expect(byText.body.data!.runs!.items).toEqual([{ id: done.id }]);
    const failed = await graphql('{ runs(error: "NO TEXT", strategy: local) { items { error } } }');
    expect(failed.body.data!.runs!.items).toEqual([{ error: 'scan.pdf has no text layer' }]);

    // Every scalar field, and the documents with theirs and their records.
    const fields = Object.keys(runSchema.shape).filter((field) => field !== 'documents');
    const documentFields = Object.keys(documentSummarySchema.shape).join(' ');
    const one = await graphql(
      `{ run(id: "${done.id}") { ${fields.join(' ')} documents { ${documentFields} data } } }`,
    );
    expect(one.body.errors).toBeUndefined();
    const { documents, ...shown } = await rest<Run>(`/api/extraction_runs/${done.id}`);
    const { documents: graphqlDocuments, ...graphqlRun } = one.body.data!.run as unknown as Run & {
      documents: Record<string, unknown>[];
    };
    expect(graphqlRun).toEqual(shown);
    expect(graphqlDocuments).toEqual(
      documents.map((document) => ({
        ...document,
        files: null,
        data: JSON.stringify({ invoice_number: 'INV-77', total: 77 }),
      })),
    );
    expect(graphqlDocuments[0]).toMatchObject({ name: 'inv-77.pdf', status: 'completed' });
    expect(one.body.data!.run!.formattedDuration).toBe('1m 04s');
  });
});

describe('GraphQL at /api/graphql: tokens and sessions', () => {
  it('needs a token, like every REST route', async () => {
    const response = await service.request('/api/graphql', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: '{ savedExtractors { totalItems } }' }),
      token: null,
    });
    await expectUnauthorized(response);
    await expectUnauthorized(
      await service.request('/api/graphql?query=%7B__typename%7D', {
        token: 'xpat_not-a-real-token',
      }),
    );
  });

  it('shows a session token its own extractor, bucket and runs, and nothing else', async () => {
    const [extractor, stranger] = [await createExtractor(service), await createExtractor(service)];
    const {
      bucket,
      otherBucket,
      session,
      own,
      elsewhere: foreignBucket,
    } = await sessionWithRuns(extractor);
    const foreignExtractor = await insertRun(service, {
      bucketId: bucket.id,
      extractorId: stranger.id,
    });

    const lists = await graphql(
      '{ savedExtractors { totalItems items { id } } buckets { totalItems items { id } } runs { totalItems items { id } } }',
      undefined,
      session.token,
    );
    expect(lists.body.data).toEqual({
      savedExtractors: { totalItems: 1, items: [{ id: extractor.id }] },
      buckets: { totalItems: 1, items: [{ id: bucket.id }] },
      runs: { totalItems: 1, items: [{ id: own.id }] },
    });

    const single = await graphql(
      `{
        mine: savedExtractor(id: "${extractor.id}") { id }
        stranger: savedExtractor(id: "${stranger.id}") { id }
        bucket(id: "${bucket.id}") { id }
        otherBucket: bucket(id: "${otherBucket.id}") { id }
        own: run(id: "${own.id}") { id }
        foreignBucket: run(id: "${foreignBucket.id}") { id }
        foreignExtractor: run(id: "${foreignExtractor.id}") { id }
        asked: runs(savedExtractorId: "${stranger.id}") { totalItems }
      }`,
      undefined,
      session.token,
    );
    expect(single.body.data).toEqual({
      mine: { id: extractor.id },
      stranger: null,
      bucket: { id: bucket.id },
      otherBucket: null,
      own: { id: own.id },
      foreignBucket: null,
      foreignExtractor: null,
      asked: { totalItems: 0 },
    });
    const later = await graphql(
      '{ savedExtractors(page: 2) { totalItems items { id } } }',
      undefined,
      session.token,
    );
    expect(later.body.data!.savedExtractors).toEqual({ totalItems: 1, items: [] });
  });

  it("shows a session none of the partner's settings and no run of another bucket", async () => {
    const extractor = await createExtractor(service, {
      outputInstructions: 'Partner instructions',
      webhookUrl: 'http://127.0.0.1:9/partner-hook',
      enableWebhook: true,
    });
    const { bucket, session, own, elsewhere } = await sessionWithRuns(extractor);
    await service.services.db
      .updateTable('extractors')
      .set({ last_ran_at: elsewhere.created_at })
      .where('id', '=', extractor.id)
      .execute();
    const fields = 'outputInstructions webhookUrl runs lastRanAt';
    const query = `{
      savedExtractor(id: "${extractor.id}") { ${fields} }
      savedExtractors { items { ${fields} } }
      bucket(id: "${bucket.id}") { runs }
      buckets { items { runs } }
    }`;
    const seen = {
      outputInstructions: null,
      webhookUrl: null,
      runs: [`/api/runs/${own.id}`],
      lastRanAt: own.created_at,
    };
    const asSession = await graphql(query, undefined, session.token);
    expect(asSession.body).toEqual({
      data: {
        savedExtractor: seen,
        savedExtractors: { items: [seen] },
        bucket: { runs: [`/api/runs/${own.id}`] },
        buckets: { items: [{ runs: [`/api/runs/${own.id}`] }] },
      },
    });
    const asPartner = await graphql(`{ savedExtractor(id: "${extractor.id}") { ${fields} } }`);
    expect(asPartner.body.data!.savedExtractor).toEqual({
      outputInstructions: 'Partner instructions',
      webhookUrl: 'http://127.0.0.1:9/partner-hook',
      runs: [`/api/runs/${own.id}`, `/api/runs/${elsewhere.id}`],
      lastRanAt: elsewhere.created_at,
    });
  });
});

describe('GraphQL at /api/graphql: mistakes and limits', () => {
  it('answers mistakes with GraphQL errors, never a 500', async () => {
    const syntax = await graphql('{ savedExtractors { ');
    expect(syntax.status).toBe(400);
    expect(syntax.body.errors![0]!.message).toMatch(/Syntax Error/);

    const unknownField = await graphql('{ savedExtractors { items { secretSauce } } }');
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.errors![0]!.message).toMatch(/secretSauce/);

    const badEnum = await graphql('{ runs(status: exploded) { totalItems } }');
    expect(badEnum.status).toBe(400);

    const badPage = await graphql('{ buckets(page: 0) { totalItems } }');
    expect(badPage.status).toBe(200);
    expect(badPage.body.data).toBeNull();
    expect(badPage.body.errors![0]).toMatchObject({
      path: ['buckets'],
      extensions: { code: 'BAD_USER_INPUT' },
    });

    const badReference = await graphql(
      '{ runs(savedExtractorId: "/api/buckets/x") { totalItems } }',
    );
    expect(badReference.body.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });

    const notJson = await service.request('/api/graphql', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"query":',
    });
    expect(notJson.status).toBe(400);
    const noQuery = await service.request('/api/graphql', {
      headers: { Accept: 'application/graphql-response+json' },
    });
    expect(noQuery.status).toBe(400);
    expect(((await noQuery.json()) as GraphqlResponse).errors![0]!.message).toMatch(/query/);

    await expectProblem(
      await service.request('/api/graphql', { headers: { Accept: 'text/html' } }),
      406,
    );
    const plainText = await service.request('/api/graphql', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: '{ __typename }',
    });
    await expectProblem(plainText, 415);

    const put = await service.request('/api/graphql', { method: 'PUT', body: '{}' });
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
    await expectProblem(put, 405);

    const huge = await service.request('/api/graphql', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: `{ __typename }${' '.repeat(1024 * 1024)}` }),
    });
    await expectProblem(huge, 413);
  });

  it('refuses a document past its limits with a GraphQL error before running any of it', async () => {
    const many = (count: number, field: (index: number) => string) =>
      Array.from({ length: count }, (_, index) => field(index)).join(' ');
    // Each fragment spreads the one before twice: 2^14 copies of the extractors query.
    const doubling = [
      'fragment F0 on Query { savedExtractors { items { id label } } }',
      ...Array.from({ length: 14 }, (_, n) => `fragment F${n + 1} on Query { ...F${n} ...F${n} }`),
    ].join('\n');
    const refused: [string, string, RegExp][] = [
      ['12,000 aliases', `{ ${many(12_000, (i) => `a${i}: __typename`)} }`, /Token limit of 1000/],
      [
        '16 aliases',
        `{ ${many(16, (i) => `a${i}: savedExtractors { totalItems }`)} }`,
        /Aliases limit of 15/,
      ],
      ['depth 7', '{ a { b { c { d { e { f { g } } } } } } }', /depth limit of 6/],
      [
        '51 directives',
        `{ __typename ${many(51, () => '@skip(if: false)')} }`,
        /Directives limit of 50/,
      ],
      ['a cost of 2^14 queries', `{ ...F14 }\n${doubling}`, /Query Cost limit of 5000/],
    ];
    for (const [name, query, message] of refused) {
      const viaPost = await graphql(query);
      expect(viaPost.status, name).toBe(400);
      expect(viaPost.body.data, name).toBeUndefined();
      expect(viaPost.body.errors![0]!.message, name).toMatch(message);
    }
    // The same limits hold for GET.
    const viaGet = await service.request(
      `/api/graphql?query=${encodeURIComponent(refused[1]![1])}`,
      { headers: { Accept: 'application/graphql-response+json' } },
    );
    expect(viaGet.status).toBe(400);
    expect(((await viaGet.json()) as GraphqlResponse).errors![0]!.message).toMatch(/Aliases/);

    // Up to each limit, and introspection, are answered.
    const atLimits = await graphql(
      `{ ${many(15, (i) => `a${i}: savedExtractors { totalItems }`)} __schema { types { name fields { name type { name ofType { name ofType { name ofType { name } } } } } } } }`,
    );
    expect(atLimits.status).toBe(200);
    expect(atLimits.body.errors).toBeUndefined();
    expect(atLimits.body.data!.a14).toEqual(atLimits.body.data!.a0);
    // Every field GraphQL offers: all but the secret.
    const everything = Object.keys(extractorSchema.shape)
      .filter((field) => field !== 'webhookSecret' && field !== 'checks')
      .concat('checks { left op right tolerance message }');
    const wide = await graphql(
      `{ ${many(15, (i) => `a${i}: savedExtractors { totalItems items { ${everything.join(' ')} } }`)} }`,
    );
    expect(wide.status).toBe(200);
    expect(wide.body.errors).toBeUndefined();
  });
});

describe('GraphQL at /api/graphql: GET and media types', () => {
  it('answers queries sent with GET', async () => {
    const extractor = await createExtractor(service, { label: 'Asked with GET' });
    const query = `{ savedExtractor(id: "${extractor.id}") { id label } }`;
    const response = await service.request(`/api/graphql?query=${encodeURIComponent(query)}`, {
      headers: { Accept: 'application/json' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      data: { savedExtractor: { id: extractor.id, label: 'Asked with GET' } },
    });
  });

  it('answers application/json to a wildcard, and the newer type to a client that names it', async () => {
    const asked = async (accept: string, body = '{ __typename }') => {
      const response = await service.request('/api/graphql', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: accept },
        body: JSON.stringify({ query: body }),
      });
      return { status: response.status, type: response.headers.get('content-type') };
    };
    // GraphQL over HTTP: a legacy client's */* gets application/json, errors with a 200.
    for (const accept of [
      '*/*',
      'application/*',
      'application/json',
      '*/*;q=0.5, text/html;q=0.1',
    ]) {
      expect((await asked(accept)).type, accept).toMatch(/^application\/json/);
    }
    expect(await asked('*/*', '{ nothing }')).toMatchObject({ status: 200 });
    for (const accept of [
      'application/graphql-response+json',
      'application/graphql-response+json, application/json',
      'application/json, application/graphql-response+json',
      'application/json;q=0.5, application/graphql-response+json',
      'application/graphql-response+json, */*',
    ]) {
      expect((await asked(accept)).type, accept).toMatch(/^application\/graphql-response\+json/);
    }
    expect(await asked('application/graphql-response+json', '{ nothing }')).toMatchObject({
      status: 400,
    });
    // Named with q=0, the newer type is refused, and JSON answers.
    expect((await asked('application/graphql-response+json;q=0, */*')).type).toMatch(
      /^application\/json/,
    );
  });
});
