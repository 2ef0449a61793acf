/**
 * Uploaded files on disk, under DATA_DIR/files/{bucketId}/{fileId}. Paths are built only
 * from ids the service generated (checked against their shape), never from a name in a
 * request, so nothing a client sends can point outside the data directory. A file is
 * written to DATA_DIR/tmp first, flushed to disk, then renamed into place, and the
 * directory entry is flushed too: once the service answers 201 the bytes survive a crash.
 */
import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

const idShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function assertId(id: string): string {
  if (!idShape.test(id)) throw new Error(`Not a storage id: ${JSON.stringify(id)}`);
  return id;
}

async function syncDirectory(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export class FileStorage {
  readonly filesDir: string;
  readonly tmpDir: string;

  constructor(dataDir: string) {
    this.filesDir = join(dataDir, 'files');
    this.tmpDir = join(dataDir, 'tmp');
  }

  async init(): Promise<void> {
    await mkdir(this.filesDir, { recursive: true });
    // Whatever is in tmp belongs to an upload that never finished.
    await rm(this.tmpDir, { recursive: true, force: true });
    await mkdir(this.tmpDir, { recursive: true });
  }

  newTempPath(): string {
    return join(this.tmpDir, randomBytes(16).toString('hex'));
  }

  pathOf(bucketId: string, fileId: string): string {
    return join(this.filesDir, assertId(bucketId), assertId(fileId));
  }

  /** Moves a fully written temporary file into the bucket, durably. */
  async commit(tempPath: string, bucketId: string, fileId: string): Promise<void> {
    const directory = join(this.filesDir, assertId(bucketId));
    await mkdir(directory, { recursive: true });
    await rename(tempPath, this.pathOf(bucketId, fileId));
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

  /**
   * Removes files no row knows about: left behind by a crash between the rename and the
   * insert, or by a bucket deleted while its upload was under way.
   */
  async sweep(isKnown: (bucketId: string, fileId: string) => boolean): Promise<number> {
    let removed = 0;
    for (const bucket of await readdir(this.filesDir)) {
      if (!idShape.test(bucket)) continue;
      for (const file of await readdir(join(this.filesDir, bucket))) {
        if (idShape.test(file) && !isKnown(bucket, file)) {
          await rm(join(this.filesDir, bucket, file), { force: true });
          removed++;
        }
      }
    }
    return removed;
  }
}
