/**
 * `npm run build`: the hosted interface (index.html → dist/app, served at /x/… and /embed/…)
 * and the custom element library (dist/sdk/extractor.mjs, an ES module, and
 * dist/sdk/extractor.js, a classic script, with custom-elements.json and extractor.d.ts;
 * served at /sdk/…). Beside them it writes `.size-limit.json`, the size-limit checks of the
 * budgets of issue #4, which `npm run build` then runs (`size-limit --config`):
 *
 *   - first view: what the hosted page loads before the introduction shows ≤ 35 KiB gzipped,
 *     with the first-view part of a language's catalogue (src/locales/first-view/), the
 *     largest gzipped: one loads, the person's, and the introduction waits for it;
 *   - all views:  that plus every lazily loaded view ≤ 80 KiB gzipped, with both parts of
 *     the largest (gzipped) catalogue of a language;
 *   - each library file with its largest catalogue ≤ 80 KiB gzipped too;
 *
 * and, of issue #5, the iFrame's host script dist/sdk/embed.js (src/embed/host/embed.ts)
 * ≤ 3 KiB gzipped. Which files the hosted page loads first is Vite's manifest's to say, so
 * the checks are written from it at each build.
 *
 * It also writes the partner guide that /developers shows (dist/developers/partner-guide.json,
 * from docs/partners/guide.md: partner-guide.ts).
 *
 * `npm start` runs `ensureBuilt()` first (start.ts), which builds only when the output is
 * missing or stale.
 */
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { InlineConfig } from 'vite';
import { supportedLocales } from '../../locales/supported-locales.js';
import { projectRoot } from '../project-root.js';
import { partnerGuideFile } from '../../server/http/partner-guide.js';
import { minifiedTemplates } from './plugins/minified-templates.js';
import { writePartnerGuide } from '../docs/partner-guide.js';
import { withoutSchemaDescriptions } from './plugins/without-descriptions.js';
import { withoutGeneratedMessageIds } from './plugins/without-generated-ids.js';
import { shortPrivateProperties } from './plugins/short-private-properties.js';

export const defaultDistDir = join(projectRoot, 'dist');

export const budgets = {
  firstView: 35 * 1024,
  allViews: 80 * 1024,
  /** /sdk/embed.js, the iFrame's host script, goes on partners' pages: it must stay tiny. */
  hostScript: 3 * 1024,
} as const;

export const libraryFiles = ['extractor.mjs', 'extractor.js'] as const;
/** The locales with a catalogue of their own (English is the source's). */
export const catalogueLocales = supportedLocales.filter((locale) => locale !== 'en');
export const hostScriptFile = 'embed.js';

/** The files of a build, by when they load, relative to its directory. */
export interface BuiltFiles {
  firstView: string[];
  lazyViews: string[];
  /**
   * The message catalogues (src/locales), by locale, each in two parts: what the first view
   * says (`firstView`, loaded with the locale) and the rest (`later`, loaded with the later
   * views). One locale is loaded, the person's, so the budgets count one, the largest
   * gzipped: of the first-view parts (`largestFirstViewCatalogue`) for the first view, of
   * the whole (`largestCatalogue`) for all views.
   */
  catalogues: Record<string, { firstView: string; later: string }>;
  largestFirstViewCatalogue: string;
  largestCatalogue: string;
  library: string[];
  /** The library's catalogues, beside it (`sdk/locales/de.js`), by locale. */
  libraryCatalogues: Record<string, string>;
  largestLibraryCatalogue: string;
  hostScript: string;
}

/** One check of size-limit's configuration (https://github.com/ai/size-limit). */
export interface SizeLimitCheck {
  name: string;
  path: string[];
  /** size-limit's notation: `35 KiB`. */
  limit?: string;
  gzip: true;
}

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

export interface BuildOptions {
  /** Where to write; `dist` at the project root by default. */
  distDir?: string;
}

