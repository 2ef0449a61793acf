import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Bucket, Extractor } from '../../contract/resources.js';
import {
  createBucket,
  createExtractor,
  expectErrorAnswer,
  expectProblem,
  everyRoute,
  insertRunOfNew,
  routePath,
  uploaded,
} from '../testing/fixtures.js';
import { readCsv, readHtmlDefinitions, readHtmlTable } from '../testing/representations.js';
import { useTestService } from '../testing/test-service.js';
import { resourceMediaTypes } from './negotiation.js';

const service = useTestService();

async function typeFor(accept: string | undefined): Promise<string | number> {
  const bucket = await createBucket(service);
  const response = await service.request(`/api/buckets/${bucket.id}`, {
    headers: accept === undefined ? {} : { Accept: accept },
  });
  if (response.status !== 200) return response.status;
  return response.headers.get('content-type')!.split(';')[0]!;
}

describe('Accept negotiation', () => {
  it.each([
    [undefined, 'application/json'],
    ['', 'application/json'],
    ['*/*', 'application/json'],
    ['application/*', 'application/json'],
    ['text/*', 'text/csv'],
    ['text/csv;q=0.9, application/ld+json', 'application/ld+json'],
    ['application/ld+json;q=0.2, text/csv;q=0.8', 'text/csv'],
    ['text/*;q=0.5, text/html', 'text/html'],
    ['application/json;q=0, */*;q=0.1', 'application/vnd.api+json'],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'text/html'],
    ['APPLICATION/VND.API+JSON', 'application/vnd.api+json'],
    ['application/json; charset=utf-8', 'application/json'],
    ['image/png, */*;q=0', 406],
    ['application/xml', 406],
    ['application/json;q=0', 406],
  ] as const)('Accept %j answers %s', async (accept, expected) => {
    expect(await typeFor(accept)).toBe(expected);
  });

  it('answers 406 on every route that answers with a resource, listing what it can produce', async () => {
    const { bucket, extractor, run } = await insertRunOfNew(service, { status: 'completed' });
    const [file] = await uploaded(service, bucket.id, [{ name: 'a.txt', bytes: 'a\n' }]);
    const ids = {
      bucket: bucket.id,
      file: file!.id,
      extractor: extractor.id,
      run: run.id,
      session: 'none',
      page: '1',
    };
    // Not the file's bytes, its pages (pictures or text), results, nor GraphQL: those are
    // not resources in the five representations.
    const negotiated = everyRoute.filter(
      (route) => route.startsWith('GET') && !/content|pages|results|current|graphql/.test(route),
    );
    for (const route of negotiated) {
      const { path } = routePath(route, ids);
      const problem = await expectProblem(
        await service.request(path, { headers: { Accept: 'application/xml' } }),
        406,
      );
      expect(problem.allowed, route).toEqual([...resourceMediaTypes]);
    }
  });

  it('reads an Accept the same way at /api/graphql, where GraphQL Yoga answers', async () => {
    for (const accept of ['x', '__proto__', 'application/json; charset=latin1', '*/*']) {
      const response = await service.request('/api/graphql?query=%7B__typename%7D', {
        headers: { Accept: accept },
      });
      expect(response.status, accept).toBe(200);
      expect(await response.json()).toEqual({ data: { __typename: 'Query' } });
    }
    await expectProblem(
      await service.request('/api/graphql?query=%7B__typename%7D', {
        headers: { Accept: 'text/html' },
      }),
      406,
    );
  });

  it('says that answers vary with Accept', async () => {
    const bucket = await createBucket(service);
    for (const path of [`/api/buckets/${bucket.id}`, '/api/buckets', '/api/runs']) {
      expect((await service.request(path)).headers.get('vary')).toBe('Accept');
    }
  });

  it('answers errors as problem documents, and as JSON:API error documents to JSON:API clients', async () => {
    for (const accept of [
      ...resourceMediaTypes,
      'application/json, application/problem+json',
      'application/vnd.api+json, application/problem+json;q=0.5',
    ]) {
      await expectErrorAnswer(
        await service.request('/api/buckets/missing', { headers: { Accept: accept } }),
        404,
        accept,
      );
    }
  });
});

