import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseEncoding } from './compression.js';
import type { AppEnv } from './context.js';
import { problemOf, problemResponse } from './problem.js';
import { hostedRoutes } from './routes/hosted.js';

describe('chooseEncoding', () => {
  // Brotli, then gzip, honouring q-values and *; nothing where neither is acceptable.
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0, gzip;q=0.5', 'gzip'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['identity', undefined],
    ['GZIP;Q=1', 'gzip'],
    ['br;q=junk', undefined],
    ['', undefined],
    [undefined, undefined],
  ] as const)('answers Accept-Encoding %j with %s', (header, encoding) => {
    expect(chooseEncoding(header)).toBe(encoding);
  });
});

describe('the built interface’s files', () => {
  let distDir: string;
  let app: Hono<AppEnv>;
  const script = `export const rows = [${Array.from({ length: 400 }, (_, index) => `'row ${index}'`).join(', ')}];\n`;
  const picture = Buffer.from([0x89, 0x50, 0x4e, 0x47, ...Array.from({ length: 2000 }, () => 0)]);

  beforeAll(() => {
    distDir = mkdtempSync(join(tmpdir(), 'extractor-dist-compression-'));
    mkdirSync(join(distDir, 'app', 'assets'), { recursive: true });
    mkdirSync(join(distDir, 'sdk'), { recursive: true });
    writeFileSync(join(distDir, 'app', 'assets', 'index-abc.js'), script);
    writeFileSync(join(distDir, 'app', 'assets', 'logo-abc.png'), picture);
    writeFileSync(join(distDir, 'sdk', 'extractor.mjs'), script);
    mkdirSync(join(distDir, 'sdk', 'locales'));
    writeFileSync(join(distDir, 'sdk', 'locales', 'de.js'), script);
    const services = { config: { distDir } } as AppEnv['Variables']['services'];
    app = new Hono<AppEnv>()
      .use('*', async (c, next) => {
        c.set('services', services);
        await next();
      })
      .route('/', hostedRoutes)
      .onError((error) => {
        // As the service answers: a problem document with its status.
        const problem = problemOf(error);
        if (!problem) throw error;
        return problemResponse(problem);
      });
  });

  afterAll(() => rmSync(distDir, { recursive: true, force: true }));

  const get = (path: string, acceptEncoding?: string) =>
    Promise.resolve(
      app.request(path, { headers: acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {} }),
    );

  it('come compressed with Brotli or gzip as the client accepts, and decompress to the file', async () => {
    for (const path of ['/assets/index-abc.js', '/sdk/extractor.mjs']) {
      const brotli = await get(path, 'gzip, deflate, br');
      expect(brotli.headers.get('content-encoding')).toBe('br');
      expect(brotli.headers.get('vary')).toContain('Accept-Encoding');
      const brotliBytes = Buffer.from(await brotli.arrayBuffer());
      expect(brotliBytes.length).toBeLessThan(script.length / 3);
      expect(brotliDecompressSync(brotliBytes).toString()).toBe(script);

      const gzip = await get(path, 'gzip');
      expect(gzip.headers.get('content-encoding')).toBe('gzip');
      expect(gunzipSync(Buffer.from(await gzip.arrayBuffer())).toString()).toBe(script);
    }
  });

  it('include the library’s catalogues, for any origin, and nothing else in their folder', async () => {
    const catalogue = await get('/sdk/locales/de.js', 'gzip');
    expect(catalogue.status).toBe(200);
    expect(catalogue.headers.get('content-type')).toMatch(/javascript/);
    // A partner's page imports it as a module, which needs CORS.
    expect(catalogue.headers.get('access-control-allow-origin')).toBe('*');
    expect(gunzipSync(Buffer.from(await catalogue.arrayBuffer())).toString()).toBe(script);
    expect((await get('/sdk/locales/xx.js')).status).toBe(404);
    expect((await get('/sdk/locales/de.ts')).status).toBe(404);
    expect((await get('/sdk/locales/%2e%2e%2fextractor.mjs')).status).toBe(404);
  });

  it('come as they are to a client that accepts no compression, and for pictures', async () => {
    const plain = await get('/assets/index-abc.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toContain('Accept-Encoding');
    expect(await plain.text()).toBe(script);

    const png = await get('/assets/logo-abc.png', 'br, gzip');
    expect(png.headers.get('content-encoding')).toBeNull();
    expect(Buffer.from(await png.arrayBuffer()).equals(picture)).toBe(true);
  });

  it('follow a new build of the same file', async () => {
    const changed = `${script}export const version = 2;\n`;
    writeFileSync(join(distDir, 'sdk', 'extractor.mjs'), changed);
    try {
      const response = await get('/sdk/extractor.mjs', 'br');
      expect(brotliDecompressSync(Buffer.from(await response.arrayBuffer())).toString()).toBe(
        changed,
      );
    } finally {
      writeFileSync(join(distDir, 'sdk', 'extractor.mjs'), script);
    }
  });
});
