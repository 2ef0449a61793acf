/**
 * Generated junk at every route: bodies, headers, ids, query values, media types and
 * methods. Whatever arrives, the service never answers 5xx, answers every 4xx with a
 * problem document (or, at /api/graphql, the GraphQL error document that GraphQL over
 * HTTP prescribes), and a rejected request leaves every table and the disk as they were.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelNames } from '../../contract/labels.js';
import {
  everyRoute,
  invoiceJsonSchema,
  routePath,
  storedState,
  upload,
  seedRouteIds,
  type RouteIds,
} from '../testing/fixtures.js';
import { encodeBody } from '../testing/representations.js';
import { adminToken, startTestService, type TestService } from '../testing/test-service.js';
import { problemMediaType } from './problem.js';
import { jsonApiMediaType as jsonApiType } from './json-api.js';
import { resourceMediaTypes } from './negotiation.js';

/** More runs search deeper (e.g. JUNK_RUNS=20000 before a release); the default keeps CI quick. */
const runs = Number(process.env.JUNK_RUNS) || 1000;

let service: TestService;
let ids: RouteIds;
let sessionToken: string;

beforeAll(async () => {
  service = await startTestService({ MAX_UPLOAD_BYTES: '65536' });
  ({ ids, sessionToken } = await seedRouteIds(service));
});

afterAll(async () => {
  await service.dispose();
});

// ---------------------------------------------------------------------------------------
// Generators

const nastyStrings = [
  '',
  ' ',
  '..',
  '.',
  '../..',
  '..%2F..%2Fextractor.sqlite',
  '%2e%2e%2f%2e%2e%2f',
  '..%5c..%5c',
  '%252e%252e%252f',
  '%C0%AE%C0%AE%2F',
  '%00',
  '%',
  '%zz',
  '%E0%A4%A',
  '%F0%9F%92%A9',
  '%uD800',
  '\u202e\u0000',
  'CON',
  '-1',
  '1e309',
  'NaN',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  "'; DROP TABLE buckets; --",
  '%27%20OR%201%3D1',
  'a'.repeat(3000),
] as const;

const anyText = fc.oneof(
  fc.constantFrom(...nastyStrings),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

/** An id in a path: a real one, a junk one, or junk already percent-encoded. */
const pathId = (real: string) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constant(real) },
    { weight: 2, arbitrary: anyText },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }).map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.constant(real).map((id) => `${id}/../${id}`) },
    { weight: 1, arbitrary: fc.constant(real).map((id) => encodeURIComponent(`../${id}`)) },
  );

const headerText = fc
  .oneof(
    fc.string({ maxLength: 60 }),
    fc.string({ unit: 'binary-ascii', maxLength: 60 }),
    fc.constantFrom(...nastyStrings),
  )
  .filter((value) => {
    try {
      new Headers({ 'x-check': value });
      return true;
    } catch {
      return false;
    }
  });

const mediaType = fc.oneof(
  fc.constantFrom(...resourceMediaTypes),
  fc.constantFrom(
    'multipart/form-data; boundary=----junk',
    'multipart/form-data',
    'application/problem+json',
    'application/x-www-form-urlencoded',
    'text/plain;charset=utf-16',
    'application/json; charset=latin1',
    '*/*',
    'application/*;q=0.5, text/csv;q=0',
    'text/html;q=abc, application/json;q=-1',
    'application/json;q=2',
    ';;;',
    ',',
  ),
  headerText,
);

const authorization = fc.oneof(
  { weight: 6, arbitrary: fc.constant(`Bearer ${adminToken}`) },
  { weight: 2, arbitrary: fc.constant('session').map(() => `Bearer ${sessionToken}`) },
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: headerText.map((value) => `Bearer ${value}`) },
  { weight: 1, arbitrary: headerText },
);

const fieldNames = [
  'id',
  'description',
  'createdUsing',
  'label',
  'jsonSchema',
  'strategy',
  'model',
  'outputInstructions',
  ...labelNames.slice(0, 3),
  'allowDownload',
  'enableWebhook',
  'webhookUrl',
  'redirectUrl',
  'includeText',
  'chunkSize',
  'runs',
  'savedExtractor',
  'bucket',
  'ttlSeconds',
  'allowedOrigins',
  'theme',
  'resultJson',
  'data',
  '@context',
  '__proto__',
] as const;

const fieldValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  anyText,
  fc.constantFrom(
    'local',
    'llm',
    'api',
    'embed',
    invoiceJsonSchema,
    'https://partner.example/hook',
    'http://127.0.0.1:1/',
  ),
  fc.constantFrom(199, 200, 4000, 200_000, 200_001, 59, 60, 86_400, 86_401, -1, 0.5, 1e300),
  fc.constant('real').map(() => ids.extractor),
  fc.constant('real').map(() => `/api/buckets/${ids.bucket}`),
);

const record = fc.dictionary(
  fc.oneof(fc.constantFrom(...fieldNames), fc.string({ maxLength: 12 })),
  fieldValue,
  { maxKeys: 8 },
);