export async function build(options: BuildOptions = {}): Promise<BuiltFiles> {
  // Vite resolves the `development|production` export condition by NODE_ENV: anything but
  // 'production' (Vitest sets 'test') would bundle Lit's larger development build, which
  // is not what people load and would measure the budgets wrong.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    return await buildAll(options);
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

interface OneFile extends Pick<InlineConfig, 'plugins' | 'define' | 'resolve'> {
  /** From the project's root. */
  entry: string;
  outDir: string;
  file: string;
  format: 'es' | 'iife';
  /** The global a classic script sets. */
  name?: string;
  target?: string;
  emptyOutDir?: boolean;
}

/**
 * One minified file of the library, whole in itself: a partner loads it with a single
 * request. (Vite leaves an ES library unminified for bundlers; ours are served as they are.)
 */
async function buildOneFile({
  entry,
  outDir,
  file,
  format,
  name,
  target = 'es2022',
  emptyOutDir = false,
  ...rest
}: OneFile): Promise<void> {
  const { build: viteBuild } = await import('vite');
  await viteBuild({
    root: projectRoot,
    configFile: false,
    logLevel: 'warn',
    publicDir: false,
    ...rest,
    build: {
      outDir,
      emptyOutDir,
      target,
      copyPublicDir: false,
      lib: { entry: join(projectRoot, entry), formats: [format], name, fileName: () => file },
      minify: true,
      rolldownOptions: { output: { codeSplitting: false, minify: true } },
    },
  });
}

async function buildAll(options: BuildOptions): Promise<BuiltFiles> {
  const distDir = options.distDir ?? defaultDistDir;
  const { build: viteBuild } = await import('vite');
  await viteBuild({
    root: projectRoot,
    configFile: join(projectRoot, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir: join(distDir, 'app'), emptyOutDir: true },
  });
  for (const [format, file] of [
    ['es', 'extractor.mjs'],
    ['iife', 'extractor.js'],
  ] as const) {
    await buildOneFile({
      entry: 'src/embed/extractor.ts',
      outDir: join(distDir, 'sdk'),
      file,
      format,
      name: 'Extractor',
      emptyOutDir: format === 'es',
      plugins: [
        minifiedTemplates(),
        shortPrivateProperties(),
        withoutSchemaDescriptions(),
        withoutGeneratedMessageIds(),
      ],
      // Lit's "node" build works in browsers too and adds a small DOM shim for when there is
      // no DOM: so the ES module can be imported during server-side rendering (issue #5).
      // The classic script is for <script> tags only and keeps the plain browser build.
      // The classic script has no import.meta: catalogues-beside.ts reads its <script> instead.
      define: format === 'iife' ? { 'import.meta.url': 'undefined' } : {},
      resolve: {
        ...(format === 'es' ? { conditions: ['node', 'module', 'import', 'default'] } : {}),
        alias: [
          // The catalogues are files beside the library, not inside it (one locale loads).
          { find: /^\.\/catalogues\.js$/, replacement: './catalogues-beside.js' },
          // Of Lit's DOM shim, only the base class and registry the node build needs to load.
          ...(format === 'es'
            ? [
                {
                  find: /^@lit-labs\/ssr-dom-shim$/,
                  replacement: join(projectRoot, 'src/embed/server-dom-shim.ts'),
                },
              ]
            : []),
        ],
      },
    });
  }
  // The library's catalogues, /sdk/locales/de.js and so on: ES modules whole in themselves
  // (each with @lit/localize's small `str`), imported by address by catalogues-beside.ts.
  for (const locale of catalogueLocales) {
    await buildOneFile({
      entry: `src/locales/${locale}.ts`,
      outDir: join(distDir, 'sdk', 'locales'),
      file: `${locale}.js`,
      format: 'es',
    });
  }
  // The iFrame's host script: a classic script with a global, ExtractorEmbed.mount(…).
  await buildOneFile({
    entry: 'src/embed/host/embed.ts',
    outDir: join(distDir, 'sdk'),
    file: hostScriptFile,
    format: 'iife',
    name: 'ExtractorEmbed',
    // Partners' pages reach further back than our own: keep to what every browser of the
    // last years runs.
    target: 'es2020',
  });
  await writeLibraryDescriptions(join(distDir, 'sdk'));
  writePartnerGuide(projectRoot, distDir);
  const files = builtFiles(distDir);
  writeFileSync(
    join(distDir, '.size-limit.json'),
    `${JSON.stringify(sizeLimitChecks(files), null, 2)}\n`,
  );
  return files;
}

/**
 * What the library is, for tools: custom-elements.json from the elements' JSDoc (editors,
 * framework wrappers) and extractor.d.ts (TypeScript). Both served at /sdk/ next to it.
 */
export const libraryDescriptionFiles = ['custom-elements.json', 'extractor.d.ts'] as const;

async function writeLibraryDescriptions(sdkDir: string): Promise<void> {
  const { writeCustomElementsManifest } = await import('../manifest/custom-elements-manifest.js');
  const { createDeclarations } = await import('../manifest/declarations.js');
  await writeCustomElementsManifest(projectRoot, sdkDir);
  writeFileSync(join(sdkDir, 'extractor.d.ts'), createDeclarations(projectRoot));
}

/** The files of the build in `distDir`, from Vite's manifest. */
export function builtFiles(distDir = defaultDistDir): BuiltFiles {
  const manifest = JSON.parse(
    readFileSync(join(distDir, 'app', '.vite', 'manifest.json'), 'utf8'),
  ) as Record<string, ManifestChunk>;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entryKey) throw new Error('The build has no entry in its manifest.');

  const firstFiles = new Set<string>();
  const lazyKeys: string[] = [];
  const visitStatic = (key: string) => {
    const chunk = manifest[key]!;
    if (firstFiles.has(chunk.file)) return;
    firstFiles.add(chunk.file);
    chunk.css?.forEach((css) => firstFiles.add(css));
    chunk.imports?.forEach(visitStatic);
    lazyKeys.push(...(chunk.dynamicImports ?? []));
  };
  visitStatic(entryKey);

  const lazyFiles = new Set<string>();
  const catalogues: BuiltFiles['catalogues'] = {};
  const visitLazy = (key: string) => {
    const chunk = manifest[key]!;
    const [, part, locale] = /^src\/locales\/(first-view|later)\/([a-z]{2})\.ts$/.exec(key) ?? [];
    if (part && locale) {
      catalogues[locale] ??= { firstView: '', later: '' };
      catalogues[locale][part === 'later' ? 'later' : 'firstView'] = `app/${chunk.file}`;
      return;
    }
    if (firstFiles.has(chunk.file) || lazyFiles.has(chunk.file)) return;
    lazyFiles.add(chunk.file);
    chunk.css?.forEach((css) => lazyFiles.add(css));
    [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])].forEach(visitLazy);
  };
  lazyKeys.forEach(visitLazy);

  const libraryCatalogues = Object.fromEntries(
    catalogueLocales.map((locale) => [locale, `sdk/locales/${locale}.js`]),
  );
  const cataloguesBy = (parts: (keyof BuiltFiles['catalogues'][string])[]) =>
    Object.fromEntries(
      Object.entries(catalogues).map(([locale, files]) => [
        locale,
        parts.map((part) => files[part]),
      ]),
    );
  return {
    firstView: [...firstFiles].map((file) => `app/${file}`),
    lazyViews: [...lazyFiles].map((file) => `app/${file}`),
    catalogues,
    largestFirstViewCatalogue: largestOf(cataloguesBy(['firstView']), distDir),
    largestCatalogue: largestOf(cataloguesBy(['firstView', 'later']), distDir),
    library: libraryFiles.map((file) => `sdk/${file}`),
    libraryCatalogues,
    largestLibraryCatalogue: largestOf(
      Object.fromEntries(
        Object.entries(libraryCatalogues).map(([locale, file]) => [locale, [file]]),
      ),
      distDir,
    ),
    hostScript: `sdk/${hostScriptFile}`,
  };
}

