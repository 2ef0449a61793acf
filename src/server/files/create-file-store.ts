/**
 * Opens the file store FILES_URL names. Apart from storage.ts because the S3 store builds
 * on what storage.ts defines: storage.ts importing it back would be a cycle.
 */
import { join } from 'node:path';
import type { FilesLocation } from '../config.js';
import { DirectoryFileStore, type FileStore } from './storage.js';

/**
 * The store FILES_URL names, with its temporary files under DATA_DIR/tmp. The S3 client is
 * loaded only when it is used.
 */
export async function createFileStore(config: {
  dataDir: string;
  files: FilesLocation;
}): Promise<FileStore> {
  const tmpDir = join(config.dataDir, 'tmp');
  if (config.files.kind === 'directory') return new DirectoryFileStore(config.files.path, tmpDir);
  const { S3FileStore } = await import('./s3-store.js');
  return new S3FileStore({ bucket: config.files.bucket, prefix: config.files.prefix, tmpDir });
}
