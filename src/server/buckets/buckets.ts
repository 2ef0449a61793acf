/** Extraction buckets: containers of files that runs work over. Deletion is soft. */
import { iriOf } from '../../contract/iri.js';
import type { Bucket, BucketInput, BucketOrigin } from '../../contract/resources.js';
import type { Db } from '../store/database.js';
import { newId, nowIso } from '../store/ids.js';
import type { BucketTable } from '../store/schema.js';
import { fileToWire, type FileRow } from '../files/files.js';

export type BucketRow = BucketTable;

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

export async function findBucket(db: Db, id: string): Promise<BucketRow | undefined> {
  return db
    .selectFrom('buckets')
    .selectAll()
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function listBuckets(
  db: Db,
  page: { offset: number; limit: number },
): Promise<{ rows: BucketRow[]; total: number }> {
  const query = db.selectFrom('buckets').where('deleted_at', 'is', null);
  const [rows, count] = await Promise.all([
    query
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export async function deleteBucket(db: Db, id: string): Promise<boolean> {
  const now = nowIso();
  const result = await db
    .updateTable('buckets')
    .set({ deleted_at: now, updated_at: now })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** IRIs of the runs of each bucket, oldest first, in one query. */
export async function runIrisByBucket(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return map;
  const rows = await db
    .selectFrom('runs')
    .select(['id', 'bucket_id'])
    .where('bucket_id', 'in', ids)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  for (const row of rows) map.get(row.bucket_id)?.push(iriOf('run', row.id));
  return map;
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
