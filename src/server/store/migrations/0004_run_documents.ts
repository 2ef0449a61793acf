/**
 * Migration 0004_run_documents. Frozen: it has shipped, and runs again on every new store
 * exactly as it did then, so it is never edited and imports nothing but Kysely.
 *
 * Issue 11: a run's documents. Runs made before it read all their files as one document,
 * so each becomes a run with `combine_files` and one document holding what the run held;
 * its results columns are rewritten in the documents shape, so old runs read like new ones.
 * What it needs of runs/documents.ts and contract/iri.ts as they were when it shipped is
 * copied below (newDocumentRows, runColumnsOf and what they call, for the one combined
 * document a run becomes), so that a later change to them cannot change it.
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

type RunStatus =
  'queued' | 'running' | 'paused' | 'completed' | 'partially_completed' | 'failed' | 'cancelled';
type DocumentStatus = 'queued' | 'running' | 'completed' | 'failed';

/** The tables as this migration reads and writes them. */
interface Tables {
  runs: {
    id: string;
    bucket_id: string;
    status: RunStatus;
    file_ids: string;
    error: string | null;
    result_json: string | null;
    edited_result_json: string | null;
    partial_result_json: string | null;
    result_metadata: string | null;
    token_stats: string | null;
    total_input_tokens: number;
    total_output_tokens: number;
    chunks_completed: number;
    chunks_total: number | null;
    created_at: string;
    updated_at: string;
    started_at: string | null;
    finished_at: string | null;
    combine_files: number;
    documents: string;
  };
  files: { id: string; name: string };
  run_documents: Omit<DocumentRow, 'pages_read' | 'pages_total' | 'error_code'>;
}

/** A document row as the code of the time made it, with the columns later migrations add. */
interface DocumentRow {
  run_id: string;
  file_id: string;
  file_ids: string;
  position: number;
  name: string;
  status: DocumentStatus;
  error: string | null;
  error_code: string | null;
  result_json: string | null;
  edited_result_json: string | null;
  partial_result_json: string | null;
  result_metadata: string | null;
  token_stats: string | null;
  total_input_tokens: number;
  total_output_tokens: number;
  chunks_completed: number;
  chunks_total: number | null;
  pages_read: number;
  pages_total: number | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
}

function fileIriOf(bucketId: string, fileId: string): string {
  return `/api/buckets/${encodeURIComponent(bucketId)}/files/${encodeURIComponent(fileId)}`;
}

/** The one document of a run whose files are read together. */
function combinedDocumentRow(
  runId: string,
  files: readonly { id: string; name: string }[],
  now: string,
): DocumentRow {
  return {
    run_id: runId,
    file_id: files[0]!.id,
    file_ids: JSON.stringify(files.map((file) => file.id)),
    position: 0,
    name: files.map((file) => file.name).join(', '),
    status: 'queued',
    error: null,
    error_code: null,
    result_json: null,
    partial_result_json: null,
    result_metadata: null,
    token_stats: null,
    total_input_tokens: 0,
    total_output_tokens: 0,
    chunks_completed: 0,
    chunks_total: null,
    pages_read: 0,
    pages_total: null,
    updated_at: now,
    started_at: null,
    finished_at: null,
    edited_result_json: null,
    created_at: now,
  };
}

function documentSummary(bucketId: string, row: DocumentRow) {
  const fileIds = JSON.parse(row.file_ids) as string[];
  const settled = row.status === 'completed' || row.status === 'failed';
  return {
    file: fileIriOf(bucketId, row.file_id),
    ...(fileIds.length > 1 ? { files: fileIds.map((id) => fileIriOf(bucketId, id)) } : {}),
    name: row.name,
    status: row.status,
    error: row.error,
    errorCode: row.error_code,
    stage: settled ? null : row.chunks_total === null ? 'reading' : 'extracting',
    pagesRead: row.pages_read,
    pagesTotal: row.pages_total,
    chunksCompleted: row.chunks_completed,
    chunksTotal: row.chunks_total,
  };
}

function resultsJson(
  bucketId: string,
  rows: readonly DocumentRow[],
  dataOf: (row: DocumentRow) => string | null,
): string {
  const entries = rows.map((row) => {
    const { file, files, name, status, error } = documentSummary(bucketId, row);
    const head = JSON.stringify({ file, ...(files ? { files } : {}), name, status });
    return `${head.slice(0, -1)},"data":${dataOf(row) ?? 'null'},"error":${JSON.stringify(error)}}`;
  });
  return `{"documents":[${entries.join(',')}]}`;
}

