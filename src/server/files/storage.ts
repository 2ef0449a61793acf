/**
 * Where the bytes of uploaded files are kept: a directory (the default, DATA_DIR/files) or an
 * S3-compatible object store (FILES_URL=s3://bucket/prefix, s3-store.ts). Either way a file
 * is named only by ids the service generated (checked against their shape), never by a name
 * in a request, so nothing a client sends can point anywhere else.
 *
 * An upload is first written to a temporary file on this machine (DATA_DIR/tmp) while it is
 * counted, hashed and sniffed; only an accepted file is committed to the store. A document
 * reaches the extraction engine, which reads files from disk, as a local copy: the file
 * itself for a directory, a temporary download for S3, removed when the read is done.
 */
import { createReadStream, type ReadStream } from 'node:fs';
import {
  access,
  constants,
  copyFile,
  mkdir,
  open,
  readdir,
  rename,
  rm,
  stat,
} from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';

const idShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isStorageId(value: string): boolean {
  return idShape.test(value);
}

export function assertStorageId(id: string): string {
  if (!idShape.test(id)) throw new Error(`Not a storage id: ${JSON.stringify(id)}`);
  return id;
}

/** A file's bytes on this machine's disk, for as long as the reader needs them. */
export interface LocalCopy {
  path: string;
  /** Ends the need: a temporary copy is removed, the store's own file stays. */
  release(): Promise<void>;
}

export interface FileStore {
  /** Clears what unfinished uploads left in the temporary directory, and creates what is missing. */
  init(): Promise<void>;
  /** A new path in the temporary directory for an upload to be written to. */
  newTempPath(): string;
  /** Moves a fully written temporary file into the store, durably; the temporary file goes. */
  commit(tempPath: string, bucketId: string, fileId: string): Promise<void>;
  discard(tempPath: string): Promise<void>;
  remove(bucketId: string, fileId: string): Promise<void>;
  /** The file's bytes as a stream; a missing file fails the stream, not the call. */
  read(bucketId: string, fileId: string): Readable;
  /** The file on local disk until released (see LocalCopy). */
  localCopy(bucketId: string, fileId: string, signal?: AbortSignal): Promise<LocalCopy>;
  /**
   * Removes files no row knows about: left behind by a crash between the commit and the
   * insert, or by a bucket deleted while its upload was under way. Returns how many. A file
   * younger than the store's grace period (an hour) stays even so: another process may have
   * just stored it and be about to insert its row.
   */
  sweep(isKnown: (bucketId: string, fileId: string) => boolean): Promise<number>;
  /** Throws when the store cannot be reached or written to (GET /readyz). */
  check(): Promise<void>;
  /** Lets go of connections; the store is not used after. */
  close(): void;
}

async function syncDirectory(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** How old a file no row knows must be before a sweep removes it. */
export const defaultSweepGraceMs = 60 * 60_000;

/**
 * Files on disk under {filesDir}/{bucketId}/{fileId}. A file is written to the temporary
 * directory first, flushed to disk, then renamed into place, and the directory entry is
 * flushed too: once the service answers 201 the bytes survive a crash.
 */
export class DirectoryFileStore implements FileStore {
  constructor(
    readonly filesDir: string,
    readonly tmpDir: string,
    readonly sweepGraceMs = defaultSweepGraceMs,
  ) {}

  async init(): Promise<void> {
    await mkdir(this.filesDir, { recursive: true });
    await resetTemporaryDirectory(this.tmpDir);
  }

  newTempPath(): string {
    return join(this.tmpDir, randomBytes(16).toString('hex'));
  }

  pathOf(bucketId: string, fileId: string): string {
    return join(this.filesDir, assertStorageId(bucketId), assertStorageId(fileId));
  }

  async commit(tempPath: string, bucketId: string, fileId: string): Promise<void> {
    const target = this.pathOf(bucketId, fileId);
    const directory = dirname(target);
    await mkdir(directory, { recursive: true });
    try {
      await rename(tempPath, target);
    } catch (error) {
      // FILES_URL may name a directory on another file system than DATA_DIR/tmp: copy it
      // there under a name no reader looks for, flush it, and rename it within that system.
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      const partial = `${target}.partial`;
      await copyFile(tempPath, partial);
      const handle = await open(partial, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(partial, target);
      await rm(tempPath, { force: true });
    }
    await syncDirectory(directory);
  }

  async discard(tempPath: string): Promise<void> {
    await rm(tempPath, { force: true });
  }

  async remove(bucketId: string, fileId: string): Promise<void> {
    await rm(this.pathOf(bucketId, fileId), { force: true });
  }

  read(bucketId: string, fileId: string): ReadStream {
    return createReadStream(this.pathOf(bucketId, fileId));
  }

  async localCopy(bucketId: string, fileId: string): Promise<LocalCopy> {
    const path = this.pathOf(bucketId, fileId);
    await access(path, constants.R_OK);
    return { path, release: async () => {} };
  }

  async sweep(isKnown: (bucketId: string, fileId: string) => boolean): Promise<number> {
    const settledBefore = Date.now() - this.sweepGraceMs;
    let removed = 0;
    for (const bucket of await readdir(this.filesDir)) {
      if (!idShape.test(bucket)) continue;
      for (const file of await readdir(join(this.filesDir, bucket))) {
        if (!idShape.test(file) || isKnown(bucket, file)) continue;
        const path = join(this.filesDir, bucket, file);
        const modified = await stat(path).then(
          (stats) => stats.mtimeMs,
          () => Date.now(),
        );
        if (modified >= settledBefore) continue;
        await rm(path, { force: true });
        removed++;
      }
    }
    return removed;
  }

  async check(): Promise<void> {
    await access(this.filesDir, constants.W_OK);
    await access(this.tmpDir, constants.W_OK);
  }

  close(): void {}
}

/** Whatever is in the temporary directory belongs to an upload or a read that never finished. */
export async function resetTemporaryDirectory(tmpDir: string): Promise<void> {
  await rm(tmpDir, { recursive: true, force: true });
  await mkdir(tmpDir, { recursive: true });
}
