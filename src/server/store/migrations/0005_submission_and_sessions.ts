/**
 * Migration 0005_submission_and_sessions. Frozen: it has shipped, and runs again on every new
 * store exactly as it did then, so it is never edited and imports nothing but Kysely.
 */
import { sql, type ColumnDataType, type Expression, type Kysely, type Migration } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

/**
 * The column types of a dialect, chosen to mean the same on both. SQLite compares text byte
 * by byte (its BINARY collation) and its integers hold 64 bits. On PostgreSQL, text takes
 * the "C" collation, so ordering (ids, ISO timestamps), comparisons and `lower()` behave
 * as on SQLite whatever the database's locale; a count without a natural bound is `bigint`
 * (the store reads it back as a number: database.ts). SQLite's statements are exactly those
 * its databases were made with.
 */
type ColumnType = ColumnDataType | Expression<unknown>;

function columnTypes(dialect: Dialect): {
  text: ColumnType;
  varchar(length: number): ColumnType;
  counter: ColumnType;
} {
  if (dialect === 'sqlite')
    return { text: 'text', varchar: (length) => `varchar(${length})`, counter: 'integer' };
  return {
    text: sql`text collate "C"`,
    varchar: (length) => sql.raw(`varchar(${length}) collate "C"`),
    counter: 'bigint',
  };
}

export const migration = (dialect: Dialect): Migration => ({
  // Issue 14: one submission per bucket unless the extractor allows more; a session's
  // colour scheme, and the latest moment it may be renewed to (fixed when it is minted).
  async up(db: Kysely<unknown>) {
    const { text } = columnTypes(dialect);
    await db.schema
      .alterTable('extractors')
      .addColumn('allow_resubmission', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('tokens').addColumn('color_scheme', text).execute();
    await db.schema.alterTable('tokens').addColumn('renewable_until', text).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('tokens').dropColumn('renewable_until').execute();
    await db.schema.alterTable('tokens').dropColumn('color_scheme').execute();
    await db.schema.alterTable('extractors').dropColumn('allow_resubmission').execute();
  },
});
