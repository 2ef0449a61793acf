/**
 * `npm run build`: the hosted interface (index.html → dist/app, served at /x/… and /embed/…)
 * and the custom element library (dist/sdk/extractor.mjs, an ES module, and
 * dist/sdk/extractor.js, a classic script, with custom-elements.json and extractor.d.ts;
 * served at /sdk/…), then the sizes against the budgets of issue #4:
 *
 *   - first view: what the hosted page loads before the introduction shows ≤ 35 KB gzipped;
 *   - all views:  that plus every lazily loaded view ≤ 80 KB gzipped;
 *
 * and, of issue #5, the iFrame's host script dist/sdk/embed.js (src/embed/host/embed.ts)
 * ≤ 3 KB gzipped.
 *
 * `npm start` calls `ensureBuilt()`, which builds only when the output is missing or stale.
 * Vite is imported only when a build runs, so a deployment with a built dist/ and no dev
 * dependencies starts.
 */
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const projectRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const defaultDistDir = join(projectRoot, 'dist');

export const budgets = {
  firstView: 35 * 1024,
  allViews: 80 * 1024,
  /** /sdk/embed.js, the iFrame's host script, goes on partners' pages: it must stay tiny. */
  hostScript: 3 * 1024,
} as const;

export const libraryFiles = ['extractor.mjs', 'extractor.js'] as const;
export const hostScriptFile = 'embed.js';

export interface SizedFile {
  file: string;
  bytes: number;
  gzipBytes: number;
}

export interface SizeReport {
  firstView: SizedFile[];
  lazyViews: SizedFile[];
  library: SizedFile[];
  hostScript: SizedFile;
  firstViewGzip: number;
  allViewsGzip: number;
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
  /** Print the sizes (default true). */
  print?: boolean;
}

export async function build(options: BuildOptions = {}): Promise<SizeReport> {
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
    await viteBuild({
      root: projectRoot,
      configFile: false,
      logLevel: 'warn',
      publicDir: false,
      // Lit's "node" build works in browsers too and adds a small DOM shim for when there is
      // no DOM: so the ES module can be imported during server-side rendering (issue #5).
      // The classic script is for <script> tags only and keeps the plain browser build.
      resolve: format === 'es' ? { conditions: ['node', 'module', 'import', 'default'] } : {},
      build: {
        outDir: join(distDir, 'sdk'),
        emptyOutDir: format === 'es',
        target: 'es2022',
        copyPublicDir: false,
        lib: {
          entry: join(projectRoot, 'src/embed/extractor.ts'),
          formats: [format],
          name: 'Extractor',
          fileName: () => file,
        },
        minify: true,
        // One file each: a partner loads the library with a single request.
        // Vite leaves an ES library unminified for bundlers; this one is served as it is.
        rolldownOptions: { output: { codeSplitting: false, minify: true } },
      },
    });
  }
  // The iFrame's host script: a classic script with a global, ExtractorEmbed.mount(…).
  await viteBuild({
    root: projectRoot,
    configFile: false,
    logLevel: 'warn',
    publicDir: false,
    build: {
      outDir: join(distDir, 'sdk'),
      emptyOutDir: false,
      // Partners' pages reach further back than our own: keep to what every browser of the
      // last years runs.
      target: 'es2020',
      copyPublicDir: false,
      lib: {
        entry: join(projectRoot, 'src/embed/host/embed.ts'),
        formats: ['iife'],
        name: 'ExtractorEmbed',
        fileName: () => hostScriptFile,
      },
      minify: true,
      rolldownOptions: { output: { codeSplitting: false, minify: true } },
    },
  });
  await writeLibraryDescriptions(join(distDir, 'sdk'));
  const report = measure(distDir);
  if (options.print ?? true) process.stdout.write(formatReport(report));
  return report;
}

/**
 * What the library is, for tools: custom-elements.json from the elements' JSDoc (editors,
 * framework wrappers) and extractor.d.ts (TypeScript). Both served at /sdk/ next to it.
 */
export const libraryDescriptionFiles = ['custom-elements.json', 'extractor.d.ts'] as const;

async function writeLibraryDescriptions(sdkDir: string): Promise<void> {
  // Imported here for the same reason as Vite: a deployment without dev dependencies starts.
  const { createCustomElementsManifest } = await import('./custom-elements-manifest.js');
  const { createDeclarations } = await import('./declarations.js');
  const manifest = await createCustomElementsManifest(projectRoot);
  writeFileSync(join(sdkDir, 'custom-elements.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(sdkDir, 'extractor.d.ts'), createDeclarations(projectRoot));
}

function sized(directory: string, file: string): SizedFile {
  const content = readFileSync(join(directory, file));
  return { file, bytes: content.length, gzipBytes: gzipSync(content, { level: 9 }).length };
}

/** Sizes of the build in `distDir`, from Vite's manifest. */
export function measure(distDir = defaultDistDir): SizeReport {
  const appDir = join(distDir, 'app');
  const manifest = JSON.parse(
    readFileSync(join(appDir, '.vite', 'manifest.json'), 'utf8'),
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
  const visitLazy = (key: string) => {
    const chunk = manifest[key]!;
    if (firstFiles.has(chunk.file) || lazyFiles.has(chunk.file)) return;
    lazyFiles.add(chunk.file);
    chunk.css?.forEach((css) => lazyFiles.add(css));
    [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])].forEach(visitLazy);
  };
  lazyKeys.forEach(visitLazy);

  const firstView = [...firstFiles].map((file) => sized(appDir, file));
  const lazyViews = [...lazyFiles].map((file) => sized(appDir, file));
  const library = libraryFiles.map((file) => sized(join(distDir, 'sdk'), file));
  const hostScript = sized(join(distDir, 'sdk'), hostScriptFile);
  const sum = (files: SizedFile[]) => files.reduce((total, file) => total + file.gzipBytes, 0);
  return {
    firstView,
    lazyViews,
    library,
    hostScript,
    firstViewGzip: sum(firstView),
    allViewsGzip: sum(firstView) + sum(lazyViews),
  };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function formatReport(report: SizeReport): string {
  const row = (file: SizedFile) =>
    `  ${file.file.padEnd(44)} ${kb(file.bytes).padStart(10)} ${kb(file.gzipBytes).padStart(10)} gz`;
  const verdict = (size: number, budget: number) =>
    `${kb(size)} of ${kb(budget)} gz ${size <= budget ? 'ok' : 'OVER BUDGET'}`;
  return [
    'Hosted page, before the introduction shows:',
    ...report.firstView.map(row),
    'Loaded when a later step first shows:',
    ...report.lazyViews.map(row),
    'Custom element library (/sdk):',
    ...report.library.map(row),
    'iFrame host script (/sdk):',
    row(report.hostScript),
    '',
    `First view: ${verdict(report.firstViewGzip, budgets.firstView)}`,
    `All views:  ${verdict(report.allViewsGzip, budgets.allViews)}`,
    `embed.js:   ${verdict(report.hostScript.gzipBytes, budgets.hostScript)}`,
    '',
  ].join('\n');
}

/** What the interface is built from; a change to any of them makes the build stale. */
const interfaceSources = [
  'index.html',
  'public',
  'vite.config.ts',
  'src/contract',
  'src/client',
  'src/controllers',
  'src/elements',
  'src/embed',
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
