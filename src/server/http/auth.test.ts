import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  everyRoute,
  expectUnauthorized,
  routePath,
  storedState,
  seedRouteIds,
  type RouteIds,
} from '../testing/fixtures.js';
import { startTestService, type TestService } from '../testing/test-service.js';
import { createPersonalToken, revokeToken } from '../tokens/tokens.js';

let service: TestService;
let ids: RouteIds;

beforeAll(async () => {
  service = await startTestService();
  ({ ids } = await seedRouteIds(service));
});

afterAll(async () => {
  await service.dispose();
});

describe('bearer authentication', () => {
  const credentials: [string, () => Promise<Record<string, string>>][] = [
    ['no Authorization header', async () => ({})],
    ['another scheme', async () => ({ Authorization: 'Basic dXNlcjpwYXNz' })],
    ['Bearer without a token', async () => ({ Authorization: 'Bearer ' })],
    ['a token with a space in it', async () => ({ Authorization: 'Bearer two words' })],
    ['an unknown token', async () => ({ Authorization: 'Bearer xpat_not-a-token-we-ever-made' })],
    [
      'a revoked personal token',
      async () => {
        const { id, token } = await createPersonalToken(service.services.db, 'revoked');
        await revokeToken(service.services.db, id);
        return { Authorization: `Bearer ${token}` };
      },
    ],
    [
      'an expired personal token',
      async () => {
        const { id, token } = await createPersonalToken(service.services.db, 'expired');
        await service.services.db
          .updateTable('tokens')
          .set({ expires_at: '2020-01-01T00:00:00.000Z' })
          .where('id', '=', id)
          .execute();
        return { Authorization: `Bearer ${token}` };
      },
    ],
  ];

  it.each(credentials)(
    'answers 401 with a Bearer challenge to %s on every route, and changes nothing',
    async (_what, headersOf) => {
      const headers = await headersOf();
      const before = await storedState(service);
      for (const route of everyRoute) {
        const { method, path } = routePath(route, ids);
        const response = await service.request(path, {
          method,
          token: null,
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
        });
        await expectUnauthorized(response);
      }
      expect(await storedState(service)).toEqual(before);
    },
  );

  it('says in its challenge whether the token was missing or is no longer valid (RFC 6750)', async () => {
    const missing = await service.request('/api/buckets', { token: null });
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="extractor"');
    await missing.body?.cancel();
    const { id, token } = await createPersonalToken(service.services.db, 'challenged');
    await revokeToken(service.services.db, id);
    for (const bad of [token, 'xpat_not-a-token-we-ever-made']) {
      const response = await service.request('/api/buckets', { token: bad });
      await expectUnauthorized(response);
      expect(response.headers.get('www-authenticate')).toMatch(
        /^Bearer realm="extractor", error="invalid_token", error_description="The access token (has been revoked|is not valid)\."$/,
      );
    }
  });

  it('answers 401, not 404, for unknown addresses under /api, so nothing can be probed without a token', async () => {
    await expectUnauthorized(await service.request('/api/nothing-here', { token: null }));
    await expectUnauthorized(await service.request('/api/buckets/unknown', { token: null }));
  });

  it('takes the scheme in any case, and ignores an access_token query outside the event streams', async () => {
    const { token } = await createPersonalToken(service.services.db, 'case');
    const lower = await service.request('/api/buckets', {
      token: null,
      headers: { Authorization: `bearer ${token}` },
    });
    expect(lower.status).toBe(200);
    await expectUnauthorized(
      await service.request(`/api/buckets?access_token=${token}`, { token: null }),
    );
  });

  it('lets a newly created personal token do everything, and stops it the moment it is revoked', async () => {
    const { id, token } = await createPersonalToken(service.services.db, 'short-lived');
    expect((await service.request('/api/extractors', { token })).status).toBe(200);
    expect((await service.request(`/api/buckets/${ids.bucket}`, { token })).status).toBe(200);
    await revokeToken(service.services.db, id);
    const problem = await expectUnauthorized(await service.request('/api/extractors', { token }));
    expect(problem.detail).toMatch(/revoked/);
  });

  it('serves the JSON-LD contexts without a token', async () => {
    const response = await service.request('/api/contexts/ExtractionBucket', { token: null });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/ld+json');
    const document = (await response.json()) as { '@context': Record<string, unknown> };
    expect(document['@context']).toMatchObject({
      hydra: 'http://www.w3.org/ns/hydra/core#',
      runs: { '@type': '@id' },
    });
  });
});
