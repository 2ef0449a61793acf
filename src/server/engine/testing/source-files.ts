/** A file written where a test keeps its files, described as the engine sees a bucket's file. */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { terminateOcr } from '../ocr/ocr.js';
import type { SourceFile } from '../types.js';

export async function storeSourceFile(
  dir: string,
  name: string,
  mediaType: string,
  content: string | Uint8Array,
): Promise<SourceFile> {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
  const path = join(dir, name);
  await writeFile(path, bytes);
  return {
    id: `id-${name}`,
    name,
    path,
    mediaType,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

export interface SourceFolder {
  /** The folder; it exists from `beforeAll` on. */
  readonly dir: string;
  /** Where the readers keep what they read, inside the folder. */
  readonly cacheDir: string;
  /** Writes a file into the folder (storeSourceFile). */
  store(name: string, mediaType: string, content: string | Uint8Array): Promise<SourceFile>;
}

/**
 * A temporary folder for the engine tests around the call: made before them, removed after
 * them, when OCR's workers are ended too (they would hold the test file open).
 */
export function useSourceFolder(prefix: string): SourceFolder {
  let dir: string | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    await terminateOcr();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  const folder = (): string => {
    if (!dir) throw new Error('The folder is made in beforeAll; use it inside a test.');
    return dir;
  };
  return {
    get dir() {
      return folder();
    },
    get cacheDir() {
      return join(folder(), 'cache');
    },
    store: (name, mediaType, content) => storeSourceFile(folder(), name, mediaType, content),
  };
}
