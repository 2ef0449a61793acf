import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { documentsOfResults } from '../../contract/resources.js';
import {
  createBucket,
  createExtractor,
  expectErrorAnswer,
  expectProblem,
  insertRunOfNew,
  invoiceJsonSchema,
  storedState,
  upload,
} from '../testing/fixtures.js';
import { useTestService } from '../testing/test-service.js';
import {
  absentWhenEmpty,
  maxBodyBytes,
  maxJsonDepth,
  validateHeaders,
  validateQuery,
  wholeNumberParameter,
} from './body.js';
import { resourceMediaTypes } from './negotiation.js';
import { ProblemError } from './problem.js';

const service = useTestService();

/** A body of `bytes` bytes that the stream hands over in pieces, without a Content-Length. */
function streamed(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) controller.close();
      else {
        controller.enqueue(bytes.subarray(offset, offset + 16 * 1024));
        offset += 16 * 1024;
      }
    },
  });
}

describe('the size of a body', () => {
  it('refuses a 1 MB text/html body to start a run unread, declared or streamed', async () => {
    const bucket = await createBucket(service);
    await upload(service, bucket.id, [{ name: 'a.txt', bytes: 'Invoice 1\n' }]);
    const extractor = await createExtractor(service);
    // Markup a parser takes seconds over, where it to read it.
    const html = `<dl><dt>bucket</dt><dd>${bucket.id}</dd><dt>savedExtractor</dt><dd>${extractor.id}</dd></dl>`;
    const body = html + '<b>'.repeat((1_000_000 - html.length) / 3);
    const before = await storedState(service);
    const declared = await service.request('/api/extraction_runs', {
      method: 'POST',
      headers: { 'Content-Type': 'text/html', 'Content-Length': String(body.length) },
      body,
    });
    const problem = await expectProblem(declared, 413);
    expect(problem.detail).toBe(
      `The request body is larger than ${maxBodyBytes['text/html']} bytes.`,
    );
    await expectProblem(
      await service.request('/api/extraction_runs', {
        method: 'POST',
        headers: { 'Content-Type': 'text/html' },
        body: streamed(body),
        duplex: 'half',
      } as RequestInit),
      413,
    );
    expect(await storedState(service)).toEqual(before);
  });

  it.each(resourceMediaTypes)(
    'reads %s up to its limit and refuses one byte more',
    async (type) => {
      const limit = maxBodyBytes[type];
      // Padding the body cannot hold as a field: within the limit it reaches the schema (422).
      const padded = (bytes: number) => {
        const head =
          type === 'text/csv' ? 'description\n"' : type === 'text/html' ? '<p>' : '{"x":"';
        const tail = type === 'text/csv' ? '"\n' : type === 'text/html' ? '</p>' : '"}';
        return head + 'a'.repeat(bytes - head.length - tail.length) + tail;
      };
      const send = (body: string) =>
        service.request('/api/buckets', {
          method: 'POST',
          headers: { 'Content-Type': type, Accept: 'application/json' },
          body,
        });
      expect((await send(padded(limit))).status).not.toBe(413);
      await expectProblem(await send(padded(limit + 1)), 413);
    },
  );
});

describe('the pace of a body', () => {
  it('answers 408 to a body that trickles in, and closes the connection', async () => {
    let timer: ReturnType<typeof setInterval> | undefined;
    let cancelled = false;
    // A byte every half second, never ending.
    const trickle = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"description":"'));
        timer = setInterval(() => controller.enqueue(new TextEncoder().encode('a')), 500);
      },
      cancel() {
        cancelled = true;
        clearInterval(timer);
      },
    });
    const before = await storedState(service);
    const response = await service.request('/api/buckets', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: trickle,
      duplex: 'half',
    } as RequestInit);
    clearInterval(timer);
    const problem = await expectProblem(response, 408);
    expect(problem.detail).toMatch(/arrived too slowly/);
    expect(response.headers.get('connection')).toBe('close');
    expect(cancelled).toBe(true);
    expect(await storedState(service)).toEqual(before);
  });
});

describe('the nesting of a JSON body', () => {
  const nested = (depth: number, inner = '1') => '['.repeat(depth) + inner + ']'.repeat(depth);

  it('refuses results nested past the limit with a 400, not the 500 of an overflowed stack', async () => {
    const anything = JSON.stringify({
      type: 'object',
      properties: { invoice_number: {}, total: {} },
    });
    const { run } = await insertRunOfNew(service, {
      status: 'completed',
      documents: [{ data: {} }],
      target_schema: anything,
    });
    const [fileId] = JSON.parse(run.file_ids) as string[];
    // One document's record is the whole body of its PUT.
    const save = (value: string) =>
      service.request(`/api/extraction_runs/${run.id}/documents/${fileId}/results`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: `{"invoice_number":${value},"total":null}`,
      });
    const problem = await expectProblem(await save(nested(100_000)), 400);
    expect(problem.detail).toBe(
      `The body nests arrays and objects deeper than ${maxJsonDepth} levels.`,
    );
    // Brackets inside strings are text, not nesting; up to the limit is saved.
    const withinLimit = nested(maxJsonDepth - 1, JSON.stringify('['.repeat(1000)));
    const saved = await save(withinLimit);
    expect(saved.status).toBe(200);
    const { editedResultJson } = (await saved.json()) as { editedResultJson: string };
    expect(documentsOfResults(editedResultJson)[0]?.data).toEqual({
      invoice_number: JSON.parse(withinLimit),
      total: null,
    });
  });

  it.each(['application/json', 'application/ld+json', 'application/vnd.api+json'])(
    'refuses a %s resource nested past the limit',
    async (type) => {
      const value = nested(maxJsonDepth + 1);
      const body =
        type === 'application/vnd.api+json'
          ? `{"data":{"attributes":{"description":${value}}}}`
          : `{"description":${value}}`;
      const response = await service.request('/api/buckets', {
        method: 'POST',
        headers: { 'Content-Type': type },
        body,
      });
      await expectErrorAnswer(response, 400, type);
    },
  );
});

