/** Reading extraction runs: lookups, the filtered list, and the wire shape. */
import { iriOf } from '../../contract/iri.js';
import type { Run } from '../../contract/resources.js';
import { runStatusesWithResults, type RunStatus } from '../../contract/run-status.js';
import type { Db } from '../store/database.js';
import { containsText } from '../store/filters.js';
import { readByParent } from '../store/grouping.js';
import { newestFirst, type PageOfRows, type PageWindow } from '../store/paging.js';
import { preparedQuery } from '../store/prepared-query.js';
import { oncePerStoredRow } from '../store/stored-rows.js';
import type { ContentOptionColumns, RunRow } from '../store/schema.js';
import { documentsOfRun } from './documents.js';
import { formatDuration, isoDuration } from './durations.js';

export type { RunRow };

/**
 * The columns of a run that no work has touched yet: no results, progress, tokens, times
 * or lease. A new run starts from these; only its settings come from elsewhere.
 */
export function untouchedRunColumns(now: string) {
  return {
    result_json: null,
    edited_result_json: null,
    draft_result_json: null,
    partial_result_json: null,
    result_metadata: null,
    token_stats: null,
    total_input_tokens: 0,
    total_output_tokens: 0,
    error: null,
    evaluation_type: null,
    chunks_completed: 0,
    chunks_total: null,
    created_at: now,
    updated_at: now,
    started_at: null,
    finished_at: null,
    submitted_at: null,
    lease_owner: null,
    lease_expires_at: null,
  } satisfies Partial<RunRow>;
}

const runById = preparedQuery(
  (db, { id }: { id: string }) => db.selectFrom('runs').selectAll().where('id', '=', id),
  ['id'],
);

export async function findRun(db: Db, id: string): Promise<RunRow | undefined> {
  return (await runById(db, { id }))[0];
}

/**
 * Filters of `GET /api/runs`: exact for ids and enumerations (saved_extractor_id, status,
 * strategy, model), case-insensitive substring for text (result_json,
 * partial_result_json, error).
 */
export interface RunFilters {
  resultJson?: string;
  partialResultJson?: string;
  error?: string;
  model?: string;
  savedExtractorId?: string;
  strategy?: string;
  status?: RunStatus;
  /** Not a query parameter: limits a list to one bucket. */
  bucketId?: string;
}

export function listRuns(
  db: Db,
  filters: RunFilters,
  window: PageWindow,
): Promise<PageOfRows<RunRow>> {
  let query = db.selectFrom('runs');
  if (filters.resultJson) query = query.where(containsText('result_json', filters.resultJson));
  if (filters.partialResultJson)
    query = query.where(containsText('partial_result_json', filters.partialResultJson));
  if (filters.error) query = query.where(containsText('error', filters.error));
  if (filters.model) query = query.where('model', '=', filters.model);
  if (filters.savedExtractorId) query = query.where('extractor_id', '=', filters.savedExtractorId);
  if (filters.strategy) query = query.where('strategy', '=', filters.strategy);
  if (filters.status) query = query.where('status', '=', filters.status);
  if (filters.bucketId) query = query.where('bucket_id', '=', filters.bucketId);
  return newestFirst(query, window);
}

export function effectiveResultJson(
  row: Pick<RunRow, 'edited_result_json' | 'result_json'>,
): string | null {
  return row.edited_result_json ?? row.result_json;
}

