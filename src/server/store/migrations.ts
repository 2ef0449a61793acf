/**
 * Schema migrations, in order. Each is written with Kysely's schema builder and portable
 * column types so the same migrations run on SQLite and PostgreSQL. Never edit a migration
 * that has shipped; add the next one.
 */
import {
  sql,
  type ColumnDataType,
  type Expression,
  type Kysely,
  type Migration,
  type MigrationProvider,
} from 'kysely';
import { newDocumentRows, runColumnsOf } from '../runs/documents.js';
import type { Database, RunDocumentRow } from './schema.js';
import type { RunStatus } from '../../contract/run-status.js';

export type Dialect = 'sqlite' | 'postgres';

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

const migrationsFor = (dialect: Dialect): Record<string, Migration> => ({
  '0001_initial': {
    async up(db: Kysely<unknown>) {
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
      await db.schema
        .createIndex('runs_status')
        .on('runs')
        .columns(['status', 'created_at'])
        .execute();

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
  },
  '0002_pages_and_checks': {
    async up(db: Kysely<unknown>) {
      const { text } = columnTypes(dialect);
      await db.schema
        .alterTable('extractors')
        .addColumn('checks', text, (col) => col.notNull().defaultTo('[]'))
        .execute();
      await db.schema.alterTable('files').addColumn('page_count', 'integer').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('files').dropColumn('page_count').execute();
      await db.schema.alterTable('extractors').dropColumn('checks').execute();
    },
  },
  '0003_webhook_order': {
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
  },
  '0004_run_documents': documentsMigration(dialect),
  '0005_submission_and_sessions': {
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
  },
  '0006_document_pages': {
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
  },
  '0007_session_language': {
    // Issue 15: the interface's language for a session (a BCP 47 tag) and the partner's
    // own text for its messages (a JSON object of message id to text).
    async up(db: Kysely<unknown>) {
      const { text, varchar } = columnTypes(dialect);
      await db.schema.alterTable('tokens').addColumn('locale', varchar(35)).execute();
      await db.schema.alterTable('tokens').addColumn('strings', text).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('tokens').dropColumn('strings').execute();
      await db.schema.alterTable('tokens').dropColumn('locale').execute();
    },
  },
  '0008_document_error_codes': {
    // Issue 15: why a document failed as a code (`error_code`), which the interface words in
    // the person's language. A document that failed before keeps null: its English `error`
    // is all there is to show.
    async up(db: Kysely<unknown>) {
      const { varchar } = columnTypes(dialect);
      await db.schema.alterTable('run_documents').addColumn('error_code', varchar(32)).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('run_documents').dropColumn('error_code').execute();
    },
  },
  '0009_session_renewals': {
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
  },
  '0010_previous_webhook_secret': {
    // Issue 22: a rotated webhook secret keeps signing beside the new one until
    // `previous_webhook_secret_until`, so receivers can move to the new one without losing
    // deliveries (extractors.ts: rotateWebhookSecret).
    async up(db: Kysely<unknown>) {
      const { text, varchar } = columnTypes(dialect);
      await db.schema.alterTable('extractors').addColumn('previous_webhook_secret', text).execute();
      await db.schema
        .alterTable('extractors')
        .addColumn('previous_webhook_secret_until', varchar(32))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema
        .alterTable('extractors')
        .dropColumn('previous_webhook_secret_until')
        .execute();
      await db.schema.alterTable('extractors').dropColumn('previous_webhook_secret').execute();
    },
  },
  '0011_result_drafts': {
    // Issue 22: a person's draft that targetSchema does not accept is kept apart from the
    // records (`runs.draft_result_json`), which hold only records the schema accepts. Like
    // every migration, this one reads no domain code: an edit saved before it, not yet
    // submitted, stays where it was until that document is saved again.
    async up(db: Kysely<unknown>) {
      const { text } = columnTypes(dialect);
      await db.schema.alterTable('runs').addColumn('draft_result_json', text).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('runs').dropColumn('draft_result_json').execute();
    },
  },
});

/**
 * Issue 11: a run's documents. Runs made before it read all their files as one document,
 * so each becomes a run with `combine_files` and one document holding what the run held;
 * its results columns are rewritten in the documents shape by the same code that writes
 * them now (runs/documents.ts), so old runs read like new ones.
 */
const documentsMigration = (dialect: Dialect): Migration => ({
  async up(untyped: Kysely<unknown>) {
    const { text, varchar, counter } = columnTypes(dialect);
    // `partially_completed` is longer than the 16 characters the status had; SQLite does
    // not hold text to a varchar's length, PostgreSQL does.
    if (dialect === 'postgres')
      await untyped.schema
        .alterTable('runs')
        .alterColumn('status', (col) => col.setDataType(varchar(32)))
        .execute();
    await untyped.schema
      .alterTable('extractors')
      .addColumn('combine_files', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
    await untyped.schema
      .alterTable('runs')
      .addColumn('combine_files', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
    await untyped.schema
      .alterTable('runs')
      .addColumn('documents', text, (col) => col.notNull().defaultTo('[]'))
      .execute();
    await untyped.schema
      .createTable('run_documents')
      .addColumn('run_id', varchar(64), (col) => col.notNull().references('runs.id'))
      .addColumn('file_id', varchar(64), (col) => col.notNull())
      .addColumn('file_ids', text, (col) => col.notNull())
      .addColumn('position', 'integer', (col) => col.notNull())
      .addColumn('name', text, (col) => col.notNull())
      .addColumn('status', varchar(16), (col) => col.notNull())
      .addColumn('error', text)
      .addColumn('result_json', text)
      .addColumn('edited_result_json', text)
      .addColumn('partial_result_json', text)
      .addColumn('result_metadata', text)
      .addColumn('token_stats', text)
      .addColumn('total_input_tokens', counter, (col) => col.notNull().defaultTo(0))
      .addColumn('total_output_tokens', counter, (col) => col.notNull().defaultTo(0))
      .addColumn('chunks_completed', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('chunks_total', 'integer')
      .addColumn('created_at', varchar(32), (col) => col.notNull())
      .addColumn('updated_at', varchar(32), (col) => col.notNull())
      .addColumn('started_at', varchar(32))
      .addColumn('finished_at', varchar(32))
      .addPrimaryKeyConstraint('run_documents_pk', ['run_id', 'file_id'])
      .execute();

    const db = untyped as Kysely<Database>;
    const runs = await db.selectFrom('runs').selectAll().execute();
    for (const run of runs) {
      const fileIds = JSON.parse(run.file_ids) as string[];
      const files = await (fileIds.length === 0
        ? Promise.resolve([])
        : db.selectFrom('files').select(['id', 'name']).where('id', 'in', fileIds).execute());
      const known = fileIds.flatMap((id) => files.filter((file) => file.id === id));
      if (known.length === 0) continue; // its files are gone: nothing to name a document by
      const [fresh] = newDocumentRows(run.id, known, true, run.created_at);
      const documentStatus: Record<RunStatus, RunDocumentRow['status']> = {
        completed: 'completed',
        partially_completed: 'completed',
        failed: 'failed',
        queued: run.chunks_completed > 0 ? 'running' : 'queued',
        running: 'running',
        paused: 'running',
        cancelled: run.chunks_completed > 0 ? 'running' : 'queued',
      };
      const document: RunDocumentRow = {
        ...fresh!,
        status: documentStatus[run.status],
        error: run.error,
        result_json: run.result_json,
        edited_result_json: run.edited_result_json,
        partial_result_json: run.partial_result_json,
        result_metadata: run.result_metadata,
        token_stats: run.token_stats,
        total_input_tokens: run.total_input_tokens,
        total_output_tokens: run.total_output_tokens,
        chunks_completed: run.chunks_completed,
        chunks_total: run.chunks_total,
        updated_at: run.updated_at,
        started_at: run.started_at,
        finished_at: run.finished_at,
      };
      // The columns later migrations add are not there yet.
      const { pages_read: _read, pages_total: _total, error_code: _code, ...columns } = document;
      await db.insertInto('run_documents').values(columns).execute();
      await db
        .updateTable('runs')
        .set({ combine_files: 1, ...runColumnsOf(run.bucket_id, [document]) })
        .where('id', '=', run.id)
        .execute();
    }
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('run_documents').execute();
    await db.schema.alterTable('runs').dropColumn('documents').execute();
    await db.schema.alterTable('runs').dropColumn('combine_files').execute();
    await db.schema.alterTable('extractors').dropColumn('combine_files').execute();
  },
});

export function migrationProvider(dialect: Dialect): MigrationProvider {
  return {
    async getMigrations() {
      return migrationsFor(dialect);
    },
  };
}
