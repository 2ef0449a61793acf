/** The files of a bucket: rows in `files`, bytes in the FileStore. */
import { iriOf } from '../../contract/iri.js';
import type { BucketFile } from '../../contract/resources.js';
import { markBucketChanged } from '../buckets/bucket-changes.js';
import type { Db } from '../store/database.js';
import { newId, nowIso } from '../store/ids.js';
import { readByParent } from '../store/grouping.js';
import type { FileRow } from '../store/schema.js';
import { pageKindOf, type FilePages } from './pages.js';
import type { FileStore } from './storage.js';
import type { ReceivedFile } from './uploads.js';

export type { FileRow };

export function fileToWire(row: FileRow): BucketFile {
  return {
    id: row.id,
    bucket: iriOf('bucket', row.bucket_id),
    name: row.name,
    size: Number(row.size),
    mediaType: row.media_type,
    sha256: row.sha256,
    createdAt: row.created_at,
    contentUrl: `${iriOf('bucket', row.bucket_id)}/files/${row.id}/content`,
    pageCount: row.page_count,
    pageKind: pageKindOf(row.media_type),
  };
}

/**
 * Moves received files into the bucket and records them, each with its pages counted (from
 * the received copy, before it goes to the store); the rows exist only once the bytes do.
 * When any of it fails (a full disk, say) nothing is kept: neither the received files nor
 * the bytes already moved, which no row would ever point at.
 */
export async function addFiles(
  db: Db,
  storage: FileStore,
  pages: Pick<FilePages, 'countAtUpload'>,
  bucketId: string,
  files: ReceivedFile[],
): Promise<FileRow[]> {
  const rows: FileRow[] = [];
  try {
    for (const file of files) {
      const id = newId();
      const pageCount = await pages.countAtUpload(file);
      await storage.commit(file.tempPath, bucketId, id);
      rows.push({
        id,
        bucket_id: bucketId,
        name: file.name,
        size: file.size,
        media_type: file.mediaType,
        sha256: file.sha256,
        created_at: nowIso(),
        page_count: pageCount,
      });
    }
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('files').values(rows).execute();
      await markBucketChanged(trx, bucketId);
    });
  } catch (error) {
    await Promise.allSettled([
      ...files.map((file) => storage.discard(file.tempPath)),
      ...rows.map((row) => storage.remove(bucketId, row.id)),
    ]);
    throw error;
  }
  return rows;
}

export async function listFiles(db: Db, bucketId: string): Promise<FileRow[]> {
  return db
    .selectFrom('files')
    .selectAll()
    .where('bucket_id', '=', bucketId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function listFilesOfBuckets(
  db: Db,
  bucketIds: readonly string[],
): Promise<Map<string, FileRow[]>> {
  const read = (parents: readonly string[]) =>
    db
      .selectFrom('files')
      .selectAll()
      .where('bucket_id', 'in', parents)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  return readByParent(
    bucketIds,
    read,
    (row) => row.bucket_id,
    (row) => row,
  );
}

export async function findFile(
  db: Db,
  bucketId: string,
  fileId: string,
): Promise<FileRow | undefined> {
  return db
    .selectFrom('files')
    .selectAll()
    .where('bucket_id', '=', bucketId)
    .where('id', '=', fileId)
    .executeTakeFirst();
}

/** The files of these ids, whatever their bucket, in no particular order. */
export async function filesByIds(db: Db, ids: readonly string[]): Promise<FileRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('files')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}

/** The file of this id, whatever its bucket. */
export function fileById(db: Db, id: string): Promise<FileRow | undefined> {
  return db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function deleteFile(db: Db, storage: FileStore, row: FileRow): Promise<void> {
  await db.deleteFrom('files').where('id', '=', row.id).execute();
  await storage.remove(row.bucket_id, row.id);
}

/** Every (bucket, file) pair the store knows, for sweeping orphans at start. */
export async function knownFileKeys(db: Db): Promise<Set<string>> {
  const rows = await db.selectFrom('files').select(['id', 'bucket_id']).execute();
  return new Set(rows.map((row) => `${row.bucket_id}/${row.id}`));
}

/** The SHA-256 of every content a stored file has (what the caches are named by). */
export async function knownContents(db: Db): Promise<Set<string>> {
  const rows = await db.selectFrom('files').select('sha256').distinct().execute();
  return new Set(rows.map((row) => row.sha256));
}