/** The locale whose catalogue files are the largest gzipped, as size-limit measures them. */
function largestOf(catalogues: Record<string, string[]>, distDir: string): string {
  const gzipped = (file: string) =>
    gzipSync(readFileSync(join(distDir, file)), { level: 9 }).length;
  const sizes = Object.entries(catalogues).map(
    ([locale, files]) => [locale, files.reduce((sum, file) => sum + gzipped(file), 0)] as const,
  );
  const largest = sizes.reduce((a, b) => (b[1] > a[1] ? b : a), sizes[0]!);
  return largest[0];
}

const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });

const kib = (bytes: number) => `${bytes / 1024} KiB`;

/** The budgets as size-limit checks of a build's files, gzipped as they are served. */
export function sizeLimitChecks(files: BuiltFiles): SizeLimitCheck[] {
  return [
    {
      name: `Hosted page, before the introduction shows, in ${languageNames.of(files.largestFirstViewCatalogue)} (the largest catalogue)`,
      path: [...files.firstView, files.catalogues[files.largestFirstViewCatalogue]!.firstView],
      limit: kib(budgets.firstView),
      gzip: true,
    },
    {
      name: `Hosted page, all four views, in ${languageNames.of(files.largestCatalogue)} (the largest catalogue)`,
      path: [
        ...files.firstView,
        ...files.lazyViews,
        files.catalogues[files.largestCatalogue]!.firstView,
        files.catalogues[files.largestCatalogue]!.later,
      ],
      limit: kib(budgets.allViews),
      gzip: true,
    },
    ...files.library.map((file): SizeLimitCheck => ({
      name: `Custom element library (/${file}), in ${languageNames.of(files.largestLibraryCatalogue)} (the largest catalogue)`,
      path: [file, files.libraryCatalogues[files.largestLibraryCatalogue]!],
      limit: kib(budgets.allViews),
      gzip: true,
    })),
    {
      name: 'iFrame host script (/sdk/embed.js)',
      path: [files.hostScript],
      limit: kib(budgets.hostScript),
      gzip: true,
    },
  ];
}

