/**
 * What every answer of the app carries, whatever route, status or media type it has. The
 * same headers on the real server are checked in request-log.test.ts, which runs it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { everyRoute, routePath, seedRouteIds, type RouteIds } from './testing/fixtures.js';
import { useTestService } from './testing/test-service.js';

const service = useTestService();
let ids: RouteIds;

beforeAll(async () => {
  ({ ids } = await seedRouteIds(service, { result_json: '{}' }));
});

describe('every answer', () => {
  it('says X-Content-Type-Options: nosniff, at every route and on every error', async () => {
    const requests: [string, RequestInit & { token?: string | null }][] = [
      ...everyRoute.map((route): [string, RequestInit] => {
        const { method, path } = routePath(route, ids);
        // A body nobody accepts: each route answers, with its resource or a problem.
        return [path, { method, ...(method === 'GET' ? {} : { body: '{' }) }];
      }),
      [`/api/extraction_runs/${ids.run}/events`, { headers: { Accept: 'text/event-stream' } }],
      ['/api/docs', {}],
      ['/api/openapi.json', {}],
      ['/api/buckets', { token: null }],
      ['/api/nowhere', {}],
      ['/api/buckets', { method: 'PATCH' }],
      [`/x/${ids.extractor}`, {}],
      [`/embed/${ids.extractor}`, {}],
      ['/developers', {}],
      ['/healthz', {}],
      ['/nowhere', {}],
    ];
    for (const [path, init] of requests) {
      const response = await service.request(path, init);
      const label = `${init.method ?? 'GET'} ${path} (${response.status})`;
      expect(response.headers.get('x-content-type-options'), label).toBe('nosniff');
      await response.body?.cancel();
    }
  });
});

describe('routing', () => {
  it('stays on Hono’s RegExpRouter, which a route it cannot hold would silently replace', async () => {
    // SmartRouter picks its router at the first request: the fastest that takes every route.
    await (await service.request('/healthz')).body?.cancel();
    expect(service.app.router.name).toBe('SmartRouter + RegExpRouter');
  });
});