/** A value as text. Not String(): a JSON object may carry its own "toString" or "valueOf". */
const asText = (value: unknown): string =>
  typeof value === 'string' ? value : (JSON.stringify(value) ?? '');

const csvCell = (value: unknown): string => `"${asText(value).replace(/"/g, '""')}"`;

const body = fc.oneof(
  fc.jsonValue().map((value) => JSON.stringify(value)),
  record.map((value) => JSON.stringify(value)),
  record.map((value) =>
    JSON.stringify({
      data: {
        type: 'X',
        attributes: value,
        relationships: { bucket: { data: { id: ids.bucket } } },
      },
    }),
  ),
  record.map(
    (value) =>
      `${Object.keys(value).map(csvCell).join(',')}\r\n${Object.values(value).map(csvCell).join(',')}\r\n`,
  ),
  record.map((value) =>
    Object.entries(value)
      .map(([name, item]) => `<dt>${name}</dt><dd>${asText(item)}</dd>`)
      .join(''),
  ),
  record.map((value) => JSON.stringify(value).slice(0, -1)),
  anyText,
  fc.uint8Array({ maxLength: 200 }),
  fc.constant(
    '--x\r\nContent-Disposition: form-data; name="file"; filename="../../x.pdf"\r\n\r\n%PDF-1.4\r\n--x--\r\n',
  ),
);

/** A record written properly in one of the five types, so the junk reaches validation. */
const wellFormed = fc
  .tuple(fc.constantFrom(...resourceMediaTypes), record)
  .map(([type, value]) => ({
    contentType: type as string | undefined,
    body: encodeBody(type, value, 'Junk') as string | Uint8Array | undefined,
  }));

const payload = fc.oneof(
  { weight: 2, arbitrary: wellFormed },
  {
    weight: 3,
    arbitrary: fc.record({
      contentType: fc.option(mediaType, { nil: undefined }),
      body: fc.option(body, { nil: undefined }),
    }),
  },
);

const query = fc.oneof(
  fc
    .dictionary(
      fc.oneof(
        fc.constantFrom(
          'page',
          'model',
          'output_instructions',
          'status',
          'strategy',
          'saved_extractor_id',
          'result_json',
          'error',
          'access_token',
          'format',
        ),
        fc.string({ maxLength: 8 }),
      ),
      anyText,
      { maxKeys: 4 },
    )
    .map((entries) => `?${new URLSearchParams(entries).toString()}`),
  fc.constantFrom(
    '?page=%zz',
    '?page=%00',
    '?%=%',
    '?page=1&page=2',
    '?page[]=1',
    '?status=completed&status=bogus',
    '?' + '&'.repeat(500),
  ),
  fc.constant(''),
);

const methods = [
  'GET',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'HEAD',
  'OPTIONS',
  'PROPFIND',
  'BREW',
] as const;

const junkRequest = fc.record({
  route: fc.constantFrom(
    ...everyRoute,
    'GET /api/docs',
    'GET /api/docs.json',
    'GET /api/contexts/{bucket}',
    'GET /api/{bucket}',
    'GET /x/{extractor}',
    'GET /embed/{extractor}',
    'GET /assets/{file}',
    'GET /sdk/{file}',
  ),
  ids: fc.record({
    bucket: fc.constant(null).chain(() => pathId(ids.bucket)),
    file: fc.constant(null).chain(() => pathId(ids.file)),
    extractor: fc.constant(null).chain(() => pathId(ids.extractor)),
    run: fc.constant(null).chain(() => pathId(ids.run)),
    session: fc.constant(null).chain(() => pathId(ids.session)),
    page: fc.constantFrom('1', '2', '0', '-1', '1e3', '99999999999', '%00'),
  }),
  method: fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom(...methods) },
  ),
  query,
  payload,
  accept: fc.option(mediaType, { nil: undefined }),
  authorization,
});

type JunkRequest = typeof junkRequest extends fc.Arbitrary<infer T> ? T : never;

function toRequest(junk: JunkRequest): Request | undefined {
  const route = routePath(junk.route, junk.ids);
  const method = junk.method ?? route.method;
  const { contentType, body: content } = junk.payload;
  const withBody = content !== undefined && method !== 'GET' && method !== 'HEAD';
  try {
    const headers = new Headers();
    if (contentType !== undefined) headers.set('Content-Type', contentType);
    if (junk.accept !== undefined) headers.set('Accept', junk.accept);
    if (junk.authorization !== undefined) headers.set('Authorization', junk.authorization);
    return new Request(`http://extractor.test${route.path}${junk.query}`, {
      method,
      headers,
      body: withBody
        ? typeof content === 'string'
          ? content
          : new Uint8Array(content!)
        : undefined,
    });
  } catch {
    // Not a request a client could send (a header, the URL or the method does not parse).
    return undefined;
  }
}

