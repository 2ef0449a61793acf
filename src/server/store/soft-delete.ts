/**
 * Buckets and extractors are deleted softly: `deleted_at` is set, and from then on they
 * are as good as gone (every read here leaves them out), while the runs that name them
 * keep their references.
 */
import type { ExpressionBuilder, Selectable } from 'kysely';
import type { Db } from './database.js';
import { nowIso } from './ids.js';
import type { Database } from './schema.js';

type SoftDeletedTable = 'buckets' | 'extractors';

/** The condition that keeps a deleted row out of a read. */
export function notDeleted<Table extends SoftDeletedTable>(eb: ExpressionBuilder<Database, Table>) {
  return (eb as unknown as ExpressionBuilder<Database, SoftDeletedTable>)('deleted_at', 'is', null);
}

/** The row with this id, unless it was deleted. */
export function findLive<Table extends SoftDeletedTable>(
  db: Db,
  table: Table,
  id: string,
): Promise<Selectable<Database[Table]> | undefined> {
  // Kysely cannot see through the generic table that `id` exists on each.
  const rows = db.selectFrom(table as SoftDeletedTable).selectAll();
  return rows.where('id', '=', id).where(notDeleted).executeTakeFirst() as Promise<
    Selectable<Database[Table]> | undefined
  >;
}

/** Marks the row deleted; `false` when there is none, or it was deleted already. */
export async function softDelete(db: Db, table: SoftDeletedTable, id: string): Promise<boolean> {
  const now = nowIso();
  const result = await db
    .updateTable(table)
    .set({ deleted_at: now, updated_at: now })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
