/**
 * A bucket's `updated_at` moves when its files change. Apart from buckets.ts, which shows a
 * bucket with its files, so that files/ can call it without the two importing each other.
 */
import type { Transaction } from 'kysely';
import { nowIso } from '../store/ids.js';
import type { Database } from '../store/schema.js';

/** Notes, in the transaction that changed them, that the bucket's files changed. */
export async function markBucketChanged(trx: Transaction<Database>, id: string): Promise<void> {
  await trx.updateTable('buckets').set({ updated_at: nowIso() }).where('id', '=', id).execute();
}
