import { describe, expect, it } from 'vitest';
import {
  createBucket,
  createExtractor,
  expectJsonApiErrors,
  expectProblem,
  invoiceJsonSchema,
  storedState,
} from '../testing/fixtures.js';
import { useTestService } from '../testing/test-service.js';

const service = useTestService();
const jsonApi = 'application/vnd.api+json';

/** A JSON:API request, as a JSON:API client sends it. */
function send(
  method: string,
  path: string,
  document?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return service.request(path, {
    method,
    headers: {
      Accept: jsonApi,
      ...(document === undefined ? {} : { 'Content-Type': jsonApi }),
      ...headers,
    },
    body: document === undefined ? undefined : JSON.stringify(document),
  });
}

const extractorDocument = (attributes: Record<string, unknown> = {}) => ({
  data: {
    type: 'SavedExtractor',
    attributes: { label: 'Receipts', jsonSchema: invoiceJsonSchema, ...attributes },
  },
});

describe('JSON:API query parameter families', () => {
  it.each([
    ['/api/extractors?include=runs', 'include'],
    ['/api/extractors?sort=-createdAt', 'sort'],
    ['/api/buckets?fields=description', 'fields'],
    ['/api/extractors?fields%5BSavedExtractor%5D=label', 'fields[SavedExtractor]'],
    ['/api/runs?page%5Bsize%5D=5', 'page[size]'],
    ['/api/runs?filter%5Bstatus%5D=failed', 'filter[status]'],
  ])('answers 400 to %s, naming the parameter, rather than ignore it', async (path, parameter) => {
    const document = await expectJsonApiErrors(await send('GET', path), 400);
    expect(document.errors).toEqual([
      expect.objectContaining({ source: { parameter }, code: 'bad-request' }),
    ]);
    // Whatever the representation: no client has them silently ignored.
    const problem = await expectProblem(await service.json('GET', path), 400);
    expect(problem.errors).toEqual([{ parameter, detail: expect.any(String) }]);
  });

  it('keeps the specification’s plain page and filters', async () => {
    expect((await send('GET', '/api/runs?page=1&status=failed')).status).toBe(200);
  });
});

describe('JSON:API media type parameters', () => {
  it('answers 415 to a body whose Content-Type has a parameter other than profile', async () => {
    const before = await storedState(service);
    for (const contentType of [
      `${jsonApi}; charset=utf-8`,
      `${jsonApi}; version=1.1`,
      `${jsonApi}; ext="https://jsonapi.org/ext/atomic"`,
    ]) {
      const response = await send('POST', '/api/extractors', extractorDocument(), {
        'Content-Type': contentType,
      });
      await expectJsonApiErrors(response, 415);
    }
    expect(await storedState(service)).toEqual(before);
    const profiled = await send('POST', '/api/extractors', extractorDocument(), {
      'Content-Type': `${jsonApi}; profile="https://example.com/profile"`,
    });
    expect(profiled.status, await profiled.clone().text()).toBe(201);
  });

  it('answers 406 when every JSON:API type in Accept has a parameter other than profile', async () => {
    const extractor = await createExtractor(service);
    const path = `/api/extractors/${extractor.id}`;
    for (const accept of [
      `${jsonApi}; charset=utf-8`,
      `${jsonApi}; ext="https://jsonapi.org/ext/atomic", */*`,
    ]) {
      const response = await service.request(path, { headers: { Accept: accept } });
      expect(response.status, accept).toBe(406);
    }
    for (const accept of [`${jsonApi}; charset=utf-8, ${jsonApi}`, `${jsonApi}; profile="x"`]) {
      const response = await service.request(path, { headers: { Accept: accept } });
      expect(response.status, accept).toBe(200);
      expect(response.headers.get('content-type')).toBe(jsonApi);
    }
  });
});

describe('JSON:API request documents', () => {
  it('answers 409 to a data.type that names another resource, and stores nothing', async () => {
    const before = await storedState(service);
    const document = await expectJsonApiErrors(
      await send('POST', '/api/buckets', { data: { type: 'SavedExtractor', attributes: {} } }),
      409,
    );
    expect(document.errors[0]!.detail).toMatch(/ExtractionBucket/);
    expect(await storedState(service)).toEqual(before);
  });

  it('answers 403 to a client-generated id', async () => {
    const before = await storedState(service);
    const document = await expectJsonApiErrors(
      await send('POST', '/api/extractors', {
        data: { ...extractorDocument().data, id: '01900000-0000-7000-8000-000000000000' },
      }),
      403,
    );
    expect(document.errors[0]!.source).toEqual({ pointer: '/data/id' });
    expect(await storedState(service)).toEqual(before);
  });

  it('answers 409 to a PUT whose data.id names another resource, and takes its own', async () => {
    const [one, other] = [await createExtractor(service), await createExtractor(service)];
    const replace = (id: string) =>
      send('PUT', `/api/extractors/${one.id}`, {
        data: { ...extractorDocument({ label: 'Renamed' }).data, id },
      });
    await expectJsonApiErrors(await replace(`/api/extractors/${other.id}`), 409);
    for (const id of [one.id, `/api/saved_extractors/${one.id}`]) {
      const response = await replace(id);
      expect(response.status, await response.clone().text()).toBe(200);
    }
  });

  it('answers a JSON:API client with an error object for each invalid field, pointing into its document', async () => {
    const response = await send('POST', '/api/extractors', {
      data: { type: 'SavedExtractor', attributes: { label: '', chunkSize: 5 } },
    });
    const document = await expectJsonApiErrors(response, 422);
    expect(document.jsonapi).toEqual({ version: '1.1' });
    expect(document.errors.map((error) => error.source)).toEqual(
      expect.arrayContaining([
        { pointer: '/data/attributes/label' },
        { pointer: '/data/attributes/jsonSchema' },
        { pointer: '/data/attributes/chunkSize' },
      ]),
    );
    expect(document.errors[0]).toMatchObject({
      status: '422',
      code: 'validation-error',
      title: 'Validation error',
      links: { type: '/api/docs#problem-validation-error' },
    });
  });

  it('points at a relationship that names nothing, in a problem document too', async () => {
    const bucket = await createBucket(service);
    const body = {
      data: {
        type: 'ExtractionRun',
        relationships: {
          bucket: { data: { type: 'ExtractionBucket', id: `/api/buckets/${bucket.id}` } },
          savedExtractor: { data: { type: 'SavedExtractor', id: '/api/buckets/not-one' } },
        },
      },
    };
    const problem = await expectProblem(
      await send('POST', '/api/runs', body, { Accept: 'application/json' }),
      422,
    );
    expect(problem.errors?.map((error) => error.pointer)).toContain(
      '/data/relationships/savedExtractor/data/id',
    );
  });
});
