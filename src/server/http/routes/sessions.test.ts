import { beforeAll, describe, expect, it } from 'vitest';
import type { Bucket, BucketFile, EmbedSession, Extractor } from '../../../contract/resources.js';
import type { RunRow } from '../../store/schema.js';
import {
  createBucket,
  createExtractor,
  createSession,
  expectProblem,
  expectUnauthorized,
  extractorInput,
  insertRun,
  storedState,
  upload,
} from '../../testing/fixtures.js';
import { encodeBody, expectResource } from '../../testing/representations.js';
import { adminToken, useTestService } from '../../testing/test-service.js';
import { resourceMediaTypes } from '../negotiation.js';

const service = useTestService();

/** What the session of `token` is told about itself, as JSON. */
async function currentOf(token: string): Promise<Record<string, unknown>> {
  const response = await service.json('GET', '/api/embed_sessions/current', undefined, token);
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

describe('POST /api/embed_sessions', () => {
  it.each(resourceMediaTypes)(
    'mints a session for an extractor and a new bucket, answering in %s',
    async (mediaType) => {
      const extractor = await createExtractor(service);
      const response = await service.request('/api/embed_sessions', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: mediaType },
        body: JSON.stringify({
          savedExtractor: `/api/saved_extractors/${extractor.id}`,
          allowedOrigins: ['https://Partner.example:443/'],
        }),
      });
      expect(response.status).toBe(201);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const text = await response.clone().text();
      const token = /xses_[A-Za-z0-9_-]{43}/.exec(text)![0];
      const row = await service.services.db
        .selectFrom('tokens')
        .selectAll()
        .where('kind', '=', 'session')
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow();
      expect(response.headers.get('location')).toBe(`/api/embed_sessions/${row.id}`);
      expect(row.token_hash).not.toContain(token);
      const bucketId = row.bucket_id!;
      const session: EmbedSession = {
        id: row.id,
        token,
        expiresAt: row.expires_at!,
        bucket: `/api/buckets/${bucketId}`,
        savedExtractor: `/api/extractors/${extractor.id}`,
        allowedOrigins: ['https://partner.example'],
        theme: null,
        locale: null,
        strings: {},
        colorScheme: 'light',
        renewableUntil: row.renewable_until!,
        embeddedUrl: `http://extractor.test/embed/${extractor.id}?session=${token}`,
        fullPageUrl: `http://extractor.test/x/${extractor.id}?session=${token}`,
      };
      await expectResource(response, mediaType, 'session', session);
      const expiresIn = Date.parse(session.expiresAt) - Date.now();
      expect(expiresIn).toBeGreaterThan(3590_000);
      expect(expiresIn).toBeLessThanOrEqual(3600_000);
      // Renewable for four hours by default.
      const renewableFor = Date.parse(session.renewableUntil) - Date.now();
      expect(renewableFor).toBeGreaterThan(4 * 3600_000 - 10_000);
      expect(renewableFor).toBeLessThanOrEqual(4 * 3600_000);
      const bucket = (await (
        await service.json('GET', `/api/buckets/${bucketId}`)
      ).json()) as Bucket;
      expect(bucket.createdUsing).toBe('embed');
    },
  );

  it.each(resourceMediaTypes)('reads a %s body and uses the given bucket', async (mediaType) => {
    const [extractor, bucket] = [await createExtractor(service), await createBucket(service)];
    const response = await service.request('/api/embed_sessions', {
      method: 'POST',
      headers: { 'Content-Type': mediaType },
      body: encodeBody(
        mediaType,
        { savedExtractor: extractor.id, bucket: `/api/buckets/${bucket.id}`, ttlSeconds: 600 },
        'EmbedSession',
      ),
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const session = (await response.json()) as EmbedSession;
    expect(session.bucket).toBe(`/api/buckets/${bucket.id}`);
    const expiresIn = Date.parse(session.expiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(590_000);
    expect(expiresIn).toBeLessThanOrEqual(600_000);
  });

  it('keeps the colour scheme a session is minted with, and tells it to the session', async () => {
    const extractor = await createExtractor(service);
    const minted = (await (
      await service.json('POST', '/api/embed_sessions', {
        savedExtractor: extractor.id,
        colorScheme: 'dark',
      })
    ).json()) as EmbedSession;
    expect(minted.colorScheme).toBe('dark');
    expect((await currentOf(minted.token)).colorScheme).toBe('dark');
  });

  it('renews a session with a new token, never past the lifetime fixed when it was minted', async () => {
    const extractor = await createExtractor(service);
    const minted = (await (
      await service.json('POST', '/api/embed_sessions', {
        savedExtractor: extractor.id,
        ttlSeconds: 600,
        maxLifetimeSeconds: 900,
        colorScheme: 'auto',
        theme: { 'color-accent': '#0b7a75' },
        allowedOrigins: ['https://partner.example'],
        locale: 'de',
        strings: { 'upload.dropHint': 'Rechnungen hier ablegen' },
      })
    ).json()) as EmbedSession;
    const renew = (token: string) =>
      service.request('/api/embed_sessions/renew', {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
      });

    const first = await renew(minted.token);
    expect(first.status).toBe(201);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const renewed = (await first.json()) as EmbedSession;
    expect(renewed.token).not.toBe(minted.token);
    expect(renewed).toMatchObject({
      bucket: minted.bucket,
      savedExtractor: minted.savedExtractor,
      allowedOrigins: minted.allowedOrigins,
      theme: minted.theme,
      locale: 'de',
      strings: { 'upload.dropHint': 'Rechnungen hier ablegen' },
      colorScheme: 'auto',
      renewableUntil: minted.renewableUntil,
    });
    // As long-lived as the first would be from now... but no later than the lifetime allows.
    expect(Date.parse(renewed.expiresAt)).toBeGreaterThan(Date.parse(minted.expiresAt) - 1000);
    expect(renewed.expiresAt <= minted.renewableUntil).toBe(true);
    // The new token works, on the same bucket; the old one still does until it expires.
    // The renewed session speaks the same language.
    expect(await currentOf(renewed.token)).toMatchObject({
      bucket: minted.bucket,
      locale: 'de',
      strings: { 'upload.dropHint': 'Rechnungen hier ablegen' },
    });
    expect((await renew(minted.token)).status).toBe(201);

    // At the end of its lifetime the session is not renewed any more.
    await service.services.db
      .updateTable('tokens')
      .set({ renewable_until: new Date(Date.now() + 30_000).toISOString() })
      .where('id', '=', renewed.id)
      .execute();
    const refused = await expectProblem(await renew(renewed.token), 409);
    expect(refused.detail).toMatch(/can no longer be renewed/);
    // An expired token renews nothing, and a personal token is not a session.
    await service.services.db
      .updateTable('tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', minted.id)
      .execute();
    await expectProblem(await renew(minted.token), 401);
    await expectProblem(await service.json('POST', '/api/embed_sessions/renew'), 404);
  });

  it('answers 422 with pointers for what cannot be granted, and stores nothing', async () => {
    const extractor = await createExtractor(service);
    const deleted = await createExtractor(service);
    await service.request(`/api/extractors/${deleted.id}`, { method: 'DELETE' });
    const before = await storedState(service);
    const pointers = async (body: Record<string, unknown>) =>
      (await expectProblem(await service.json('POST', '/api/embed_sessions', body), 422))
        .errors!.map((error) => error.pointer)
        .sort();
    expect(await pointers({ savedExtractor: 'nothing' })).toEqual(['/savedExtractor']);
    expect(await pointers({ savedExtractor: deleted.id })).toEqual(['/savedExtractor']);
    expect(await pointers({ savedExtractor: `/api/buckets/${extractor.id}` })).toEqual([
      '/savedExtractor',
    ]);
    expect(await pointers({ savedExtractor: extractor.id, bucket: 'nothing' })).toEqual([
      '/bucket',
    ]);
    expect(await pointers({ savedExtractor: extractor.id, ttlSeconds: 86_401 })).toEqual([
      '/ttlSeconds',
    ]);
    expect(await pointers({ savedExtractor: extractor.id, ttlSeconds: 59 })).toEqual([
      '/ttlSeconds',
    ]);
    expect(
      await pointers({
        savedExtractor: extractor.id,
        allowedOrigins: ['https://ok.example', 'https://x.example/path', 'javascript:1'],
      }),
    ).toEqual(['/allowedOrigins/1', '/allowedOrigins/2']);
    expect(
      await pointers({ savedExtractor: extractor.id, ttlSeconds: 600, maxLifetimeSeconds: 300 }),
    ).toEqual(['/maxLifetimeSeconds']);
    expect(await pointers({ savedExtractor: extractor.id, colorScheme: 'night' })).toEqual([
      '/colorScheme',
    ]);
    expect(await pointers({})).toEqual(['/savedExtractor']);
    expect(await storedState(service)).toEqual(before);
  });

  it('allows a day at most', async () => {
    const extractor = await createExtractor(service);
    const session = await createSession(service, {
      savedExtractor: extractor.id,
      ttlSeconds: 86_400,
    });
    expect(Date.parse(session.expiresAt) - Date.now()).toBeGreaterThan(86_390_000);
  });

  it('keeps a theme of known tokens, tells it to the session, and refuses any other', async () => {
    const extractor = await createExtractor(service);
    const theme = {
      'color-accent': '#0a7d5a',
      radius: '0',
      'font-family': "Georgia, 'Times', serif",
    };
    const session = await createSession(service, { savedExtractor: extractor.id, theme });
    expect(session.theme).toEqual(theme);
    expect((await currentOf(session.token)).theme).toEqual(theme);

    const before = await storedState(service);
    for (const [name, value, pointer] of [
      ['color-link', 'red', '/theme'],
      ['--extractor-color-accent', 'red', '/theme'],
      ['color-accent', 'red; background: blue', '/theme/color-accent'],
      ['color-accent', 'url(https://evil.example/)', '/theme/color-accent'],
    ] as const) {
      const problem = await expectProblem(
        await service.json('POST', '/api/embed_sessions', {
          savedExtractor: extractor.id,
          theme: { [name]: value },
        }),
        422,
      );
      expect(problem.errors!.map((error) => error.pointer)).toEqual([pointer]);
      expect(problem.errors![0]!.detail).toMatch(pointer === '/theme' ? name : /theme values/);
    }
    expect(await storedState(service)).toEqual(before);
  });

  it('keeps a locale and string overrides and tells them to the session', async () => {
    const extractor = await createExtractor(service);
    const strings = {
      'upload.dropHint': 'Legen Sie Ihre Rechnungen hier ab',
      'results.submit': 'An die Buchhaltung senden',
      'a_b-9': '',
    };
    const session = await createSession(service, {
      savedExtractor: extractor.id,
      locale: 'de-de',
      strings,
    });
    expect(session.locale).toBe('de-DE');
    expect(session.strings).toEqual(strings);
    expect(await currentOf(session.token)).toMatchObject({ locale: 'de-DE', strings });

    // A language without a translation is kept: the interface falls back, not the API.
    const klingon = await createSession(service, { savedExtractor: extractor.id, locale: 'tlh' });
    expect(klingon.locale).toBe('tlh');
    expect(klingon.strings).toEqual({});
    // At the limits, everything is kept.
    const full = Object.fromEntries(
      Array.from({ length: 500 }, (_, index) => [`m${index}`.padEnd(100, 'x'), 'é'.repeat(500)]),
    );
    const roomy = await createSession(service, {
      savedExtractor: extractor.id,
      locale: 'zh-Hant-TW-u-nu-hanidec-ca-roc',
      strings: full,
    });
    expect(roomy.strings).toEqual(full);
    // What right-to-left and joining scripts need is kept: the joiner and non-joiner
    // (Persian, emoji), and the marks that place a number in right-to-left text.
    const scripts = {
      'upload.dropHint': 'فایل\u200Cها را اینجا رها کنید',
      'results.count': '\u200Fسند 42\u200F',
      'a.family': 'Family \u{1F468}\u200D\u{1F469}\u200D\u{1F467}',
    };
    const rightToLeft = await createSession(service, {
      savedExtractor: extractor.id,
      locale: 'fa',
      strings: scripts,
    });
    expect(rightToLeft.strings).toEqual(scripts);
  });

  it('refuses an ill-formed locale and strings beyond their limits, naming the field', async () => {
    const extractor = await createExtractor(service);
    const before = await storedState(service);
    const tooMany = Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`m${i}`, 'x']));
    for (const [body, pointer, detail] of [
      [{ locale: 'not a tag' }, '/locale', /BCP 47/],
      [{ locale: 'de_DE' }, '/locale', /BCP 47/],
      [{ locale: '' }, '/locale', /BCP 47/],
      [{ locale: 'de-' + 'a'.repeat(33) }, '/locale', /35/],
      [{ locale: 42 }, '/locale', /string/],
      [{ strings: ['upload.dropHint'] }, '/strings', /object|record/i],
      [{ strings: tooMany }, '/strings', /500/],
      [{ strings: { 'bad id!': 'x' } }, '/strings/bad id!', /message id/],
      [{ strings: { ['m'.repeat(101)]: 'x' } }, `/strings/${'m'.repeat(101)}`, /100/],
      [{ strings: { ok: 'x'.repeat(501) } }, '/strings/ok', /500/],
      [{ strings: { ok: 'line\nbreak' } }, '/strings/ok', /control/],
      [{ strings: { ok: '\u0000' } }, '/strings/ok', /control/],
      // Shows as "Upload exe.pdf": an override turns what follows around.
      [{ strings: { ok: 'Upload \u202Efdp.exe' } }, '/strings/ok', /U\+202A/],
      [{ strings: { ok: 'Drop \u2067files\u2069 here' } }, '/strings/ok', /isolates/],
      [{ strings: { ok: 'Up\u200Bload' } }, '/strings/ok', /zero-width/],
      [{ strings: { ok: '\uFEFFUpload' } }, '/strings/ok', /zero-width/],
      [{ strings: { ok: 'Upload\u2028now' } }, '/strings/ok', /line separators/],
      [{ strings: { ok: 3 } }, '/strings/ok', /string/],
    ] as const) {
      const problem = await expectProblem(
        await service.json('POST', '/api/embed_sessions', {
          savedExtractor: extractor.id,
          ...body,
        }),
        422,
      );
      expect(problem.errors, JSON.stringify(body).slice(0, 80)).toHaveLength(1);
      expect(problem.errors![0]!.pointer).toBe(pointer);
      expect(problem.errors![0]!.detail).toMatch(detail);
    }
    expect(await storedState(service)).toEqual(before);
  });
});

