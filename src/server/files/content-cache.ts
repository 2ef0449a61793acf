/**
 * What DATA_DIR/cache holds is made from a file's content and named by it: the engine's
 * reading of a file (`<sha256>-<options>.json`) and the page images and words the review
 * shows (`pages/<sha256>-<page>-<width>.webp`, `pages/<sha256>-<page>.words.json`). One
 * copy serves every file with that content. When no file has the content any more, nothing
 * can ask for it again, and the sweep removes it.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

const contentName = /^([0-9a-f]{64})-/;

/**
 * Removes the cache entries of contents no file has (`isKnown` says which it has), once
 * they are older than `graceMs`: a file being uploaded has no row yet, and its first run
 * may already be filling the cache. Answers how many entries went.
 */
export async function sweepContentCache(
  cacheDir: string,
  isKnown: (sha256: string) => boolean,
  graceMs: number,
): Promise<number> {
  const settledBefore = Date.now() - graceMs;
  let removed = 0;
  for (const dir of [cacheDir, join(cacheDir, 'pages')]) {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      const sha256 = contentName.exec(name)?.[1];
      if (!sha256 || isKnown(sha256)) continue;
      const path = join(dir, name);
      const info = await stat(path).catch(() => undefined);
      if (!info?.isFile() || info.mtimeMs > settledBefore) continue;
      await rm(path, { force: true });
      removed++;
    }
  }
  return removed;
}
