/**
 * DATA_DIR/cache/pages within a disk budget (PAGE_CACHE_MB): the pictures and words of
 * pages, each a file named by the content, the page and (for a picture) the width and
 * format. When what it holds passes the budget, the entries used least recently go first,
 * as a CDN's edge cache does; whatever is asked for again is drawn again.
 *
 * What it holds is known in memory, read from the directory on first use (its order from
 * the files' modification times, which a hit moves on, so that the order survives a
 * restart). Each process keeps its own (docs/api/files.md, "Pages of a file"); a file another process
 * or the content sweep removed is simply not there when opened, and its size is forgotten
 * at the next `forgetIndex`.
 */
import { open, readdir, rm, stat, utimes, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

/** An entry of the cache, opened: it stays readable even if it is evicted meanwhile. */
export interface CachedPage {
  handle: FileHandle;
  size: number;
}

export class PageCache {
  readonly dir: string;
  readonly #budgetBytes: number;
  /** Size of each entry by name, the least recently used first. */
  #entries = new Map<string, number>();
  #totalBytes = 0;
  #indexed: Promise<void> | undefined;

  constructor(dir: string, budgetBytes: number) {
    this.dir = dir;
    this.#budgetBytes = budgetBytes;
  }

  /** The entry `name`, opened and counted as used now; `undefined` when it is not there. */
  async open(name: string): Promise<CachedPage | undefined> {
    await this.#index();
    const path = join(this.dir, name);
    let handle: FileHandle;
    try {
      handle = await open(path, 'r');
    } catch {
      this.#drop(name);
      return undefined;
    }
    const { size } = await handle.stat();
    this.#use(name, size);
    // The order outlives the process: the index is read back in the order of these times.
    const now = new Date();
    void utimes(path, now, now).catch(() => undefined);
    return { handle, size };
  }

  /**
   * Counts in the entry `name`, just written to the directory, as used now, and removes
   * the entries used least recently until the cache is within its budget again. The new
   * entry itself goes only when it alone is larger than the budget; it is meant to be
   * opened straight after.
   */
  async add(name: string): Promise<void> {
    await this.#index();
    const size = await stat(join(this.dir, name)).then(
      (found) => found.size,
      () => undefined,
    );
    if (size === undefined) return;
    this.#use(name, size);
    const evicted: string[] = [];
    for (const older of this.#entries.keys()) {
      if (this.#totalBytes <= this.#budgetBytes || older === name) break;
      this.#drop(older);
      evicted.push(older);
    }
    await Promise.all(evicted.map((older) => rm(join(this.dir, older), { force: true })));
  }

  /** Reads the directory again at next use (after the content sweep removed entries). */
  forgetIndex(): void {
    this.#indexed = undefined;
  }

  #use(name: string, size: number): void {
    this.#drop(name);
    this.#entries.set(name, size);
    this.#totalBytes += size;
  }

  #drop(name: string): void {
    const size = this.#entries.get(name);
    if (size === undefined) return;
    this.#entries.delete(name);
    this.#totalBytes -= size;
  }

  #index(): Promise<void> {
    this.#indexed ??= (async () => {
      const names = await readdir(this.dir).catch(() => [] as string[]);
      const found: { name: string; size: number; usedAt: number }[] = [];
      for (const name of names) {
        // A picture being written (or left by a worker ended mid-write) is no entry.
        if (name.endsWith('.tmp')) continue;
        const info = await stat(join(this.dir, name)).catch(() => undefined);
        if (info?.isFile()) found.push({ name, size: info.size, usedAt: info.mtimeMs });
      }
      found.sort((a, b) => a.usedAt - b.usedAt);
      this.#entries = new Map(found.map((entry) => [entry.name, entry.size]));
      this.#totalBytes = found.reduce((sum, entry) => sum + entry.size, 0);
    })();
    return this.#indexed;
  }
}
