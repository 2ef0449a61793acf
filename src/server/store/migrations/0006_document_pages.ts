/**
 * Migration 0006_document_pages. Frozen: it has shipped, and runs again on every new
 * store exactly as it did then, so it is never edited and imports nothing but Kysely.
 */
import { type Kysely, type Migration } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

export const migration = (_dialect: Dialect): Migration => ({
  // Issue 14: how many pages of a document are read, of how many, while it is read (OCR
  // takes seconds a page). A document read before keeps 0 of unknown.
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('run_documents')
      .addColumn('pages_read', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('run_documents').addColumn('pages_total', 'integer').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('run_documents').dropColumn('pages_total').execute();
    await db.schema.alterTable('run_documents').dropColumn('pages_read').execute();
  },
});
