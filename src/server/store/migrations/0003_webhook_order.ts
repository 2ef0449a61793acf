/**
 * Migration 0003_webhook_order. Frozen: it has shipped, and runs again on every new
 * store exactly as it did then, so it is never edited and imports nothing but Kysely.
 */
import { type Kysely, type Migration } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

export const migration = (_dialect: Dialect): Migration => ({
  // A run's deliveries were ordered by their ids, whose leading milliseconds come from the
  // clock of the process that wrote them: with an API process and a worker on different
  // machines writing events of one run, a later event could sort first. `run_sequence`
  // numbers a run's deliveries as they are written, under the lock on the run's row that
  // every writer of run events takes first (run-lifecycle/lifecycle.ts). Deliveries from before
  // keep 0 and their ids' order, and go before any numbered one.
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('webhook_deliveries')
      .addColumn('run_sequence', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
    await db.schema.dropIndex('webhook_deliveries_run').execute();
    await db.schema
      .createIndex('webhook_deliveries_run_order')
      .on('webhook_deliveries')
      .columns(['run_id', 'status', 'run_sequence', 'id'])
      .execute();
    await db.schema
      .createIndex('webhook_deliveries_run_sequence')
      .on('webhook_deliveries')
      .columns(['run_id', 'run_sequence'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('webhook_deliveries_run_sequence').execute();
    await db.schema.dropIndex('webhook_deliveries_run_order').execute();
    await db.schema
      .createIndex('webhook_deliveries_run')
      .on('webhook_deliveries')
      .columns(['run_id', 'status', 'id'])
      .execute();
    await db.schema.alterTable('webhook_deliveries').dropColumn('run_sequence').execute();
  },
});
