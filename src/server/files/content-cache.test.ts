import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sweepContentCache } from './content-cache.js';

const kept = 'a'.repeat(64);
const gone = 'b'.repeat(64);
const hour = 3_600_000;
let cacheDir: string;

afterEach(() => rmSync(cacheDir, { recursive: true, force: true }));

/** Writes a cache entry whose last change was `ageMs` ago. */
function entry(path: string, ageMs: number): void {
  writeFileSync(path, 'x');
  const at = new Date(Date.now() - ageMs);
  utimesSync(path, at, at);
}

describe('sweepContentCache', () => {
  it('removes the readings and pages of contents no file has, once they are settled', async () => {
    cacheDir = mkdtempSync(join(tmpdir(), 'extractor-cache-'));
    mkdirSync(join(cacheDir, 'pages'));
    entry(join(cacheDir, `${kept}-text.json`), 2 * hour);
    entry(join(cacheDir, 'pages', `${kept}-1-600.webp`), 2 * hour);
    entry(join(cacheDir, `${gone}-text.json`), 2 * hour);
    entry(join(cacheDir, 'pages', `${gone}-1-600.webp`), 2 * hour);
    entry(join(cacheDir, 'pages', `${gone}-2.words.json`), 2 * hour);
    // Of a content whose upload may still be on its way: too fresh to judge.
    entry(join(cacheDir, 'pages', `${gone}-3-600.webp`), 60_000);
    // Not named by a content: not the sweep's to remove.
    entry(join(cacheDir, 'notes.txt'), 2 * hour);

    const removed = await sweepContentCache(cacheDir, (sha256) => sha256 === kept, hour);

    expect(removed).toBe(3);
    expect(readdirSync(cacheDir).sort()).toEqual([`${kept}-text.json`, 'notes.txt', 'pages']);
    expect(readdirSync(join(cacheDir, 'pages')).sort()).toEqual([
      `${kept}-1-600.webp`,
      `${gone}-3-600.webp`,
    ]);
  });

  it('finds nothing to do in a cache that does not exist yet', async () => {
    cacheDir = join(tmpdir(), 'extractor-cache-never-made');
    await expect(sweepContentCache(cacheDir, () => false, 0)).resolves.toBe(0);
  });
});