/**
 * What the interface (and the partner guide of /developers) is built from; a change to any
 * of them makes the build stale.
 */
const interfaceSources = [
  'docs/partners/guide.md',
  'index.html',
  'public',
  'vite.config.ts',
  'src/contract',
  'src/client',
  'src/controllers',
  'src/elements',
  'src/embed',
  'src/locales',
];

function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path).reduce(
    (newest, entry) => Math.max(newest, newestChange(join(path, entry))),
    stats.mtimeMs,
  );
}

/**
 * Builds the interface when its output is missing (the first `npm start` of a checkout) or
 * older than its sources (a `git pull` since). A deployment that ships dist/ without the
 * sources, or without the dev dependencies a build needs, serves what it has.
 */
export async function ensureBuilt(distDir = defaultDistDir): Promise<void> {
  const needed = [
    join(distDir, 'app', 'index.html'),
    ...libraryFiles.map((file) => join(distDir, 'sdk', file)),
    join(distDir, 'sdk', hostScriptFile),
    join(distDir, partnerGuideFile),
  ];
  const missing = needed.some((file) => !existsSync(file));
  if (!missing) {
    const built = Math.min(...needed.map((file) => statSync(file).mtimeMs));
    const changed = Math.max(
      ...interfaceSources.map((source) => newestChange(join(projectRoot, source))),
    );
    if (changed <= built) return;
  }
  process.stdout.write(`${missing ? 'Building' : 'Rebuilding'} the interface (npm run build)…\n`);
  try {
    await build({ distDir });
  } catch (error) {
    if (missing) throw error;
    process.stderr.write(
      `The rebuild failed, so the previous build is served: ${(error as Error).message}\n`,
    );
  }
}
