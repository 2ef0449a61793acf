/**
 * The disk under DATA_DIR, which holds the SQLite database (by default), the files, the
 * temporary files of uploads and the cache: whether it can be written now (GET /readyz),
 * and a reserve of room kept on it for the writes that must happen even when it is full.
 *
 * A full disk fails writes, and the writes that would help fail with them: SQLite cannot
 * open its database without room for its shared-memory index (so a restart dies), nor
 * delete a file's row without room in its log, nor record why a run's document failed. So
 * the service keeps a file of DATA_DIR_RESERVE_MB on the disk while there is room (a
 * "ballast" file, as CockroachDB keeps one in each store), and gives it up when one of those
 * writes finds no room, then tries that write once more. GET /readyz says not ready until
 * the reserve can be made again, that is, until room has come back.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { isInsufficientStorage } from './errors.js';

/** The reserve is written in pieces of this size. */
const pieceBytes = 1024 * 1024;

/** What a probe of the disk writes, once per readiness check: one page of most file systems. */
const probeBytes = 4096;

export class DataDirectory {
  readonly #reservePath: string;
  #keeping: Promise<void> | undefined;

  constructor(
    readonly path: string,
    readonly reserveBytes: number,
    readonly logger: Logger,
  ) {
    this.#reservePath = join(path, 'reserve');
  }

  /**
   * Makes the reserve when it is missing (or was cut short); throws the reason when there is
   * no room for it, leaving nothing of it behind.
   */
  keepReserve(): Promise<void> {
    // Readiness checks may overlap: one writes the reserve, the others wait for it.
    this.#keeping ??= this.#makeReserve().finally(() => (this.#keeping = undefined));
    return this.#keeping;
  }

  async #makeReserve(): Promise<void> {
    if (this.reserveBytes === 0) return;
    const found = await stat(this.#reservePath).catch(() => undefined);
    if (found?.size === this.reserveBytes) return;
    await mkdir(this.path, { recursive: true });
    const partial = `${this.#reservePath}.partial`;
    try {
      const handle = await open(partial, 'w');
      try {
        // Not zeros: a file system that compresses (ZFS, btrfs) would keep none of them.
        const piece = randomBytes(pieceBytes);
        // A write with less room than it asks for writes what fits and says so; the next
        // one fails with ENOSPC.
        for (let written = 0; written < this.reserveBytes;) {
          const length = Math.min(pieceBytes, this.reserveBytes - written);
          const { bytesWritten } = await handle.write(piece, 0, length);
          if (bytesWritten === 0) throw Object.assign(new Error('No room'), { code: 'ENOSPC' });
          written += bytesWritten;
        }
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(partial, this.#reservePath);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  /**
   * Runs `work`; when it fails for want of room and the reserve is there, gives the reserve
   * up and runs `work` once more. For the writes that free room or must be recorded: a
   * file's deletion, why a document failed, the database's opening at start.
   */
  async withReserve<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (!isInsufficientStorage(error) || !(await this.#releaseReserve())) throw error;
      this.logger.warn(
        { err: error, reserveBytes: this.reserveBytes },
        `the disk under DATA_DIR is full: gave up its reserve to ${what}`,
      );
      return work();
    }
  }

  /**
   * Throws while the directory cannot be written: a small write fails (full, over quota,
   * read-only), or the reserve, once given up, cannot be made again.
   */
  async check(): Promise<void> {
    const probe = join(this.path, 'tmp', `probe-${randomBytes(8).toString('hex')}`);
    try {
      const handle = await open(probe, 'w');
      try {
        await handle.write(Buffer.alloc(probeBytes, 0x2e));
      } finally {
        await handle.close();
      }
    } finally {
      await rm(probe, { force: true });
    }
    await this.keepReserve();
  }

  async #releaseReserve(): Promise<boolean> {
    if (this.reserveBytes === 0) return false;
    const found = await stat(this.#reservePath).catch(() => undefined);
    if (!found) return false;
    await rm(this.#reservePath, { force: true });
    return true;
  }
}

/** Why the directory cannot be written, in words fit for anyone (no path, no message). */
export function whyNotWritable(error: unknown): string | undefined {
  const code = (error as { code?: unknown }).code;
  if (code === 'ENOSPC') return 'its disk is full';
  if (code === 'EDQUOT') return 'its disk quota is used up';
  if (code === 'EROFS') return 'it is read-only';
  return undefined;
}
