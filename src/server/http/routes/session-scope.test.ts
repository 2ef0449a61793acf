/**
 * What an embed session's token may reach: its bucket, its extractor and that bucket's runs
 * of its extractor, as unknown as made-up ids beyond them; its runs take the extractor's
 * settings, and its downloads the extractor's `allowDownload`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Bucket, BucketFile, EmbedSession, Extractor } from '../../../contract/resources.js';
import type { RunRow } from '../../store/schema.js';
import {
  createBucket,
  createExtractor,
  createSession,
  expectProblem,
  extractorInput,
  insertRun,
  storedState,
  upload,
} from '../../testing/fixtures.js';
import { expectResource } from '../../testing/representations.js';
import { adminToken, useTestService } from '../../testing/test-service.js';
import { resourceMediaTypes } from '../negotiation.js';

const service = useTestService();

// What a session token is given, made once for the describes of its boundaries below.
let extractor: Extractor;
let otherExtractor: Extractor;
let bucket: Bucket;
let otherBucket: Bucket;
let session: EmbedSession;
let ownRun: RunRow;
let ownFile: BucketFile;
let otherFile: BucketFile;
const runs: Record<string, RunRow> = {};

// The partner's settings that a session must never read.
const secrets = {
  outputInstructions: 'Partner instructions: be thorough',
  webhookUrl: 'http://127.0.0.1:9/partner-hook',
};

beforeAll(async () => {
  extractor = await createExtractor(service, { ...secrets, enableWebhook: true });
  otherExtractor = await createExtractor(service);
  [bucket, otherBucket] = [await createBucket(service), await createBucket(service)];
  session = await createSession(service, { savedExtractor: extractor.id, bucket: bucket.id });
  ownRun = await insertRun(service, {
    bucketId: bucket.id,
    extractorId: extractor.id,
    status: 'completed',
  });
  runs['of another extractor in its bucket'] = await insertRun(service, {
    bucketId: bucket.id,
    extractorId: otherExtractor.id,
    status: 'failed',
  });
  runs['of its extractor in another bucket'] = await insertRun(service, {
    bucketId: otherBucket.id,
    extractorId: extractor.id,
  });
  // As the lifecycle keeps it: the extractor last ran in the other bucket.
  await service.services.db
    .updateTable('extractors')
    .set({ last_ran_at: runs['of its extractor in another bucket'].created_at })
    .where('id', '=', extractor.id)
    .execute();
  ownFile = (
    (await (
      await upload(service, bucket.id, [{ name: 'own.txt', bytes: 'own\n' }])
    ).json()) as BucketFile[]
  )[0]!;
  otherFile = (
    (await (
      await upload(service, otherBucket.id, [{ name: 'other.txt', bytes: 'other\n' }])
    ).json()) as BucketFile[]
  )[0]!;
});

const asSession = (path: string, init: RequestInit = {}) =>
  service.request(path, { ...init, token: session.token });

/** What the session may see of its extractor and bucket: the personal token's view, narrowed. */
async function sessionViews(): Promise<{ extractor: Extractor; bucket: Bucket }> {
  const full = (await (
    await service.json('GET', `/api/extractors/${extractor.id}`)
  ).json()) as Extractor;
  const { outputInstructions, webhookUrl, ...visible } = full;
  expect({ outputInstructions, webhookUrl }).toEqual(secrets);
  expect(full.runs).toHaveLength(2);
  expect(full.lastRanAt).toBe(runs['of its extractor in another bucket']!.created_at);
  const fullBucket = (await (
    await service.json('GET', `/api/buckets/${bucket.id}`)
  ).json()) as Bucket;
  expect(fullBucket.runs).toHaveLength(2);
  const ownRuns = [`/api/runs/${ownRun.id}`];
  return {
    extractor: { ...visible, runs: ownRuns, lastRanAt: ownRun.created_at },
    bucket: { ...fullBucket, runs: ownRuns },
  };
}

