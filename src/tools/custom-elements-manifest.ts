/**
 * custom-elements.json, generated from the elements' JSDoc by the Custom Elements Manifest
 * analyzer with its Lit support (what `cem analyze --litelement` does), and shipped with the
 * library at /sdk/custom-elements.json. Editors, Storybook and framework wrappers read it
 * for the tags, attributes, properties, events, slots, parts and custom properties.
 *
 * The analyzer is called through its API rather than its command line: the command line
 * also writes a `customElements` field into the package.json of the directory it runs in.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from '@custom-elements-manifest/analyzer';
import type * as TypeScript from 'typescript';

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

/**
 * What the analyzer's main module exports; its own declarations leave these two out. Its
 * `ts` is the TypeScript it walks source files with, so the files are parsed with it too.
 */
interface Analyzer {
  create(options: { modules: TypeScript.SourceFile[]; plugins: Plugin[] }): CustomElementsManifest;
  ts: typeof TypeScript;
}

/** The folder of the elements, relative to the project root. */
const elementsDir = 'src/elements';

/** Not elements: tests and the helpers the tests mount with. */
const skipped = /\.test\.ts$|\/testing\//;

function sourceFiles(root: string, directory: string): string[] {
  return readdirSync(join(root, directory), { withFileTypes: true }).flatMap((entry) => {
    const path = `${directory}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(root, path);
    return entry.name.endsWith('.ts') && !skipped.test(path) ? [path] : [];
  });
}

/** The manifest of the elements under `projectRoot`/src/elements. */
export async function createCustomElementsManifest(
  projectRoot: string,
): Promise<CustomElementsManifest> {
  const { create, ts } =
    (await import('@custom-elements-manifest/analyzer')) as unknown as Analyzer;
  // The Lit plugin ships without type declarations and outside the package's main entry.
  const litPluginPath =
    '@custom-elements-manifest/analyzer/src/features/framework-plugins/lit/lit.js';
  const { litPlugin } = (await import(litPluginPath)) as { litPlugin: () => Plugin[] };
  const modules = sourceFiles(projectRoot, elementsDir).map((path) =>
    ts.createSourceFile(
      path,
      readFileSync(join(projectRoot, path), 'utf8'),
      ts.ScriptTarget.ES2022,
      true,
    ),
  );
  return create({ modules, plugins: litPlugin() });
}