/** Undoes what a request that was allowed to succeed deleted, so later runs still meet real ids. */
async function restoreFixtures(): Promise<void> {
  const { db } = service.services;
  await db.updateTable('buckets').set({ deleted_at: null }).where('id', '=', ids.bucket).execute();
  await db
    .updateTable('extractors')
    .set({ deleted_at: null })
    .where('id', '=', ids.extractor)
    .execute();
  await db.updateTable('tokens').set({ revoked_at: null }).where('id', '=', ids.session).execute();
  const file = await db
    .selectFrom('files')
    .select('id')
    .where('id', '=', ids.file)
    .executeTakeFirst();
  if (!file) {
    const [uploaded] = (await (
      await upload(service, ids.bucket, [{ name: 'a.txt', bytes: 'a\n' }])
    ).json()) as { id: string }[];
    ids.file = uploaded!.id;
  }
}

function isGraphqlError(request: Request, response: Response): boolean {
  return (
    new URL(request.url).pathname === '/api/graphql' &&
    /^application\/(graphql-response\+)?json\b/.test(response.headers.get('content-type') ?? '')
  );
}

async function expectWellBehaved(request: Request): Promise<void> {
  const label = `${request.method} ${request.url}`;
  const before = await storedState(service);
  const response = await service.app.fetch(request);
  expect(response.status, label).toBeGreaterThanOrEqual(200);
  expect(response.status, label).toBeLessThan(500);
  const text = await response.text();
  if (response.status >= 400 && isGraphqlError(request, response)) {
    // GraphQL over HTTP has its own error document for mistakes in a query.
    expect(JSON.parse(text), label).toMatchObject({ errors: [{ message: expect.any(String) }] });
    expect(
      await storedState(service),
      `${label} answered ${response.status} but stored something`,
    ).toEqual(before);
  } else if (response.status >= 400 && response.headers.get('content-type') === jsonApiType) {
    // A JSON:API client is answered with a JSON:API error document.
    if (request.method !== 'HEAD') {
      const document = JSON.parse(text) as { errors: Record<string, unknown>[] };
      expect(document.errors[0], label).toMatchObject({
        status: String(response.status),
        title: expect.any(String),
        detail: expect.any(String),
      });
    }
    expect(
      await storedState(service),
      `${label} answered ${response.status} but stored something`,
    ).toEqual(before);
  } else if (response.status >= 400) {
    expect(response.headers.get('content-type'), label).toBe(problemMediaType);
    if (request.method !== 'HEAD') {
      const problem = JSON.parse(text) as Record<string, unknown>;
      expect(problem, label).toMatchObject({
        type: expect.any(String),
        title: expect.any(String),
        status: response.status,
        detail: expect.any(String),
      });
    }
    expect(
      await storedState(service),
      `${label} answered ${response.status} but stored something`,
    ).toEqual(before);
  } else if (request.method === 'DELETE') {
    await restoreFixtures();
  }
}

describe('junk at every route', () => {
  // A request that never finishes fails its property after `hang`: far beyond any answer,
  // even on a loaded machine (an upload's pages are counted in a document worker).
  const hang = 20_000;
  const timeout = Math.max(120_000, runs * 50);

  it(
    'never answers 5xx, always answers 4xx with a problem document, and stores nothing it rejects',
    { timeout },
    async () => {
      await fc.assert(
        fc.asyncProperty(junkRequest, async (junk) => {
          const request = toRequest(junk);
          if (request) await expectWellBehaved(request);
        }),
        { numRuns: runs, timeout: hang },
      );
    },
  );

  it('survives malformed multipart uploads into a real bucket', { timeout }, async () => {
    const part = fc.record({
      field: fc.constantFrom('file', 'file', 'other', ''),
      filename: anyText,
      bytes: fc.oneof(
        fc.uint8Array({ maxLength: 300 }),
        fc.constantFrom('%PDF-1.7\n', '\u0089PNG\r\n\u001a\n', 'plain text\n'),
      ),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(part, { maxLength: 3 }),
        fc.constantFrom('x', 'boundary', '----WebKitFormBoundary7MA4YWxkTrZu0gW'),
        fc.integer({ min: 0, max: 400 }),
        fc.boolean(),
        async (parts, boundary, cut, truncate) => {
          const chunks = parts.map((item) => {
            const head = `--${boundary}\r\nContent-Disposition: form-data; name="${item.field}"; filename="${item.filename.replace(/[\r\n"]/g, '')}"\r\nContent-Type: application/pdf\r\n\r\n`;
            return Buffer.concat([Buffer.from(head), Buffer.from(item.bytes), Buffer.from('\r\n')]);
          });
          let payload = Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]);
          if (truncate) payload = payload.subarray(0, Math.min(cut, payload.length));
          await expectWellBehaved(
            new Request(`http://extractor.test/api/buckets/${ids.bucket}/files`, {
              method: 'POST',
              headers: {
                Authorization: `Bearer ${adminToken}`,
                'Content-Type': `multipart/form-data; boundary=${boundary}`,
              },
              body: payload,
            }),
          );
        },
      ),
      // A request that never finishes is a failure too, and fast-check shrinks it.
      { numRuns: Math.ceil(runs / 6), timeout: hang },
    );
  });
});
