/**
 * Migration 0009_session_renewals. Frozen: it has shipped, and runs again on every new
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
  // Issue 22: every token of an embed session knows its session (`session_id`, the id of
  // the token the partner minted), so revoking any of them ends them all; a renewal knows
  // the token it renewed (`renewal_of`, at most one renewal each) and keeps the salt its
  // token is derived from (tokens.ts), so renewing that token again gives the same one.
  // A session token from before is a session of its own: its earlier renewals were not
  // recorded as such and cannot be told apart now.
  async up(db: Kysely<unknown>) {
    const { varchar } = columnTypes(dialect);
    await db.schema.alterTable('tokens').addColumn('session_id', varchar(64)).execute();
    await db.schema.alterTable('tokens').addColumn('renewal_of', varchar(64)).execute();
    await db.schema.alterTable('tokens').addColumn('renewal_salt', varchar(64)).execute();
    await sql`update tokens set session_id = id where kind = 'session'`.execute(db);
    await db.schema.createIndex('tokens_session').on('tokens').column('session_id').execute();
    await db.schema
      .createIndex('tokens_renewal_of')
      .on('tokens')
      .column('renewal_of')
      .unique()
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('tokens_renewal_of').execute();
    await db.schema.dropIndex('tokens_session').execute();
    await db.schema.alterTable('tokens').dropColumn('renewal_salt').execute();
    await db.schema.alterTable('tokens').dropColumn('renewal_of').execute();
    await db.schema.alterTable('tokens').dropColumn('session_id').execute();
  },
});