describe('the boundaries of a session token', () => {
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

describe('the end of a session', () => {
  /**
   * Opens the event stream of a running run of a new session, as EventSource does (the
   * token in the address), and reads its snapshot.
   */
  async function openStream() {
    const extractor = await createExtractor(service);
    const session = await createSession(service, { savedExtractor: extractor.id });
    const run = await insertRun(service, {
      bucketId: session.bucket.split('/').at(-1)!,
      extractorId: extractor.id,
      status: 'running',
    });
    const response = await service.request(
      `/api/extraction_runs/${run.id}/events?access_token=${session.token}`,
      { token: null, headers: { Accept: 'text/event-stream' } },
    );
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('event: snapshot');
    return { session, reader };
  }

  /** Settles once the stream is done: reads on until then. */
  async function end(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<true> {
    while (!(await reader.read()).done);
    return true;
  }

  /** Whether `ended` settles within `ms`. */
  function within(ended: Promise<true>, ms: number): Promise<boolean> {
    const deadline = new Promise<false>((resolve) => setTimeout(() => resolve(false), ms));
    return Promise.race([ended, deadline]);
  }

  /** Whether the stream ends within `ms`; it is cancelled when it does not. */
  async function endsWithin(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number) {
    const ended = await within(end(reader), ms);
    if (!ended) await reader.cancel();
    return ended;
  }

  it('ends the open event streams of a revoked session within five seconds, and only then', async () => {
    const { session, reader } = await openStream();
    const ended = end(reader);
    // Past a check of the token (every two seconds), a live session's stream stays open.
    expect(await within(ended, 2_500)).toBe(false);
    const revoke = await service.request(`/api/embed_sessions/${session.id}`, { method: 'DELETE' });
    expect(revoke.status).toBe(204);
    expect(await within(ended, 5_000)).toBe(true);
  });

  it('ends the open event streams of a session within five seconds of its expiry', async () => {
    const { session, reader } = await openStream();
    await service.services.db
      .updateTable('tokens')
      .set({ expires_at: new Date(Date.now() + 500).toISOString() })
      .where('id', '=', session.id)
      .execute();
    expect(await endsWithin(reader, 5_500)).toBe(true);
  });

  it('answers 401 with a Bearer challenge once the session has expired', async () => {
    const extractor = await createExtractor(service);
    const session = await createSession(service, { savedExtractor: extractor.id });
    const bucketPath = session.bucket;
    expect((await service.request(bucketPath, { token: session.token })).status).toBe(200);
    await service.services.db
      .updateTable('tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', session.id)
      .execute();
    for (const path of [
      bucketPath,
      `/api/extractors/${extractor.id}`,
      '/api/embed_sessions/current',
      '/api/buckets',
    ]) {
      const problem = await expectUnauthorized(
        await service.request(path, { token: session.token }),
      );
      expect(problem.detail).toMatch(/expired/);
    }
  });

  it('answers 401 once revoked; revoking twice or revoking a personal token here answers 404', async () => {
    const extractor = await createExtractor(service);
    const session = await createSession(service, { savedExtractor: extractor.id });
    const revoke = await service.request(`/api/embed_sessions/${session.id}`, { method: 'DELETE' });
    expect(revoke.status).toBe(204);
    const problem = await expectUnauthorized(
      await service.request(session.bucket, { token: session.token }),
    );
    expect(problem.detail).toMatch(/revoked/);
    await expectProblem(
      await service.request(`/api/embed_sessions/${session.id}`, { method: 'DELETE' }),
      404,
    );
    const personal = await service.services.db
      .selectFrom('tokens')
      .select('id')
      .where('kind', '=', 'personal')
      .executeTakeFirstOrThrow();
    await expectProblem(
      await service.request(`/api/embed_sessions/${personal.id}`, { method: 'DELETE' }),
      404,
    );
    expect((await service.request('/api/buckets')).status).toBe(200);
  });
});