describe('Content-Type of request bodies', () => {
  it.each([
    ['application/xml', '<bucket/>'],
    ['text/plain', '{}'],
    ['application/x-www-form-urlencoded', 'description=x'],
    ['multipart/form-data; boundary=x', '--x--'],
    ['application/json-patch+json', '[]'],
  ])('answers 415 for %s, naming the five accepted types', async (type, body) => {
    const response = await service.request('/api/buckets', {
      method: 'POST',
      headers: { 'Content-Type': type },
      body,
    });
    expect(response.headers.get('accept-post')).toBe(resourceMediaTypes.join(', '));
    expect((await expectProblem(response, 415)).allowed).toEqual([...resourceMediaTypes]);
  });

  it('takes parameters and any case in the Content-Type', async () => {
    const response = await service.request('/api/buckets', {
      method: 'POST',
      headers: { 'Content-Type': 'Application/JSON; charset=UTF-8' },
      body: '{"description":"cased"}',
    });
    expect(response.status).toBe(201);
  });

  it.each([
    [
      '413 for a document body over 1 MiB',
      JSON.stringify({ description: 'x'.repeat(1024 * 1024) }),
      413,
    ],
    [
      '400 for a body that is not UTF-8',
      new Uint8Array([0x7b, 0x22, 0x64, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      400,
    ],
  ] as const)('answers %s', async (_case, body, status) => {
    await expectProblem(
      await service.request('/api/buckets', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body,
      }),
      status,
    );
  });
});

describe('HTML', () => {
  const hostile = `<script>alert("x")</script><img src=x onerror='y'> & done`;

  it('escapes every value of a resource and of a collection', async () => {
    const bucket = await createBucket(service, { description: hostile });
    for (const path of [`/api/buckets/${bucket.id}`, '/api/buckets']) {
      const html = await (await service.request(path, { headers: { Accept: 'text/html' } })).text();
      expect(html).not.toContain('<script');
      expect(html).not.toContain('<img');
      expect(html).toContain(
        '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=&#39;y&#39;&gt; &amp; done',
      );
    }
    const html = await (
      await service.request(`/api/buckets/${bucket.id}`, { headers: { Accept: 'text/html' } })
    ).text();
    expect(Object.fromEntries(readHtmlDefinitions(html)).description).toBe(hostile);
    const table = readHtmlTable(
      await (await service.request('/api/buckets', { headers: { Accept: 'text/html' } })).text(),
    );
    expect(table.rows.some((row) => row[table.head.indexOf('description')] === hostile)).toBe(true);
  });

  it('is sent with a Content-Security-Policy that allows its own stylesheet and nothing else', async () => {
    const bucket = await createBucket(service);
    for (const path of [`/api/buckets/${bucket.id}`, '/api/buckets']) {
      const response = await service.request(path, { headers: { Accept: 'text/html' } });
      const policy = response.headers.get('content-security-policy') ?? '';
      expect(policy).toContain("default-src 'none'");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).not.toContain('script-src');
      const style = /<style>([^<]*)<\/style>/.exec(await response.text())![1]!;
      const hash = createHash('sha256').update(style).digest('base64');
      expect(policy).toContain(`style-src 'sha256-${hash}'`);
    }
  });

  it('is a whole page, in English, with IRIs as links', async () => {
    const { bucket, run } = await insertRunOfNew(service, { status: 'completed' });
    const html = await (
      await service.request(`/api/runs/${run.id}`, { headers: { Accept: 'text/html' } })
    ).text();
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain(`<title>ExtractionRun ${run.id}</title>`);
    expect(html).toContain(`<a href="/api/buckets/${bucket.id}">/api/buckets/${bucket.id}</a>`);
  });
});

describe('CSV', () => {
  it('writes a header row and one record per resource, quoting as RFC 4180 says', async () => {
    const description = 'Line one, with "quotes"\r\nline two';
    const bucket = await createBucket(service, { description });
    const response = await service.request(`/api/buckets/${bucket.id}`, {
      headers: { Accept: 'text/csv' },
    });
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    const text = await response.text();
    expect(text).toContain('"Line one, with ""quotes""\r\nline two"');
    const [header, record, ...rest] = readCsv(text);
    expect(header).toEqual([
      'id',
      'description',
      'deletedAt',
      'createdAt',
      'updatedAt',
      'createdUsing',
      'artifacts',
      'runs',
    ]);
    expect(rest).toEqual([]);
    expect(record![1]).toBe(description);
  });

  it('defuses cells a spreadsheet would run as formulas', async () => {
    for (const start of ['=', '+', '-', '@']) {
      const bucket = await createBucket(service, {
        description: `${start}HYPERLINK("https://evil.example")`,
      });
      const [, record] = readCsv(
        await (
          await service.request(`/api/buckets/${bucket.id}`, { headers: { Accept: 'text/csv' } })
        ).text(),
      );
      expect(record![1]).toBe(`'${start}HYPERLINK("https://evil.example")`);
    }
  });
});

describe('both ways: what the service writes, it reads back', () => {
  it.each(resourceMediaTypes)(
    'PUT of an extractor as GET wrote it in %s changes no writable field',
    async (mediaType) => {
      const created = await createExtractor(service, {
        outputInstructions: 'Totals with "quotes", commas, <angles> & ampersands\nand two lines',
        allowDownload: false,
        includePageImages: true,
        chunkSize: 1234,
        pageTitle: 'Ünïcödé ✓',
      });
      const before = (await (
        await service.json('GET', `/api/extractors/${created.id}`)
      ).json()) as Extractor;
      const written = await (
        await service.request(`/api/extractors/${created.id}`, { headers: { Accept: mediaType } })
      ).text();
      const response = await service.request(`/api/saved_extractors/${created.id}`, {
        method: 'PUT',
        headers: { 'Content-Type': mediaType },
        body: written,
      });
      expect(response.status, await response.clone().text()).toBe(200);
      const after = (await response.json()) as Extractor;
      expect({ ...after, updatedAt: undefined }).toEqual({ ...before, updatedAt: undefined });
    },
  );

  it.each(resourceMediaTypes)(
    'POST of a bucket as GET wrote it in %s makes a new bucket like it',
    async (mediaType) => {
      const original = await createBucket(service, { description: 'Copy me, "please" <now>' });
      let written = await (
        await service.request(`/api/buckets/${original.id}`, { headers: { Accept: mediaType } })
      ).text();
      if (mediaType === 'application/vnd.api+json') {
        // A JSON:API client leaves the id out of a resource it creates (JSON:API 1.1 §7.1).
        const { data } = JSON.parse(written) as { data: Record<string, unknown> };
        written = JSON.stringify({ data: { ...data, id: undefined } });
      }
      const response = await service.request('/api/buckets', {
        method: 'POST',
        headers: { 'Content-Type': mediaType },
        body: written,
      });
      expect(response.status, await response.clone().text()).toBe(201);
      const copy = (await response.json()) as Bucket;
      expect(copy.id).not.toBe(original.id);
      expect(copy.description).toBe(original.description);
    },
  );
});
