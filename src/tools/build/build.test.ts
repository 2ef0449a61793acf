import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocaleModule } from '@lit/localize';
import { labelMessageId, labelNames } from '../../contract/labels.js';
import { budgets, build, catalogueLocales, type BuiltFiles, type SizeLimitCheck } from './build.js';
import { projectRoot } from '../project-root.js';
import { partnerGuideFile } from '../../server/http/partner-guide.js';
import { partnerGuideParts, partnerGuideSource } from '../docs/partner-guide.js';
import { importOnServer } from './server-import.js';

let distDir: string;
let files: BuiltFiles;
let checks: SizeLimitCheck[];
let sizes: number[];

beforeAll(async () => {
  distDir = mkdtempSync(join(tmpdir(), 'extractor-build-'));
  files = await build({ distDir });
  // The checks `npm run build` hands to size-limit, run as it runs them.
  const config = join(distDir, '.size-limit.json');
  checks = JSON.parse(readFileSync(config, 'utf8')) as SizeLimitCheck[];
  // size-limit exits 1 when a check is over its limit; the tests below say which one.
  const stdout = await promisify(execFile)(
    process.execPath,
    [join(projectRoot, 'node_modules/size-limit/bin.js'), '--config', config, '--json'],
    { cwd: projectRoot },
  ).then(
    (done) => done.stdout,
    (error: { stdout?: string }) => {
      if (!error.stdout) throw error;
      return error.stdout;
    },
  );
  sizes = (JSON.parse(stdout) as { size: number }[]).map((result) => result.size);
}, 120_000);

afterAll(() => rmSync(distDir, { recursive: true, force: true }));

const gzipped = (file: string) => gzipSync(readFileSync(join(distDir, file)), { level: 9 }).length;

const languageOf = (locale: string) =>
  new Intl.DisplayNames(['en'], { type: 'language' }).of(locale);

async function wholeCatalogue(locale: string): Promise<LocaleModule['templates']> {
  return ((await import(`../../locales/${locale}.ts`)) as LocaleModule).templates;
}

/** The gzipped size size-limit measured for the check named like `name`. */
function sizeOf(name: RegExp): { size: number; limit: string | undefined } {
  const index = checks.findIndex((check) => name.test(check.name));
  if (index < 0) throw new Error(`No size-limit check is named like ${name}.`);
  return { size: sizes[index]!, limit: checks[index]!.limit };
}

