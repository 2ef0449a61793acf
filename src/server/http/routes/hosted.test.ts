import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtractor, createSession } from '../../testing/fixtures.js';
import { adminToken, startTestService, type TestService } from '../../testing/test-service.js';
import type { AppEnv } from '../context.js';
import { ProblemError, problemResponse } from '../problem.js';
import { hostedRoutes } from './hosted.js';
import { standInIndexHtml, writeStandInBuild } from '../../testing/stand-in-build.js';

let service: TestService;
let distDir: string;
let hosted: Hono<AppEnv>;

function appOver(directory: string): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    const { services } = service;
    c.set('services', { ...services, config: { ...services.config, distDir: directory } });
    await next();
  });
  app.route('/', hostedRoutes);
  app.onError((error, c) =>
    error instanceof ProblemError ? problemResponse(error, c.req.path) : c.text('failed', 500),
  );
  return app;
}

beforeAll(async () => {
  service = await startTestService();
  distDir = mkdtempSync(join(tmpdir(), 'extractor-dist-'));
  writeStandInBuild(distDir);
  hosted = appOver(distDir);
});

afterAll(async () => {
  await service.dispose();
  rmSync(distDir, { recursive: true, force: true });
});

const get = (path: string) => Promise.resolve(hosted.request(path));

function directives(response: Response): Map<string, string> {
  const policy = response.headers.get('content-security-policy') ?? '';
  return new Map(
    policy.split(';').map((part) => {
      const [name, ...values] = part.trim().split(/\s+/);
      return [name!, values.join(' ')];
    }),
  );
}

describe('the hosted full page /x/{id}', () => {
  it('is the built page with a strict policy that forbids framing', async () => {
    const response = await get('/x/some-extractor?session=xses_whatever');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toBe(standInIndexHtml);
    const csp = directives(response);
    expect(csp.get('default-src')).toBe("'none'");
    expect(csp.get('script-src')).toBe("'self'");
    expect(csp.get('style-src')).toBe("'self'");
    expect(csp.get('connect-src')).toBe("'self'");
    expect(csp.get('frame-ancestors')).toBe("'none'");
    expect(response.headers.get('content-security-policy')).not.toMatch(
      /unsafe-inline|unsafe-eval/,
    );
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});

describe('the hosted iframe page /embed/{id}', () => {
  it('may be framed by exactly the origins its session allows', async () => {
    const extractor = await createExtractor(service);
    const session = await createSession(service, {
      savedExtractor: `/api/extractors/${extractor.id}`,
      allowedOrigins: ['https://partner.example', 'http://localhost:5173'],
    });
    const response = await get(`/embed/${extractor.id}?session=${session.token}`);
    expect(response.status).toBe(200);
    expect(directives(response).get('frame-ancestors')).toBe(
      'https://partner.example http://localhost:5173',
    );
    expect(response.headers.get('x-frame-options')).toBeNull();
    expect(await response.text()).toContain('<html data-layout="embed" lang="en">');
  });

  it('has the full page’s strict policy, no inline script, and its other headers', async () => {
    const extractor = await createExtractor(service);
    const session = await createSession(service, {
      savedExtractor: extractor.id,
      allowedOrigins: ['https://partner.example'],
    });
    const response = await get(`/embed/${extractor.id}?session=${session.token}`);
    const csp = directives(response);
    expect(csp.get('default-src')).toBe("'none'");
    expect(csp.get('script-src')).toBe("'self'");
    expect(csp.get('style-src')).toBe("'self'");
    expect(csp.get('base-uri')).toBe("'none'");
    expect(response.headers.get('content-security-policy')).not.toMatch(
      /unsafe-inline|unsafe-eval|\*/,
    );
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('may be framed by nobody when its session allows no origin, or has ended', async () => {
    const extractor = await createExtractor(service);
    const none = await createSession(service, { savedExtractor: extractor.id });
    const response = await get(`/embed/${extractor.id}?session=${none.token}`);
    expect(directives(response).get('frame-ancestors')).toBe("'none'");

    const revoked = await createSession(service, {
      savedExtractor: extractor.id,
      allowedOrigins: ['https://partner.example'],
    });
    await service.request(`/api/embed_sessions/${revoked.id}`, { method: 'DELETE' });
    const afterRevoke = await get(`/embed/${extractor.id}?session=${revoked.token}`);
    expect(directives(afterRevoke).get('frame-ancestors')).toBe("'none'");
  });

  it('may be framed by nobody without a valid session token', async () => {
    for (const query of ['', '?session=xses_not-valid', `?session=${adminToken}`]) {
      const response = await get(`/embed/anything${query}`);
      expect(response.status).toBe(200);
      expect(directives(response).get('frame-ancestors')).toBe("'none'");
    }
  });
});

describe('the built files', () => {
  it('serves hashed assets for good, and nothing outside the assets folder', async () => {
    const response = await get('/assets/index-abc.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toContain('immutable');
    expect((await get('/assets/missing.js')).status).toBe(404);
    const escape = await get('/assets/..%2Findex.html');
    expect(escape.status).toBe(404);
    expect(escape.headers.get('content-type')).toBe('application/problem+json');
  });

  it('answers 404, not 500, for a file name longer than the file system allows', async () => {
    // Found by junk-requests.test.ts: readFile failed with ENAMETOOLONG.
    const response = await get(`/assets/${'a'.repeat(4000)}.js`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
  });

  it('serves the custom element library to any origin', async () => {
    for (const file of ['extractor.mjs', 'extractor.js', 'embed.js']) {
      const response = await get(`/sdk/${file}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    }
    expect((await get('/sdk/other.js')).status).toBe(404);
    expect((await get('/favicon.svg')).headers.get('content-type')).toBe('image/svg+xml');
  });

  it('serves the library’s TypeScript declarations as text a browser tab shows', async () => {
    writeFileSync(join(distDir, 'sdk', 'extractor.d.ts'), 'export declare class A {}\n');
    const response = await get('/sdk/extractor.d.ts');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await response.text()).toBe('export declare class A {}\n');
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const response = await hosted.request('/assets/index-abc.js', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('content-length')).toBe(String('export {};'.length));
    expect(response.headers.get('cache-control')).toContain('immutable');
    expect(await response.text()).toBe('');
  });

  it('says how to build when there is no build', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'extractor-dist-empty-'));
    try {
      const response = await appOver(empty).request('/x/anything');
      expect(response.status).toBe(503);
      expect(await response.text()).toMatch(/npm run build/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('is part of the service’s app', async () => {
    const response = await service.request('/x/anything', { token: null });
    expect([200, 503]).toContain(response.status);
  });
});
