/**
 * Imports a module the way a server-side renderer would: plain Node, no window, no
 * document, in a child process of its own, so nothing a test runner put on globalThis can
 * make the import pass and nothing the import leaves there leaks into other tests. Reports
 * what the module exports and which of our tags it registered.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { projectRoot } from '../project-root.js';

const run = promisify(execFile);

export interface ServerImport {
  exports: string[];
  window: string;
  document: string;
  registered: string[];
}

const tags = [
  'extractor-app',
  'extractor-introduction-view',
  'extractor-bucket-view',
  'extractor-extraction-view',
  'extractor-results-view',
];

/** Imports `url` in a fresh Node process, with `loader` (e.g. `tsx`) for TypeScript sources. */
export async function importOnServer(url: string, loader?: string): Promise<ServerImport> {
  const script = `
    const library = await import(${JSON.stringify(url)});
    const registry = globalThis.customElements;
    console.log(JSON.stringify({
      exports: Object.keys(library).sort(),
      window: typeof window,
      document: typeof document,
      registered: ${JSON.stringify(tags)}.filter((tag) => registry?.get(tag) !== undefined),
    }));
  `;
  const { stdout } = await run(
    process.execPath,
    [...(loader ? ['--import', loader] : []), '--input-type=module', '--eval', script],
    { cwd: projectRoot, timeout: 60_000 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as ServerImport;
}