describe('validateQuery', () => {
  const schema = z.object({
    size: z.optional(z.enum(['small', 'large'], { error: 'must be small or large' })),
    name: absentWhenEmpty(z.optional(z.string())),
  });

  it('reads the first value of each parameter, and an empty one as absent where the schema says so', () => {
    expect(validateQuery(schema, { size: ['large', 'oops'], name: '' })).toEqual({ size: 'large' });
    // Without absentWhenEmpty an empty value is a value, which the schema may refuse.
    expect(() =>
      validateQuery(z.object({ size: z.optional(z.enum(['small', 'large'])) }), { size: '' }),
    ).toThrow(ProblemError);
  });

  it('answers 400 naming the parameter and saying what it must be', () => {
    let thrown: unknown;
    try {
      validateQuery(schema, { size: 'medium' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ProblemError);
    expect((thrown as ProblemError).toJSON()).toMatchObject({
      status: 400,
      detail: 'Query parameter size must be small or large.',
      errors: [{ parameter: 'size', detail: 'must be small or large' }],
    });
  });
});

describe('wholeNumberParameter', () => {
  const query = z.object({
    width: wholeNumberParameter({
      minimum: 100,
      maximum: 3000,
      fallback: 1200,
      error: (text) => `must be from 100 to 3000, not ${JSON.stringify(text)}`,
    }),
  });

  it('reads digits in range as the number, and nothing as the fallback', () => {
    expect(validateQuery(query, { width: '0600' })).toEqual({ width: 600 });
    expect(validateQuery(query, {})).toEqual({ width: 1200 });
  });

  it('refuses any other text, quoting it, an empty one included', () => {
    for (const text of ['', '99', '3001', '1e3', '1.5', ' 600', '-600', 'abc']) {
      expect(() => validateQuery(query, { width: text })).toThrow(
        `Query parameter width must be from 100 to 3000, not ${JSON.stringify(text)}.`,
      );
    }
  });
});

describe('validateHeaders', () => {
  const headers = z.object({
    'Last-Event-ID': z.optional(z.string().check(z.regex(/^\d+$/, { error: 'must be digits' }))),
  });

  it('reads the headers the schema names, in any case', () => {
    expect(validateHeaders(headers, new Headers({ 'last-event-id': '42' }))).toEqual({
      'Last-Event-ID': '42',
    });
    expect(validateHeaders(headers, new Headers())).toEqual({});
  });

  it('answers 400 naming the header', () => {
    expect(() => validateHeaders(headers, new Headers({ 'Last-Event-ID': 'x' }))).toThrow(
      'Last-Event-ID must be digits.',
    );
  });
});

describe('fields a body does not know', () => {
  const post = (path: string, body: unknown, type = 'application/json') =>
    service.request(path, {
      method: 'POST',
      headers: { 'Content-Type': type, Accept: 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('refuses a misspelt field with a 422 naming it and the field meant, and stores nothing', async () => {
    const before = await storedState(service);
    const problem = await expectProblem(
      await post('/api/extractors', {
        label: 'Receipts',
        jsonSchema: invoiceJsonSchema,
        allowdownload: false,
        redirectURL: 'https://partner.example/done',
        colour: 'blue',
      }),
      422,
    );
    expect(problem.errors).toEqual([
      { pointer: '/allowdownload', detail: expect.stringContaining('did you mean allowDownload?') },
      { pointer: '/redirectURL', detail: expect.stringContaining('did you mean redirectUrl?') },
      { pointer: '/colour', detail: 'not a field of this request' },
    ]);
    expect(problem.detail).toContain('/allowdownload');
    expect(await storedState(service)).toEqual(before);
  });

  it('refuses unknown fields within fields, and in every writable resource', async () => {
    const bucket = await createBucket(service);
    const extractor = await createExtractor(service);
    const check = { left: '/total', op: '>=', right: 0, tolerence: 0.01 };
    const cases: [string, unknown, string][] = [
      [
        '/api/extractors',
        { label: 'x', jsonSchema: invoiceJsonSchema, checks: [check] },
        '/checks/0/tolerence',
      ],
      ['/api/buckets', { descripton: 'typo' }, '/descripton'],
      [
        '/api/extraction_runs',
        { bucket: bucket.id, savedExtractor: extractor.id, chunksize: 500 },
        '/chunksize',
      ],
      ['/api/embed_sessions', { savedExtractor: extractor.id, ttl: 60 }, '/ttl'],
    ];
    for (const [path, body, pointer] of cases) {
      const problem = await expectProblem(await post(path, body), 422);
      expect(problem.errors, path).toEqual([{ pointer, detail: expect.any(String) }]);
    }
  });

  it('ignores the fields the service sets, naming them in Extractor-Ignored-Fields', async () => {
    const created = await createExtractor(service);
    const response = await post('/api/extractors', {
      ...created,
      label: 'A copy',
      allowDownload: false,
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const copy = (await response.json()) as { id: string; label: string; allowDownload: boolean };
    expect(copy).toMatchObject({ label: 'A copy', allowDownload: false });
    expect(copy.id).not.toBe(created.id);
    const ignored = response.headers.get('extractor-ignored-fields')!.split(', ');
    expect(ignored).toEqual(
      expect.arrayContaining(['"/id"', '"/createdAt"', '"/typedSchema"', '"/webhookSecret"']),
    );
    expect(ignored).not.toContain('"/label"');
    // A body with nothing to ignore has no such header.
    const plain = await post('/api/buckets', { description: 'plain' });
    expect(plain.status).toBe(201);
    expect(plain.headers.get('extractor-ignored-fields')).toBeNull();
  });

  it('takes the JSON-LD keywords it writes and no other', async () => {
    const withKeywords = await post(
      '/api/buckets',
      { '@context': '/api/contexts/ExtractionBucket', '@id': '/x', '@type': 'ExtractionBucket' },
      'application/ld+json',
    );
    expect(withKeywords.status).toBe(201);
    expect(withKeywords.headers.get('extractor-ignored-fields')).toBeNull();
    const problem = await expectProblem(
      await post('/api/buckets', { '@graph': [] }, 'application/ld+json'),
      422,
    );
    expect(problem.errors).toEqual([{ pointer: '/@graph', detail: expect.any(String) }]);
  });

  it('points into a JSON:API body at the attribute it does not know, and takes meta', async () => {
    const problem = await expectProblem(
      await post(
        '/api/buckets',
        { data: { type: 'ExtractionBucket', attributes: { descripton: 'typo' } } },
        'application/vnd.api+json',
      ),
      422,
    );
    expect(problem.errors).toEqual([
      {
        pointer: '/data/attributes/descripton',
        detail: 'not a field of this request; did you mean description?',
      },
    ]);
    const withMeta = await post(
      '/api/buckets',
      { meta: { by: 'a client' }, data: { meta: { x: 1 }, attributes: { description: 'm' } } },
      'application/vnd.api+json',
    );
    expect(withMeta.status, await withMeta.clone().text()).toBe(201);
  });

  it('takes results back as GET …/results wrote them, naming what it ignored', async () => {
    const { run } = await insertRunOfNew(service, {
      status: 'completed',
      documents: [{ data: { invoice_number: 'A-1', total: 3 } }],
    });
    const read = (await (await service.json('GET', `/api/runs/${run.id}/results`)).json()) as {
      documents: { data: Record<string, unknown> }[];
    };
    read.documents[0]!.data.total = 4;
    const put = (body: unknown) => service.json('PUT', `/api/runs/${run.id}/results`, body);
    const saved = await put(read);
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect(saved.headers.get('extractor-ignored-fields')).toBe(
      '"/documents/0/name", "/documents/0/status", "/documents/0/error"',
    );
    const [document] = read.documents as Record<string, unknown>[];
    const problem = await expectProblem(
      await put({ documents: [{ file: document!.file, data: {}, comment: 'checked' }] }),
      422,
    );
    expect(problem.errors).toEqual([
      { pointer: '/documents/0/comment', detail: 'not a field of this request' },
    ]);
  });
});

describe('a request without a body', () => {
  it('says the body is missing (400) where one is needed, rather than that it has no type', async () => {
    const before = await storedState(service);
    for (const path of ['/api/buckets', '/api/extractors', '/api/runs', '/api/embed_sessions']) {
      const response = await service.request(path, { method: 'POST' });
      const problem = await expectProblem(response, 400);
      expect(problem.detail, path).toMatch(/^The request has no body: send the \w+'s fields/);
    }
    const declaredEmpty = await service.request('/api/buckets', {
      method: 'POST',
      headers: { 'Content-Length': '0' },
    });
    expect((await expectProblem(declaredEmpty, 400)).detail).toMatch(/has no body/);
    expect(await storedState(service)).toEqual(before);
  });

  it('takes an empty POST where the route reads no body', async () => {
    const { run } = await insertRunOfNew(service, { status: 'running' });
    const paused = await service.request(`/api/runs/${run.id}/pause`, { method: 'POST' });
    expect(paused.status, await paused.clone().text()).toBe(200);
  });
});
