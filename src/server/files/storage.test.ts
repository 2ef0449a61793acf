/**
 * The directory file store beyond what the upload and crash tests already drive through
 * the service: FILES_URL naming a directory on another file system than DATA_DIR's
 * temporary files, and local copies, which for a directory are the files themselves.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statfsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { newId } from '../store/ids.js';
import { createFileStore } from './create-file-store.js';
import { DirectoryFileStore } from './storage.js';

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0))
    rmSync(directory, { recursive: true, force: true });
});

function temporaryDirectory(parent = tmpdir()): string {
  const directory = mkdtempSync(join(parent, 'extractor-storage-'));
  directories.push(directory);
  return directory;
}

describe('the directory file store', () => {
  it('is DATA_DIR/files by default, and the directory FILES_URL names otherwise', async () => {
    const dataDir = temporaryDirectory();
    const byDefault = await createFileStore(loadConfig({ DATA_DIR: dataDir }));
    expect(byDefault).toBeInstanceOf(DirectoryFileStore);
    expect((byDefault as DirectoryFileStore).filesDir).toBe(join(dataDir, 'files'));
    const elsewhere = temporaryDirectory();
    for (const url of [elsewhere, `file://${elsewhere}`]) {
      const named = await createFileStore(loadConfig({ DATA_DIR: dataDir, FILES_URL: url }));
      expect((named as DirectoryFileStore).filesDir).toBe(elsewhere);
    }
  });

  it('commits into a directory on another file system than its temporary files', async () => {
    // /dev/shm is a tmpfs on Linux: a rename from the temporary directory cannot cross to it.
    const filesDir = temporaryDirectory('/dev/shm');
    const tmpDir = join(temporaryDirectory(), 'tmp');
    expect(statfsSync(filesDir).type).not.toBe(statfsSync(tmpdir()).type);
    const store = new DirectoryFileStore(filesDir, tmpDir);
    await store.init();
    const bytes = randomBytes(300_000);
    const temporary = store.newTempPath();
    await writeFile(temporary, bytes);
    const bucketId = newId();
    const fileId = newId();

    await store.commit(temporary, bucketId, fileId);

    expect(existsSync(temporary)).toBe(false);
    expect(readFileSync(store.pathOf(bucketId, fileId)).equals(bytes)).toBe(true);
    expect(existsSync(`${store.pathOf(bucketId, fileId)}.partial`)).toBe(false);
    await expect(store.check()).resolves.toBeUndefined();
  });

  it('gives the file itself as its local copy, and keeps it when the copy is released', async () => {
    const root = temporaryDirectory();
    const store = new DirectoryFileStore(join(root, 'files'), join(root, 'tmp'));
    await store.init();
    const temporary = store.newTempPath();
    await writeFile(temporary, 'kept');
    const bucketId = newId();
    const fileId = newId();
    await store.commit(temporary, bucketId, fileId);

    const copy = await store.localCopy(bucketId, fileId);
    expect(copy.path).toBe(store.pathOf(bucketId, fileId));
    await copy.release();
    expect(createHash('sha256').update(readFileSync(copy.path)).digest('hex')).toBe(
      createHash('sha256').update('kept').digest('hex'),
    );
    await expect(store.localCopy(bucketId, newId())).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
