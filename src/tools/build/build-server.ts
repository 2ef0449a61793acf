/**
 * The service as `npm start` runs it: src/server/main.ts bundled by esbuild into one ES
 * module, dist/server/main.mjs, which plain `node` runs. Running the TypeScript through tsx
 * instead would keep tsx and its compile cache in the service's memory (about 35 MB of a
 * 130 MB idle service); the bundle is built in well under a second on every start.
 *
 * Packages stay outside the bundle (they are imported from node_modules as they are), and
 * code splitting puts every module the server imports lazily (GraphQL, the interface build)
 * in a chunk of its own, so what they import (graphql-yoga, typescript, vite…) is still
 * loaded only when first used. The bundle sits two folders below the project root, as
 * src/server/*.ts does, so the paths the server works out from its own address (config.ts,
 * build.ts) are the same either way. The document workers' entry is bundled beside it, as
 * dist/server/document-worker.mjs.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectRoot } from '../project-root.js';

export const serverBundle = join(projectRoot, 'dist', 'server', 'main.mjs');

export async function buildServer(): Promise<string> {
  const { build } = await import('esbuild');
  const outdir = dirname(serverBundle);
  const result = await build({
    entryPoints: {
      main: join(projectRoot, 'src/server/main.ts'),
      // The document workers' process (src/server/engine/isolation/pool.ts looks for it here).
      'document-worker': join(projectRoot, 'src/server/engine/isolation/document-worker.ts'),
    },
    bundle: true,
    splitting: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    outdir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    write: false,
    logLevel: 'warning',
    banner: {
      js: '// Built by src/tools/build/build-server.ts from src/server; edit the sources, not this file.',
    },
  });
  // Each file is written aside and renamed, the entry last: servers started at the same time
  // by parallel tests never load half a file, and chunks are named by their content.
  const files = [...result.outputFiles].sort(
    (a, b) => Number(a.path === serverBundle) - Number(b.path === serverBundle),
  );
  for (const file of files) {
    mkdirSync(dirname(file.path), { recursive: true });
    const partial = `${file.path}.${process.pid}.partial`;
    writeFileSync(partial, file.contents);
    renameSync(partial, file.path);
  }
  return serverBundle;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildServer();
}