function parsedOr<T>(text: string | null, fallback: T): T {
  return text === null ? fallback : (JSON.parse(text) as T);
}

/** What the run row keeps of its documents. */
function runColumnsOf(bucketId: string, rows: readonly DocumentRow[]) {
  const effective = (row: DocumentRow) => row.edited_result_json ?? row.result_json;
  const completed = rows.some((row) => row.status === 'completed');
  const edited = rows.some((row) => row.edited_result_json !== null);
  const started = rows.some((row) => row.result_json !== null || row.partial_result_json !== null);
  const withMetadata = rows.some((row) => row.result_metadata !== null);
  const withTokens = rows.some((row) => row.token_stats !== null);

  const tokenStats = {
    chunks: [] as { file: string; chunk: number; inputTokens: number; outputTokens: number }[],
    totalInputTokens: 0,
    totalOutputTokens: 0,
    documents: [] as { file: string; totalInputTokens: number; totalOutputTokens: number }[],
  };
  for (const row of rows) {
    const file = fileIriOf(bucketId, row.file_id);
    const stats = parsedOr<
      { chunks: { chunk: number; inputTokens: number; outputTokens: number }[] } | undefined
    >(row.token_stats, undefined);
    for (const chunk of stats?.chunks ?? []) tokenStats.chunks.push({ file, ...chunk });
    tokenStats.totalInputTokens += Number(row.total_input_tokens);
    tokenStats.totalOutputTokens += Number(row.total_output_tokens);
    tokenStats.documents.push({
      file,
      totalInputTokens: Number(row.total_input_tokens),
      totalOutputTokens: Number(row.total_output_tokens),
    });
  }
  const metadata = {
    documents: rows.map((row) => ({
      file: fileIriOf(bucketId, row.file_id),
      ...parsedOr<object>(row.result_metadata, { sources: {}, violations: [] }),
    })),
  };
  const unknownTotal = rows.some((row) => row.chunks_total === null && row.status !== 'failed');
  return {
    documents: JSON.stringify(rows.map((row) => documentSummary(bucketId, row))),
    result_json: completed ? resultsJson(bucketId, rows, (row) => row.result_json) : null,
    edited_result_json: edited ? resultsJson(bucketId, rows, effective) : null,
    partial_result_json: started
      ? resultsJson(bucketId, rows, (row) =>
          row.status === 'failed' ? null : (row.result_json ?? row.partial_result_json),
        )
      : null,
    result_metadata: withMetadata ? JSON.stringify(metadata) : null,
    token_stats: withTokens ? JSON.stringify(tokenStats) : null,
    total_input_tokens: tokenStats.totalInputTokens,
    total_output_tokens: tokenStats.totalOutputTokens,
    chunks_completed: rows.reduce((sum, row) => sum + row.chunks_completed, 0),
    chunks_total: unknownTotal ? null : rows.reduce((sum, row) => sum + (row.chunks_total ?? 0), 0),
  };
}

export const migration = (dialect: Dialect): Migration => ({
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

    const db = untyped as Kysely<Tables>;
    const runs = await db.selectFrom('runs').selectAll().execute();
    for (const run of runs) {
      const fileIds = JSON.parse(run.file_ids) as string[];
      const files = await (fileIds.length === 0
        ? Promise.resolve([])
        : db.selectFrom('files').select(['id', 'name']).where('id', 'in', fileIds).execute());
      const known = fileIds.flatMap((id) => files.filter((file) => file.id === id));
      if (known.length === 0) continue; // its files are gone: nothing to name a document by
      const fresh = combinedDocumentRow(run.id, known, run.created_at);
      const documentStatus: Record<RunStatus, DocumentStatus> = {
        completed: 'completed',
        partially_completed: 'completed',
        failed: 'failed',
        queued: run.chunks_completed > 0 ? 'running' : 'queued',
        running: 'running',
        paused: 'running',
        cancelled: run.chunks_completed > 0 ? 'running' : 'queued',
      };
      const document: DocumentRow = {
        ...fresh,
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