describe('npm run build: the budgets', () => {
  it('keeps what the introduction needs, in the largest catalogue’s first part, within 35 KiB gzipped', () => {
    expect(files.firstView.length).toBeGreaterThan(0);
    const { size, limit } = sizeOf(/before the introduction/);
    expect(limit).toBe('35 KiB');
    // The introduction waits for the person's catalogue's first part: the check counts the
    // first view's files and the largest such part, and nothing else.
    const largest = files.catalogues[files.largestFirstViewCatalogue]!.firstView;
    const check = checks.find((candidate) => /before the introduction/.test(candidate.name))!;
    expect(check.path).toEqual([...files.firstView, largest]);
    expect(Object.keys(files.catalogues).sort()).toEqual([...catalogueLocales].sort());
    for (const [locale, parts] of Object.entries(files.catalogues))
      expect(gzipped(parts.firstView), locale).toBeLessThanOrEqual(gzipped(largest));
    expect(check.name).toContain(`in ${languageOf(files.largestFirstViewCatalogue)}`);
    expect(size).toBeGreaterThan(gzipped(largest));
    expect(size).toBeLessThanOrEqual(budgets.firstView);
  });

  it('loads with the locale every text the first view names, and the rest with the later views', async () => {
    const read = (list: string[]) =>
      list.map((file) => readFileSync(join(distDir, file), 'utf8')).join('');
    const [first, later] = [read(files.firstView), read(files.lazyViews)];
    // The ids the first view's code names: in quotes, or as a plural's base (`id.other`), or
    // a label's (built from the label's name).
    const named = (code: string, id: string) =>
      [id, id.replace(/\.(zero|one|two|few|many|other)$/, '')].some((name) =>
        ['"', "'", '`'].some((quote) => code.includes(`${quote}${name}${quote}`)),
      ) ||
      (code === first && labelNames.some((name) => labelMessageId(name) === id));
    for (const locale of catalogueLocales) {
      const whole = await wholeCatalogue(locale);
      const part = (await import(`../../locales/first-view/${locale}.ts`)) as LocaleModule;
      const firstViewIds = Object.keys(whole).filter((id) => named(first, id));
      expect(firstViewIds.length, locale).toBeGreaterThan(labelNames.length);
      expect(Object.keys(part.templates).sort(), locale).toEqual(firstViewIds.sort());
      // What the first part leaves, the later views name.
      for (const id of Object.keys(whole).filter((id) => !firstViewIds.includes(id)))
        expect(named(later, id), `${locale}: ${id}`).toBe(true);
    }
  });

  it('keeps all four views within 80 KiB gzipped, the later ones loaded lazily', () => {
    expect(files.lazyViews.length).toBeGreaterThan(0);
    for (const file of files.lazyViews) expect(files.firstView).not.toContain(file);
    // The later views (here, a rule of each one's styles) load lazily, not in the first view.
    const read = (list: string[]) =>
      list.map((file) => readFileSync(join(distDir, file), 'utf8')).join('');
    const [first, later] = [read(files.firstView), read(files.lazyViews)];
    for (const rule of ['.drop-zone{', '.found-list{', '.table-scroller{']) {
      expect(later, rule).toContain(rule);
      expect(first, rule).not.toContain(rule);
    }
    const { size, limit } = sizeOf(/all four views/);
    expect(limit).toBe('80 KiB');
    // With the largest catalogue: any person's language fits.
    const check = checks.find((candidate) => /all four views/.test(candidate.name))!;
    const largest = files.catalogues[files.largestCatalogue]!;
    expect(check.path).toEqual([
      ...files.firstView,
      ...files.lazyViews,
      largest.firstView,
      largest.later,
    ]);
    const whole = (parts: { firstView: string; later: string }) =>
      gzipped(parts.firstView) + gzipped(parts.later);
    for (const [locale, parts] of Object.entries(files.catalogues))
      expect(whole(parts), locale).toBeLessThanOrEqual(whole(largest));
    expect(check.name).toContain(`in ${languageOf(files.largestCatalogue)}`);
    expect(size).toBeGreaterThan(sizeOf(/before the introduction/).size);
    expect(size).toBeLessThanOrEqual(budgets.allViews);
  });

  it('keeps each library file with its largest catalogue within the all-views budget too', () => {
    const largest = files.libraryCatalogues[files.largestLibraryCatalogue]!;
    for (const [locale, file] of Object.entries(files.libraryCatalogues))
      expect(gzipped(file), locale).toBeLessThanOrEqual(gzipped(largest));
    for (const library of files.library) {
      const { size } = sizeOf(new RegExp(library.replace(/\./g, '\\.')));
      expect(size, library).toBeLessThanOrEqual(budgets.allViews);
      const check = checks.find((candidate) => candidate.name.includes(`/${library})`))!;
      expect(check.path).toEqual([library, largest]);
    }
  });

  it('keeps /sdk/embed.js, the iFrame host script, within 3 KiB gzipped', () => {
    expect(files.hostScript).toBe('sdk/embed.js');
    const { size, limit } = sizeOf(/embed\.js/);
    expect(limit).toBe('3 KiB');
    expect(size).toBeGreaterThan(0);
    expect(size).toBeLessThanOrEqual(budgets.hostScript);
    expect(budgets.hostScript).toBe(3 * 1024);
  });
});