/** A run as the API shows it; computed once per row the store shares (store/stored-rows.ts). */
export const runToWire = oncePerStoredRow((row: RunRow): Run => {
  const elapsed =
    row.started_at && row.finished_at
      ? Date.parse(row.finished_at) - Date.parse(row.started_at)
      : undefined;
  const data = effectiveResultJson(row);
  return {
    id: row.id,
    status: row.status,
    resultJson: row.result_json,
    partialResultJson: row.partial_result_json,
    targetSchema: row.target_schema,
    tokenStats: row.token_stats,
    error: row.error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    strategy: row.strategy,
    model: row.model,
    ...contentOptionsOf(row),
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    chunkSize: row.chunk_size,
    duration: elapsed === undefined ? null : isoDuration(elapsed),
    formattedDuration: elapsed === undefined ? null : formatDuration(elapsed),
    totalInputTokens: row.started_at ? String(row.total_input_tokens) : null,
    data,
    partialData: runStatusesWithResults.includes(row.status) ? data : row.partial_result_json,
    evaluationType: row.evaluation_type,
    bucket: iriOf('bucket', row.bucket_id),
    savedExtractor: iriOf('extractor', row.extractor_id),
    chunksCompleted: row.chunks_completed,
    chunksTotal: row.chunks_total,
    editedResultJson: row.edited_result_json,
    draftResultJson: row.draft_result_json,
    resultMetadata: row.result_metadata,
    combineFiles: row.combine_files === 1,
    documents: documentsOfRun(row),
    submittedAt: row.submitted_at,
  };
});

/**
 * The runs one embed session may see: its extractor's over its bucket. Lists of a bucket's
 * or an extractor's runs are narrowed to these for a session (access/token-scopes.ts).
 */
export interface RunScope {
  bucketId: string;
  extractorId: string;
}

/** A run as a bucket or an extractor lists it. */
export interface ListedRun {
  id: string;
  createdAt: string;
}

/**
 * The runs of each bucket or extractor, oldest first, in one query; only those within
 * `scope` when there is one.
 */
export function runsOf(
  db: Db,
  column: 'bucket_id' | 'extractor_id',
  ids: readonly string[],
  scope?: RunScope,
): Promise<Map<string, ListedRun[]>> {
  const read = (parents: readonly string[]) => {
    let query = db
      .selectFrom('runs')
      .select(['id', 'created_at', column])
      .where(column, 'in', parents);
    if (scope)
      query = query
        .where('bucket_id', '=', scope.bucketId)
        .where('extractor_id', '=', scope.extractorId);
    return query.orderBy('created_at').orderBy('id').execute();
  };
  return readByParent(
    ids,
    read,
    (row) => row[column],
    (row) => ({ id: row.id, createdAt: row.created_at }),
  );
}

/** IRI references of listed runs, as a bucket's or an extractor's `runs` shows them. */
export function runIris(runs: readonly ListedRun[] | undefined): string[] {
  return (runs ?? []).map((run) => iriOf('run', run.id));
}

/** The content options of an extractor or a run, as the API shows them. */
export function contentOptionsOf(row: ContentOptionColumns) {
  return {
    includeText: row.include_text === 1,
    includeEmbeddedImages: row.include_embedded_images === 1,
    markEmbeddedImages: row.mark_embedded_images === 1,
    includePageImages: row.include_page_images === 1,
    markPageImages: row.mark_page_images === 1,
  };
}

/** A run of the bucket that has not finished (queued, running or paused), if any. */
/**
 * An open run (queued, running or paused) of the bucket other than `exceptRunId` that
 * reads the file `fileId`: removing that file would fail the run's document as missing.
 */
export async function openRunReadingFile(
  db: Db,
  bucketId: string,
  fileId: string,
  exceptRunId: string,
): Promise<RunRow | undefined> {
  const open = await db
    .selectFrom('runs')
    .selectAll()
    .where('bucket_id', '=', bucketId)
    .where('status', 'in', ['queued', 'running', 'paused'])
    .where('id', '!=', exceptRunId)
    .orderBy('created_at', 'desc')
    .execute();
  return open.find((run) => (JSON.parse(run.file_ids) as string[]).includes(fileId));
}

export async function activeRunOfBucket(db: Db, bucketId: string): Promise<RunRow | undefined> {
  return db
    .selectFrom('runs')
    .selectAll()
    .where('bucket_id', '=', bucketId)
    .where('status', 'in', ['queued', 'running', 'paused'])
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}
