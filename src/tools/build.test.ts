import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgets, build, formatReport, type SizeReport } from './build.js';

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

  it('writes an ES module that imports during server-side rendering, registering the tags only', async () => {
    const module = (await import(
      pathToFileURL(join(distDir, 'sdk', 'extractor.mjs')).href
    )) as Record<string, unknown>;
    expect(Object.keys(module).sort()).toEqual([
      'ExtractorApp',
      'ExtractorBucketView',
      'ExtractorExtractionView',
      'ExtractorIntroductionView',
      'ExtractorResultsView',
      'defineAllExtractorElements',
    ]);
    expect(globalThis.customElements.get('extractor-app')).toBe(module.ExtractorApp);
    expect(globalThis.customElements.get('extractor-introduction-view')).toBe(
      module.ExtractorIntroductionView,
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
    for (const file of ['extractor.mjs', 'extractor.js']) utimesSync(join(distDir, 'sdk', file), fresh, fresh);
    await ensureBuilt(distDir);
    expect(Math.round(statSync(page).mtimeMs)).toBe(fresh.getTime());

    // As after a `git pull`: the sources are newer than what was built from them.
    const old = new Date('2001-01-01T00:00:00Z');
    utimesSync(page, old, old);
    await ensureBuilt(distDir);
    expect(statSync(page).mtimeMs).toBeGreaterThan(Date.now() - 120_000);
  }, 120_000);
});