describe('the boundaries of a session token', () => {
  it.each(resourceMediaTypes)(
    'reads its extractor, its bucket, its files and its runs, in %s',
    async (mediaType) => {
      const expected = await sessionViews();
      for (const base of ['/api/extractors', '/api/saved_extractors']) {
        const response = await asSession(`${base}/${extractor.id}`, {
          headers: { Accept: mediaType },
        });
        expect(response.status).toBe(200);
        const text = await expectResource(response, mediaType, 'extractor', expected.extractor);
        for (const hidden of [...Object.values(secrets), 'webhookUrl', 'outputInstructions'])
          expect(text).not.toContain(hidden);
        for (const run of Object.values(runs)) expect(text).not.toContain(run.id);
      }
      const own = await asSession(`/api/buckets/${bucket.id}`, { headers: { Accept: mediaType } });
      const text = await expectResource(own, mediaType, 'bucket', expected.bucket);
      for (const run of Object.values(runs)) expect(text).not.toContain(run.id);
      expect(
        (await asSession(`/api/buckets/${bucket.id}/files`, { headers: { Accept: mediaType } }))
          .status,
      ).toBe(200);
      expect(
        (
          await asSession(`/api/buckets/${bucket.id}/files/${ownFile.id}`, {
            headers: { Accept: mediaType },
          })
        ).status,
      ).toBe(200);
      for (const base of ['/api/runs', '/api/extraction_runs']) {
        const response = await asSession(`${base}/${ownRun.id}`, {
          headers: { Accept: mediaType },
        });
        expect(response.status).toBe(200);
        await expectResource(
          response,
          mediaType,
          'run',
          (await (await service.json('GET', `/api/runs/${ownRun.id}`)).json()) as { id: string },
        );
      }
    },
  );

  it('downloads, uploads to and removes files from its bucket', async () => {
    expect(
      await (await asSession(`/api/buckets/${bucket.id}/files/${ownFile.id}/content`)).text(),
    ).toBe('own\n');
    const response = await upload(service, bucket.id, [{ name: 'added.txt', bytes: 'added\n' }], {
      token: session.token,
    });
    expect(response.status).toBe(201);
    const [added] = (await response.json()) as BucketFile[];
    expect(
      (await asSession(`/api/buckets/${bucket.id}/files/${added!.id}`, { method: 'DELETE' }))
        .status,
    ).toBe(204);
  });

  it('tells about itself at /api/embed_sessions/current', async () => {
    const response = await asSession('/api/embed_sessions/current');
    expect(await response.json()).toEqual({
      id: session.id,
      expiresAt: session.expiresAt,
      bucket: `/api/buckets/${bucket.id}`,
      savedExtractor: `/api/extractors/${extractor.id}`,
      allowedOrigins: [],
      theme: null,
      locale: null,
      strings: {},
      colorScheme: 'light',
      renewableUntil: expect.any(String),
    });
    await expectProblem(await service.request('/api/embed_sessions/current'), 404);
  });
});