describe('npm run build: what the hosted page’s files hold', () => {
  it('leaves the schemas’ descriptions, which only the API documents read, out of the browser’s files', () => {
    for (const file of [...files.firstView, ...files.lazyViews, ...files.library]) {
      const code = readFileSync(join(distDir, file), 'utf8');
      expect(code, file).not.toContain('How the bucket came to be');
    }
    // The schemas themselves are there: the client checks the service's answers with them.
    expect(readFileSync(join(distDir, files.library[0]!), 'utf8')).toContain('createdUsing');
  });

  it('leaves out what only the service reads: request bodies, and its checks of a schema', () => {
    for (const file of [...files.firstView, ...files.lazyViews, ...files.library]) {
      const code = readFileSync(join(distDir, file), 'utf8');
      // The body of POST /api/extractors (contract/resources.ts: extractorInputSchema) …
      expect(code, file).not.toContain('label must not be empty');
      // … and parseTargetSchema's checks: the interface reads schemas the service accepted.
      expect(code, file).not.toContain('must describe an object');
    }
  });

  it('writes the hosted page’s imports without Vite’s preload helper', () => {
    for (const file of [...files.firstView, ...files.lazyViews].filter((f) => f.endsWith('.js'))) {
      const code = readFileSync(join(distDir, file), 'utf8');
      expect(code, file).not.toMatch(/vite:preloadError|__VITE_PRELOAD__|__vitePreload/);
    }
    const entry = readFileSync(join(distDir, files.firstView[0]!), 'utf8');
    // Each import() is the bare call: of the later file, and of each catalogue.
    const lazy = files.lazyViews
      .find((file) => file.endsWith('.js'))!
      .replace(/^app\/assets\//, '');
    expect(entry).toContain(`import(\`./${lazy}\`)`);
    for (const file of Object.values(files.catalogues.ar!))
      expect(entry).toContain(`import(\`./${file.replace(/^app\/assets\//, '')}\`)`);
  });

  it('leaves out @lit/localize’s hashing of messages without an id: every one of ours has one', () => {
    for (const file of [...files.firstView, ...files.library]) {
      // The seed of its FNV-1a hash.
      expect(readFileSync(join(distDir, file), 'utf8'), file).not.toMatch(/\b40164\b/);
    }
  });
});

describe('npm run build: the library’s files', () => {
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
    expect(script).not.toMatch(/^import /m);
    // Its one import() is of a catalogue beside it, by the address of its <script>.
    expect(script.match(/\bimport\s*\(/g)).toHaveLength(1);
    expect(script).toContain('document.currentScript');
    expect(script).toContain('extractor-results-view');
  });

  it('ships the catalogues beside the library, not in it, each a module whole in itself', async () => {
    const library = readFileSync(join(distDir, 'sdk', 'extractor.mjs'), 'utf8');
    // A German text of the catalogue is not in the library; its English source is.
    expect(library).not.toContain('Schritt');
    expect(library).toContain('Step ');
    expect(Object.keys(files.libraryCatalogues).sort()).toEqual([
      'ar',
      'de',
      'es',
      'fr',
      'it',
      'ja',
      'nl',
      'pl',
      'pt',
    ]);
    for (const [locale, file] of Object.entries(files.libraryCatalogues)) {
      const code = readFileSync(join(distDir, file), 'utf8');
      expect(code, locale).not.toMatch(/^import |\bimport\s*\(/m);
      const { templates } = (await import(pathToFileURL(join(distDir, file)).href)) as {
        templates: Record<string, unknown>;
      };
      expect(templates['app.step-count'], locale).toMatchObject({ strTag: true, values: [0, 1] });
    }
    const { templates } = (await import(
      pathToFileURL(join(distDir, files.libraryCatalogues.de!)).href
    )) as { templates: Record<string, { strings: string[] }> };
    expect(templates['app.step-count']!.strings).toEqual(['Schritt ', ' von ', '']);
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

  it('bundles in the ES module only the part of Lit’s DOM shim its node build needs to load', () => {
    const library = readFileSync(join(distDir, 'sdk', 'extractor.mjs'), 'utf8');
    // The shim's ElementInternals and EventTarget are for rendering elements on a server.
    expect(library).not.toContain('ariaAtomic');
    expect(library).not.toContain('__eventListeners');
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

  it('writes the partner guide /developers shows, from docs/partners/guide.md', () => {
    const built = JSON.parse(readFileSync(join(distDir, partnerGuideFile), 'utf8')) as unknown;
    const source = readFileSync(join(projectRoot, partnerGuideSource), 'utf8');
    expect(built).toEqual(partnerGuideParts(source));
    expect((built as { id: string }[]).map(({ id }) => id)).toEqual([
      'quick-start',
      'troubleshooting',
      'verifying-webhooks',
    ]);
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
