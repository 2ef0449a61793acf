/** Extraction buckets: containers of files that runs work over. Deletion is soft. */
import type { Transaction } from 'kysely';
import type { Bucket, BucketInput, BucketOrigin } from '../../contract/resources.js';
import type { Db } from '../store/database.js';
import { newId, nowIso } from '../store/ids.js';
import { newestFirst, type PageOfRows, type PageWindow } from '../store/paging.js';
import type { BucketRow, Database } from '../store/schema.js';
import { dialectOf } from '../store/clock.js';
import { findLive, notDeleted, softDelete } from '../store/soft-delete.js';
import { runIris, runsOf, type RunScope } from '../runs/runs.js';
import { fileToWire, listFilesOfBuckets, type FileRow } from '../files/files.js';

export type { BucketRow };

export async function createBucket(
  db: Db,
  input: BucketInput,
  origin: BucketOrigin,
): Promise<BucketRow> {
  const now = nowIso();
  const row: BucketRow = {
    id: newId(),
    description: input.description ?? null,
    created_using: input.createdUsing ?? origin,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  await db.insertInto('buckets').values(row).execute();
  return row;
}

export function findBucket(db: Db, id: string): Promise<BucketRow | undefined> {
  return findLive(db, 'buckets', id);
}

/**
 * Locks the bucket's row for the rest of the transaction on PostgreSQL, so that two
 * transactions that take it one after another (two runs submitted at once) cannot both pass
 * a check of the bucket; SQLite writes one transaction at a time and needs no lock.
 */
export async function lockBucket(trx: Transaction<Database>, id: string): Promise<void> {
  let bucket = trx.selectFrom('buckets').select('id').where('id', '=', id);
  if (dialectOf(trx) === 'postgres') bucket = bucket.forUpdate();
  await bucket.executeTakeFirst();
}

export function listBuckets(db: Db, window: PageWindow): Promise<PageOfRows<BucketRow>> {
  return newestFirst(db.selectFrom('buckets').where(notDeleted), window);
}

export function deleteBucket(db: Db, id: string): Promise<boolean> {
  return softDelete(db, 'buckets', id);
}

/**
 * Buckets as the APIs show them, with their runs and files, in two queries for all. With
 * a `scope`, only the runs within it are listed (what an embed session may see).
 */
export async function bucketViews(
  db: Db,
  rows: readonly BucketRow[],
  scope?: RunScope,
): Promise<Bucket[]> {
  const ids = rows.map((row) => row.id);
  const [runs, files] = await Promise.all([
    runsOf(db, 'bucket_id', ids, scope),
    listFilesOfBuckets(db, ids),
  ]);
  return rows.map((row) => bucketToWire(row, runIris(runs.get(row.id)), files.get(row.id) ?? []));
}

export function bucketToWire(row: BucketRow, runs: string[], files: FileRow[]): Bucket {
  return {
    id: row.id,
    description: row.description,
    deletedAt: row.deleted_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    createdUsing: row.created_using,
    artifacts: JSON.stringify(files.map(fileToWire)),
    runs,
  };
}