describe('the boundaries of a session token: what lies outside it', () => {
  const outside: [string, () => [string, RequestInit?]][] = [
    ['another extractor', () => [`/api/extractors/${otherExtractor.id}`]],
    [
      'another extractor under its second name',
      () => [`/api/saved_extractors/${otherExtractor.id}`],
    ],
    ['another bucket', () => [`/api/buckets/${otherBucket.id}`]],
    ['the files of another bucket', () => [`/api/buckets/${otherBucket.id}/files`]],
    ['a file of another bucket', () => [`/api/buckets/${otherBucket.id}/files/${otherFile.id}`]],
    [
      'the bytes of a file of another bucket',
      () => [`/api/buckets/${otherBucket.id}/files/${otherFile.id}/content`],
    ],
    [
      'a file of another bucket under its own',
      () => [`/api/buckets/${bucket.id}/files/${otherFile.id}/content`],
    ],
    [
      'a run of another extractor in its bucket',
      () => [`/api/runs/${runs['of another extractor in its bucket']!.id}`],
    ],
    [
      'a run of its extractor in another bucket',
      () => [`/api/extraction_runs/${runs['of its extractor in another bucket']!.id}`],
    ],
    ['the list of buckets', () => ['/api/buckets']],
    ['the list of extractors', () => ['/api/extractors']],
    ['the list of saved extractors', () => ['/api/saved_extractors']],
    ['the list of runs', () => ['/api/runs']],
    ['the list of extraction runs', () => ['/api/extraction_runs']],
  ];

  it.each(outside)('answers 404 for %s, as if it did not exist', async (_what, target) => {
    const [path, init] = target();
    await expectProblem(await asSession(path, init), 404);
  });

  const forbiddenWrites: [string, () => [string, RequestInit]][] = [
    [
      'creating a bucket',
      () => [
        '/api/buckets',
        { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' },
      ],
    ],
    ['deleting its bucket', () => [`/api/buckets/${bucket.id}`, { method: 'DELETE' }]],
    ['deleting another bucket', () => [`/api/buckets/${otherBucket.id}`, { method: 'DELETE' }]],
    [
      'creating an extractor',
      () => [
        '/api/extractors',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(extractorInput()),
        },
      ],
    ],
    [
      'changing its extractor',
      () => [
        `/api/saved_extractors/${extractor.id}`,
        {
          method: 'PUT',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(extractorInput()),
        },
      ],
    ],
    ['deleting its extractor', () => [`/api/extractors/${extractor.id}`, { method: 'DELETE' }]],
    [
      'rotating its webhook secret',
      () => [`/api/extractors/${extractor.id}/webhook_secret`, { method: 'POST' }],
    ],
    [
      'minting another session',
      () => [
        '/api/embed_sessions',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ savedExtractor: extractor.id }),
        },
      ],
    ],
    ['revoking itself', () => [`/api/embed_sessions/${session.id}`, { method: 'DELETE' }]],
    [
      'removing a file of another bucket',
      () => [`/api/buckets/${otherBucket.id}/files/${otherFile.id}`, { method: 'DELETE' }],
    ],
  ];

  it.each(forbiddenWrites)('answers 404 to %s, and changes nothing', async (_what, target) => {
    const [path, init] = target();
    const before = await storedState(service);
    await expectProblem(await asSession(path, init), 404);
    expect(await storedState(service)).toEqual(before);
  });

  it.each(['pause', 'resume', 'cancel', 'submit'])(
    'answers 404 to %s on a run outside its bucket and extractor',
    async (command) => {
      for (const run of Object.values(runs)) {
        const before = await storedState(service);
        await expectProblem(
          await asSession(`/api/extraction_runs/${run.id}/${command}`, { method: 'POST' }),
          404,
        );
        expect(await storedState(service)).toEqual(before);
      }
    },
  );
});

