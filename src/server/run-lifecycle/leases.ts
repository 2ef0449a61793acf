/**
 * The leases on running runs, by the database's clock: a worker renews the lease on each run
 * it works, lets go of one it no longer works, and puts back in the queue the runs whose
 * lease ran out (their worker died, or lost the database). The lease is taken with the run
 * itself (RunLifecycle.claimNext in lifecycle.ts); why runs are leased is in
 * docs/decisions/0002-leases.md.
 */
import { databaseTime } from '../store/clock.js';
import type { Db } from '../store/database.js';
import { nowIso } from '../store/ids.js';

/**
 * Puts runs whose lease ran out back in the queue, or, with `all`, every running run; not
 * those in `working`, when only the expired ones go. Returns how many.
 */
export async function requeueExpiredLeases(
  db: Db,
  all: boolean,
  working: readonly string[],
): Promise<number> {
  let requeue = db
    .updateTable('runs')
    .set({ status: 'queued', lease_owner: null, lease_expires_at: null, updated_at: nowIso() })
    .where('status', '=', 'running');
  if (!all) {
    requeue = requeue.where('lease_expires_at', '<', databaseTime(db));
    if (working.length > 0) requeue = requeue.where('id', 'not in', [...working]);
  }
  const result = await requeue.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Renews `owner`'s lease on a running or paused run for `leaseMs`; false when it is not its. */
export async function renewLease(
  db: Db,
  runId: string,
  owner: string,
  leaseMs: number,
): Promise<boolean> {
  const result = await db
    .updateTable('runs')
    .set({ lease_expires_at: databaseTime(db, leaseMs) })
    .where('id', '=', runId)
    .where('lease_owner', '=', owner)
    .where('status', 'in', ['running', 'paused'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Lets go of `owner`'s lease on a run it no longer works on (paused, or no longer its own). */
export async function releaseLease(db: Db, runId: string, owner: string): Promise<void> {
  await db
    .updateTable('runs')
    .set({ lease_owner: null, lease_expires_at: null })
    .where('id', '=', runId)
    .where('lease_owner', '=', owner)
    .execute();
}
