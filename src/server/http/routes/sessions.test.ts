/**
 * Minting and renewing embed sessions (`POST /api/embed_sessions`): what a session is
 * granted and told, and what cannot be granted. What a session token may then reach is in
 * session-scope.test.ts, how it ends in session-end.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Bucket, EmbedSession } from '../../../contract/resources.js';
import {
  createBucket,
  createExtractor,
  createSession,
  expectProblem,
  storedState,
} from '../../testing/fixtures.js';
import { encodeBody, expectResource } from '../../testing/representations.js';
import { useTestService } from '../../testing/test-service.js';
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
});

describe('POST /api/embed_sessions: renewal and limits', () => {
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
});

describe('POST /api/embed_sessions: theme, locale and strings', () => {
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
