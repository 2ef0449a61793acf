import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgets, build, formatReport, type SizeReport } from './build.js';
import { importOnServer } from './server-import.js';

let distDir: string;
let report: SizeReport;

beforeAll(async () => {
  distDir = mkdtempSync(join(tmpdir(), 'extractor-build-'));
  report = await build({ distDir, print: false });
}, 120_000);

afterAll(() => rmSync(distDir, { recursive: true, force: true }));

describe('npm run build', () => {
  it('keeps what the introduction needs within 35 KB gzipped', () => {
    expect(report.firstView.length).toBeGreaterThan(0);
    expect(report.firstViewGzip).toBeLessThanOrEqual(budgets.firstView);
  });

  it('keeps all four views within 80 KB gzipped, the later ones loaded lazily', () => {
    expect(report.lazyViews.map((file) => file.file).join(' ')).toMatch(
      /bucket-view.*extraction-view.*results-view|results-view/,
    );
    expect(report.allViewsGzip).toBeLessThanOrEqual(budgets.allViews);
  });

  it('keeps each library file within the all-views budget too', () => {
    for (const file of report.library)
      expect(file.gzipBytes, file.file).toBeLessThanOrEqual(budgets.allViews);
  });

  it('prints the sizes against the budgets', () => {
    const text = formatReport(report);
    expect(text).toMatch(/First view: [\d.]+ KB of 35\.0 KB gz ok/);
    expect(text).toMatch(/All views: +[\d.]+ KB of 80\.0 KB gz ok/);
    expect(text).toMatch(/embed\.js: +[\d.]+ KB of 3\.0 KB gz ok/);
  });

  it('keeps /sdk/embed.js, the iFrame host script, within 3 KB gzipped', () => {
    expect(report.hostScript.file).toBe('embed.js');
    expect(report.hostScript.gzipBytes).toBeGreaterThan(0);
    expect(report.hostScript.gzipBytes).toBeLessThanOrEqual(budgets.hostScript);
    expect(budgets.hostScript).toBe(3 * 1024);
  });

  it('writes embed.js as a classic script with one global and no imports', () => {
    const script = readFileSync(join(distDir, 'sdk', 'embed.js'), 'utf8');
    expect(script.startsWith('var ExtractorEmbed=')).toBe(true);
    expect(script).not.toMatch(/\bimport\s*\(|^import |^export /m);
    // The one way to talk to the frame: never to any origin.
    expect(script).not.toMatch(/postMessage\([^)]*["']\*["']/);
  });

  it('writes a page the strict policy lets run: no inline script or style', () => {
    const html = readFileSync(join(distDir, 'app', 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toMatch(/\bsrc="\/assets\//);
    expect(html).not.toMatch(/<style\b|\sstyle=/);
  });

  it('writes a classic script that defines the elements under a global, in one file', () => {
    const script = readFileSync(join(distDir, 'sdk', 'extractor.js'), 'utf8');
    expect(script.startsWith('var Extractor=')).toBe(true);
    expect(script).not.toMatch(/\bimport\s*\(|^import /m);
    expect(script).toContain('extractor-results-view');
  });

  it('writes an ES module that imports during server-side rendering and registers nothing there', async () => {
    const result = await importOnServer(pathToFileURL(join(distDir, 'sdk', 'extractor.mjs')).href);
    expect(result.exports).toEqual([
      'ExtractorApp',
      'ExtractorBucketView',
      'ExtractorExtractionView',
      'ExtractorIntroductionView',
      'ExtractorResultsView',
      'defineAllExtractorElements',
    ]);
    expect(result.window).toBe('undefined');
    expect(result.document).toBe('undefined');
    expect(result.registered).toEqual([]);
  });

  it('ships custom-elements.json and extractor.d.ts beside the library', () => {
    const manifest = JSON.parse(
      readFileSync(join(distDir, 'sdk', 'custom-elements.json'), 'utf8'),
    ) as {
      modules: { declarations?: { tagName?: string }[] }[];
    };
    const tags = manifest.modules
      .flatMap((module) => module.declarations ?? [])
      .map((d) => d.tagName);
    expect(tags).toContain('extractor-app');
    const declarations = readFileSync(join(distDir, 'sdk', 'extractor.d.ts'), 'utf8');
    expect(declarations).toContain("'extractor-app': ExtractorApp;");
    expect(declarations).toContain(
      'interface GlobalEventHandlersEventMap extends ExtractorEventMap',
    );
  });
});

describe('ensureBuilt (npm start)', () => {
  it('leaves a build newer than its sources alone and rebuilds a stale one', async () => {
    const { ensureBuilt } = await import('./build.js');
    const { statSync, utimesSync } = await import('node:fs');
    const page = join(distDir, 'app', 'index.html');
    const fresh = new Date(Date.now() + 60_000);
    utimesSync(page, fresh, fresh);
    for (const file of ['extractor.mjs', 'extractor.js', 'embed.js'])
      utimesSync(join(distDir, 'sdk', file), fresh, fresh);
    await ensureBuilt(distDir);
    expect(Math.round(statSync(page).mtimeMs)).toBe(fresh.getTime());

    // As after a `git pull`: the sources are newer than what was built from them.
    const old = new Date('2001-01-01T00:00:00Z');
    utimesSync(page, old, old);
    await ensureBuilt(distDir);
    expect(statSync(page).mtimeMs).toBeGreaterThan(Date.now() - 120_000);
  }, 120_000);
});
