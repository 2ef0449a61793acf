/**
 * Migration 0001_initial. Frozen: it has shipped, and runs again on every new
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

/** The tables of what people make: extractors, buckets, their files, and the runs. */
async function createResourceTables(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const { text, varchar, counter } = columnTypes(dialect);
  await db.schema
    .createTable('extractors')
    .addColumn('id', varchar(64), (col) => col.primaryKey())
    .addColumn('label', text, (col) => col.notNull())
    .addColumn('strategy', varchar(32), (col) => col.notNull())
    .addColumn('model', varchar(200), (col) => col.notNull())
    .addColumn('json_schema', text, (col) => col.notNull())
    .addColumn('output_instructions', text, (col) => col.notNull())
    .addColumn('labels', text, (col) => col.notNull())
    .addColumn('allow_download', 'integer', (col) => col.notNull())
    .addColumn('enable_webhook', 'integer', (col) => col.notNull())
    .addColumn('webhook_url', text, (col) => col.notNull())
    .addColumn('webhook_secret', text, (col) => col.notNull())
    .addColumn('redirect_url', text, (col) => col.notNull())
    .addColumn('include_text', 'integer', (col) => col.notNull())
    .addColumn('include_embedded_images', 'integer', (col) => col.notNull())
    .addColumn('mark_embedded_images', 'integer', (col) => col.notNull())
    .addColumn('include_page_images', 'integer', (col) => col.notNull())
    .addColumn('mark_page_images', 'integer', (col) => col.notNull())
    .addColumn('chunk_size', 'integer', (col) => col.notNull())
    .addColumn('created_at', varchar(32), (col) => col.notNull())
    .addColumn('updated_at', varchar(32), (col) => col.notNull())
    .addColumn('deleted_at', varchar(32))
    .addColumn('last_ran_at', varchar(32))
    .execute();

  await db.schema
    .createTable('buckets')
    .addColumn('id', varchar(64), (col) => col.primaryKey())
    .addColumn('description', text)
    .addColumn('created_using', varchar(16), (col) => col.notNull())
    .addColumn('created_at', varchar(32), (col) => col.notNull())
    .addColumn('updated_at', varchar(32), (col) => col.notNull())
    .addColumn('deleted_at', varchar(32))
    .execute();

  await db.schema
    .createTable('files')
    .addColumn('id', varchar(64), (col) => col.primaryKey())
    .addColumn('bucket_id', varchar(64), (col) => col.notNull().references('buckets.id'))
    .addColumn('name', text, (col) => col.notNull())
    .addColumn('size', 'bigint', (col) => col.notNull())
    .addColumn('media_type', varchar(128), (col) => col.notNull())
    .addColumn('sha256', varchar(64), (col) => col.notNull())
    .addColumn('created_at', varchar(32), (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('files_bucket')
    .on('files')
    .columns(['bucket_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('runs')
    .addColumn('id', varchar(64), (col) => col.primaryKey())
    .addColumn('bucket_id', varchar(64), (col) => col.notNull().references('buckets.id'))
    .addColumn('extractor_id', varchar(64), (col) => col.notNull().references('extractors.id'))
    .addColumn('status', varchar(16), (col) => col.notNull())
    .addColumn('strategy', varchar(32), (col) => col.notNull())
    .addColumn('model', varchar(200), (col) => col.notNull())
    .addColumn('target_schema', text, (col) => col.notNull())
    .addColumn('output_instructions', text, (col) => col.notNull())
    .addColumn('include_text', 'integer', (col) => col.notNull())
    .addColumn('include_embedded_images', 'integer', (col) => col.notNull())
    .addColumn('mark_embedded_images', 'integer', (col) => col.notNull())
    .addColumn('include_page_images', 'integer', (col) => col.notNull())
    .addColumn('mark_page_images', 'integer', (col) => col.notNull())
    .addColumn('chunk_size', 'integer', (col) => col.notNull())
    .addColumn('file_ids', text, (col) => col.notNull())
    .addColumn('result_json', text)
    .addColumn('edited_result_json', text)
    .addColumn('partial_result_json', text)
    .addColumn('result_metadata', text)
    .addColumn('token_stats', text)
    .addColumn('total_input_tokens', counter, (col) => col.notNull().defaultTo(0))
    .addColumn('total_output_tokens', counter, (col) => col.notNull().defaultTo(0))
    .addColumn('error', text)
    .addColumn('evaluation_type', varchar(32))
    .addColumn('chunks_completed', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('chunks_total', 'integer')
    .addColumn('created_at', varchar(32), (col) => col.notNull())
    .addColumn('updated_at', varchar(32), (col) => col.notNull())
    .addColumn('started_at', varchar(32))
    .addColumn('finished_at', varchar(32))
    .addColumn('submitted_at', varchar(32))
    .addColumn('lease_owner', varchar(64))
    .addColumn('lease_expires_at', varchar(32))
    .execute();
  await db.schema
    .createIndex('runs_bucket')
    .on('runs')
    .columns(['bucket_id', 'created_at'])
    .execute();
  await db.schema.createIndex('runs_extractor').on('runs').columns(['extractor_id']).execute();
  await db.schema.createIndex('runs_status').on('runs').columns(['status', 'created_at']).execute();
}

/** The tables of what happens to them: run events, tokens and webhook deliveries. */
async function createActivityTables(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const { text, varchar } = columnTypes(dialect);
  await db.schema
    .createTable('run_events')
    .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (col) =>
      // SQLite's AUTOINCREMENT never reuses an id, so Last-Event-ID stays meaningful.
      dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement(),
    )
    .addColumn('run_id', varchar(64), (col) => col.notNull().references('runs.id'))
    .addColumn('type', varchar(64), (col) => col.notNull())
    .addColumn('data', text, (col) => col.notNull())
    .addColumn('created_at', varchar(32), (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('run_events_run')
    .on('run_events')
    .columns(['run_id', 'id'])
    .execute();

  await db.schema
    .createTable('tokens')
    .addColumn('id', varchar(64), (col) => col.primaryKey())
    .addColumn('kind', varchar(16), (col) => col.notNull())
    .addColumn('name', text, (col) => col.notNull())
    .addColumn('token_hash', varchar(64), (col) => col.notNull().unique())
    .addColumn('created_at', varchar(32), (col) => col.notNull())
    .addColumn('expires_at', varchar(32))
    .addColumn('revoked_at', varchar(32))
    .addColumn('last_used_at', varchar(32))
    .addColumn('extractor_id', varchar(64))
    .addColumn('bucket_id', varchar(64))
    .addColumn('allowed_origins', text)
    .addColumn('theme', text)
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', varchar(64), (col) => col.primaryKey())
    .addColumn('extractor_id', varchar(64), (col) => col.notNull())
    .addColumn('run_id', varchar(64), (col) => col.notNull())
    .addColumn('event_type', varchar(64), (col) => col.notNull())
    .addColumn('payload', text, (col) => col.notNull())
    .addColumn('status', varchar(16), (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', varchar(32), (col) => col.notNull())
    .addColumn('last_attempt_at', varchar(32))
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', text)
    .addColumn('created_at', varchar(32), (col) => col.notNull())
    .addColumn('delivered_at', varchar(32))
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  // The dispatcher sends a run's deliveries oldest first and looks up older pending ones.
  await db.schema
    .createIndex('webhook_deliveries_run')
    .on('webhook_deliveries')
    .columns(['run_id', 'status', 'id'])
    .execute();
}

export const migration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await createResourceTables(db, dialect);
    await createActivityTables(db, dialect);
  },
  async down(db: Kysely<unknown>) {
    for (const table of [
      'webhook_deliveries',
      'tokens',
      'run_events',
      'runs',
      'files',
      'buckets',
      'extractors',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
});
