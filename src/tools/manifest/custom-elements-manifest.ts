/**
 * custom-elements.json, written from the elements' JSDoc by the Custom Elements Manifest
 * analyzer's command line, `cem analyze` with its Lit support (configured in
 * cem.config.mjs beside this file), and shipped with the library at
 * /sdk/custom-elements.json. Editors, Storybook and framework wrappers read it for the
 * tags, attributes, properties, events, slots, parts and custom properties.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';

/** The manifest's outline (schema: https://github.com/webcomponents/custom-elements-manifest). */
export interface CustomElementsManifest {
  schemaVersion: string;
  modules: {
    kind: string;
    path: string;
    declarations?: Record<string, unknown>[];
    exports?: unknown[];
  }[];
}

/** Runs `cem analyze` over the elements under `projectRoot`; the manifest lands in `outDir`. */
export async function writeCustomElementsManifest(
  projectRoot: string,
  outDir: string,
): Promise<string> {
  // The analyzer joins --outdir to its working directory, so it is given relative to it.
  await promisify(execFile)(
    process.execPath,
    [
      join(projectRoot, 'node_modules/@custom-elements-manifest/analyzer/cem.js'),
      'analyze',
      '--config',
      'src/tools/manifest/cem.config.mjs',
      '--outdir',
      relative(projectRoot, outDir) || '.',
    ],
    { cwd: projectRoot },
  );
  return join(outDir, 'custom-elements.json');
}

/** The manifest of the elements under `projectRoot`, written to a directory of its own. */
export async function createCustomElementsManifest(
  projectRoot: string,
): Promise<CustomElementsManifest> {
  const outDir = mkdtempSync(join(tmpdir(), 'extractor-cem-'));
  try {
    const file = await writeCustomElementsManifest(projectRoot, outDir);
    return JSON.parse(readFileSync(file, 'utf8')) as CustomElementsManifest;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