describe('the boundaries of a session token: runs and uploads outside it', () => {
  it('answers 404 to reading, editing or watching the results of a run outside its scope', async () => {
    for (const run of Object.values(runs)) {
      await expectProblem(await asSession(`/api/runs/${run.id}/results`), 404);
      await expectProblem(await asSession(`/api/runs/${run.id}/events`), 404);
      await expectProblem(
        await asSession(`/api/runs/${run.id}/results`, {
          method: 'PUT',
          headers: { 'Content-Type': 'application/json' },
          body: '{}',
        }),
        404,
      );
    }
  });

  it('cannot start a run over another bucket or with another extractor: they are as unknown as made-up ids', async () => {
    const before = await storedState(service);
    const start = (body: Record<string, string>) =>
      asSession('/api/extraction_runs', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const foreignBucket = await expectProblem(
      await start({ bucket: otherBucket.id, savedExtractor: extractor.id }),
      422,
    );
    const madeUpBucket = await expectProblem(
      await start({ bucket: '01900000-0000-7000-8000-000000000000', savedExtractor: extractor.id }),
      422,
    );
    expect(foreignBucket.errors).toEqual(madeUpBucket.errors);
    const foreignExtractor = await expectProblem(
      await start({ bucket: bucket.id, savedExtractor: otherExtractor.id }),
      422,
    );
    const madeUpExtractor = await expectProblem(
      await start({ bucket: bucket.id, savedExtractor: '01900000-0000-7000-8000-000000000000' }),
      422,
    );
    expect(foreignExtractor.errors).toEqual(madeUpExtractor.errors);
    expect(await storedState(service)).toEqual(before);
  });

  it('answers 404 to an upload into another bucket, and keeps nothing', async () => {
    const before = await storedState(service);
    await expectProblem(
      await upload(service, otherBucket.id, [{ name: 'sneaky.txt', bytes: 'x\n' }], {
        token: session.token,
      }),
      404,
    );
    expect(await storedState(service)).toEqual(before);
  });
});

describe("a session's runs", () => {
  it("take the extractor's settings; setting any of them answers 403 naming each, and stores nothing", async () => {
    const extractor = await createExtractor(service, { chunkSize: 900, markPageImages: true });
    const bucket = await createBucket(service);
    await upload(service, bucket.id, [{ name: 'a.txt', bytes: 'Invoice 1\n' }]);
    const session = await createSession(service, {
      savedExtractor: extractor.id,
      bucket: bucket.id,
    });
    const start = (settings: Record<string, unknown>, token: string | null = session.token) =>
      service.json(
        'POST',
        '/api/extraction_runs',
        { bucket: bucket.id, savedExtractor: extractor.id, ...settings },
        token,
      );

    const before = await storedState(service);
    const overrides = {
      strategy: 'llm',
      model: 'gpt-4o-mini',
      chunkSize: 200,
      includeText: false,
      includeEmbeddedImages: true,
      markEmbeddedImages: true,
      includePageImages: true,
      markPageImages: false,
      combineFiles: true,
    };
    const all = await expectProblem(await start(overrides), 403);
    expect(all.errors!.map((error) => error.pointer)).toEqual(
      Object.keys(overrides).map((field) => `/${field}`),
    );
    for (const [field, value] of Object.entries(overrides)) {
      const one = await expectProblem(await start({ [field]: value }), 403);
      expect(one.detail).toContain(field);
      expect(one.errors).toEqual([
        { pointer: `/${field}`, detail: expect.stringContaining(field) },
      ]);
    }
    expect(await storedState(service)).toEqual(before);

    const own = await start({});
    expect(own.status).toBe(201);
    expect(await own.json()).toMatchObject({
      strategy: 'local',
      chunkSize: 900,
      markPageImages: true,
      includePageImages: false,
    });
    // A personal access token may still choose.
    const chosen = await start({ chunkSize: 200, includePageImages: true }, adminToken);
    expect(chosen.status).toBe(201);
    expect(await chosen.json()).toMatchObject({ chunkSize: 200, includePageImages: true });
  });
});

describe("a session's downloads", () => {
  it("are refused with 403 when the extractor's allowDownload is off, in every format", async () => {
    const bucket = await createBucket(service);
    const record = { invoice_number: 'INV-1', total: 3 };
    const runOf = async (allowDownload: boolean) => {
      const extractor = await createExtractor(service, { allowDownload });
      const run = await insertRun(service, {
        bucketId: bucket.id,
        extractorId: extractor.id,
        status: 'completed',
        documents: [{ name: 'inv-1.pdf', data: record }],
      });
      const session = await createSession(service, {
        savedExtractor: extractor.id,
        bucket: bucket.id,
      });
      return { run, session };
    };
    const download = (runId: string, format: string, token?: string) =>
      service.request(`/api/extraction_runs/${runId}/results?format=${format}`, { token });

    const closed = await runOf(false);
    for (const format of ['json', 'xml', 'csv']) {
      const problem = await expectProblem(
        await download(closed.run.id, format, closed.session.token),
        403,
      );
      expect(problem.detail).toMatch(/allowDownload/);
      // The partner's own token may, and the session still reads the results to edit them.
      expect((await download(closed.run.id, format)).status).toBe(200);
    }
    const read = await service.request(`/api/extraction_runs/${closed.run.id}`, {
      token: closed.session.token,
    });
    expect(((await read.json()) as { resultJson: string }).resultJson).toBe(closed.run.result_json);

    const open = await runOf(true);
    const allowed = await download(open.run.id, 'json', open.session.token);
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toMatchObject({
      documents: [{ name: 'inv-1.pdf', status: 'completed', data: record }],
    });
  });
});
