/**
 * The documents of a run (issue 11). A document is a file of the bucket, extracted on its
 * own against the run's target schema: its own record, status, error, sources, tokens and
 * progress. With `combineFiles` the bucket's files are read together as one document (one
 * paper photographed page by page).
 *
 * Each document is a row of `run_documents`; the run row keeps what they make together
 * (`documents`, `result_json`, `partial_result_json`, `edited_result_json`,
 * `result_metadata`, `token_stats`, the token totals and the chunk counters), rewritten
 * in the transaction that changes a document, so reading a run stays one point read. The
 * results are `{"documents": [{file, name, status, data, error}, ...]}` in the bucket's order
 * everywhere: REST, GraphQL, events and webhooks.
 */
import type { Kysely, Transaction } from 'kysely';
import { fileIriOf } from '../../contract/iri.js';
import type {
  DocumentMetadata,
  DocumentResult,
  DocumentSummary,
  ResultMetadata,
} from '../../contract/resources.js';
import type { RunStatus } from '../../contract/run-status.js';
import type { DocumentTokenStats } from '../engine/pipeline.js';
import type { Database, FileRow, RunDocumentRow, RunRow } from '../store/schema.js';

export type { RunDocumentRow };

type Executor = Kysely<Database> | Transaction<Database>;

/** The tokens of one document's chunks, as `run_documents.token_stats` holds them. */
export type { DocumentTokenStats };

/** The run's `tokenStats`: every chunk (with its document's file) and the totals of each document. */
export interface RunTokenStats {
  chunks: { file: string; chunk: number; inputTokens: number; outputTokens: number }[];
  totalInputTokens: number;
  totalOutputTokens: number;
  documents: { file: string; totalInputTokens: number; totalOutputTokens: number }[];
}

/** The joined names of a combined document, as people read a list. */
function joinedNames(files: readonly Pick<FileRow, 'name'>[]): string {
  return files.map((file) => file.name).join(', ');
}

/** The document rows of a new run: one per file, or one for all of them when combined. */
export function newDocumentRows(
  runId: string,
  files: readonly Pick<FileRow, 'id' | 'name'>[],
  combine: boolean,
  now: string,
): RunDocumentRow[] {
  const groups = combine ? [files] : files.map((file) => [file]);
  return groups.map((group, position) => ({
    run_id: runId,
    file_id: group[0]!.id,
    file_ids: JSON.stringify(group.map((file) => file.id)),
    position,
    name: joinedNames(group),
    ...untouchedDocumentColumns(now),
    edited_result_json: null,
    created_at: now,
  }));
}

/**
 * The columns of a document no work has touched: a new one's, and what its work resets to
 * when it is extracted again (retry, replace), a person's edits aside.
 */
export function untouchedDocumentColumns(now: string) {
  return {
    status: 'queued' as const,
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
  } satisfies Partial<RunDocumentRow>;
}

export function listDocuments(db: Executor, runId: string): Promise<RunDocumentRow[]> {
  return db
    .selectFrom('run_documents')
    .selectAll()
    .where('run_id', '=', runId)
    .orderBy('position')
    .execute();
}

export function findDocument(
  db: Executor,
  runId: string,
  fileId: string,
): Promise<RunDocumentRow | undefined> {
  return db
    .selectFrom('run_documents')
    .selectAll()
    .where('run_id', '=', runId)
    .where('file_id', '=', fileId)
    .executeTakeFirst();
}

/** The ids of the files a document reads. */
export function documentFileIds(row: Pick<RunDocumentRow, 'file_ids'>): string[] {
  return JSON.parse(row.file_ids) as string[];
}

/** A document's record with a person's edits, if any. */
export function effectiveDocumentJson(
  row: Pick<RunDocumentRow, 'edited_result_json' | 'result_json'>,
): string | null {
  return row.edited_result_json ?? row.result_json;
}

/** A document as the run resource and the events show it (no data). */
export function documentSummary(bucketId: string, row: RunDocumentRow): DocumentSummary {
  const fileIds = documentFileIds(row);
  return {
    file: fileIriOf(bucketId, row.file_id),
    ...(fileIds.length > 1 ? { files: fileIds.map((id) => fileIriOf(bucketId, id)) } : {}),
    name: row.name,
    status: row.status,
    error: row.error,
    errorCode: row.error_code,
    stage: documentStage(row.status, row.chunks_total),
    pagesRead: row.pages_read,
    pagesTotal: row.pages_total,
    chunksCompleted: row.chunks_completed,
    chunksTotal: row.chunks_total,
  };
}

/**
 * What a document not yet settled is doing: its text is read (OCR for scans) and counted
 * in chunks first, so until its chunks are counted it is `reading`, then `extracting`.
 */
function documentStage(
  status: RunDocumentRow['status'],
  chunksTotal: number | null,
): DocumentSummary['stage'] {
  if (status === 'completed' || status === 'failed') return null;
  return chunksTotal === null ? 'reading' : 'extracting';
}

/** The run's `documents` column read back (the run resource's `documents`). */
export function documentsOfRun(run: Pick<RunRow, 'documents'>): DocumentSummary[] {
  // Runs stored before the pages were counted (issue 14) lack the stage and the pages;
  // before documents' errors had codes (issue 15), the code.
  return (JSON.parse(run.documents) as DocumentSummary[]).map((document) => ({
    ...document,
    errorCode: document.errorCode ?? null,
    stage:
      document.stage !== undefined
        ? document.stage
        : documentStage(document.status, document.chunksTotal),
    pagesRead: document.pagesRead ?? 0,
    pagesTotal: document.pagesTotal ?? null,
  }));
}

/**
 * `{"documents": [...]}` with each document's data taken by `dataOf`, written by splicing
 * the stored JSON texts rather than parsing them: the run's columns are rewritten after every
 * chunk, and the records can be long.
 */
function resultsJson(
  bucketId: string,
  rows: readonly RunDocumentRow[],
  dataOf: (row: RunDocumentRow) => string | null,
): string {
  const entries = rows.map((row) => {
    const { file, files, name, status, error } = documentSummary(bucketId, row);
    // `data` goes between name/status and error, as the results read: what, how, then why not.
    const head = JSON.stringify({ file, ...(files ? { files } : {}), name, status });
    return `${head.slice(0, -1)},"data":${dataOf(row) ?? 'null'},"error":${JSON.stringify(error)}}`;
  });
  return `{"documents":[${entries.join(',')}]}`;
}

/** A change to a person's draft of a document: the draft now, or none (`draft` absent). */
export interface DraftChange {
  fileId: string;
  draft?: unknown;
}

/** A run's drafts by file IRI (`draft_result_json` read back). */
export function draftsOf(run: Pick<RunRow, 'draft_result_json'>): Map<string, unknown> {
  const drafts = parsedOr<{ documents: { file: string; data: unknown }[] }>(run.draft_result_json, {
    documents: [],
  });
  return new Map(drafts.documents.map((document) => [document.file, document.data]));
}

/**
 * The run's drafts (`draft_result_json`) after `changes`: `{"documents": [{file, data}]}`,
 * the shape `PUT …/results` takes, in the order of the documents, for each document with a
 * draft; null when none has one.
 */
export function draftsAfter(
  bucketId: string,
  rows: readonly Pick<RunDocumentRow, 'file_id'>[],
  current: string | null,
  changes: readonly DraftChange[],
): string | null {
  const drafts = draftsOf({ draft_result_json: current });
  for (const { fileId, draft } of changes) {
    const file = fileIriOf(bucketId, fileId);
    if (draft === undefined) drafts.delete(file);
    else drafts.set(file, draft);
  }
  const documents = rows
    .map((row) => fileIriOf(bucketId, row.file_id))
    .filter((file) => drafts.has(file))
    .map((file) => ({ file, data: drafts.get(file) }));
  return documents.length === 0 ? null : JSON.stringify({ documents });
}

/** The results as a value: what GET …/results, webhooks and GraphQL give. */
export function documentResults(
  bucketId: string,
  rows: readonly RunDocumentRow[],
  version: 'current' | 'original' = 'current',
): { documents: DocumentResult[] } {
  return JSON.parse(
    resultsJson(
      bucketId,
      rows,
      version === 'original' ? (row) => row.result_json : effectiveDocumentJson,
    ),
  ) as { documents: DocumentResult[] };
}

function parsedOr<T>(text: string | null, fallback: T): T {
  return text === null ? fallback : (JSON.parse(text) as T);
}

/** What the run row keeps of its documents: every column documents.ts says it derives. */
export function runColumnsOf(
  bucketId: string,
  rows: readonly RunDocumentRow[],
): Pick<
  RunRow,
  | 'documents'
  | 'result_json'
  | 'edited_result_json'
  | 'partial_result_json'
  | 'result_metadata'
  | 'token_stats'
  | 'total_input_tokens'
  | 'total_output_tokens'
  | 'chunks_completed'
  | 'chunks_total'
> {
  const completed = rows.some((row) => row.status === 'completed');
  const edited = rows.some((row) => row.edited_result_json !== null);
  const started = rows.some((row) => row.result_json !== null || row.partial_result_json !== null);
  const withMetadata = rows.some((row) => row.result_metadata !== null);
  const withTokens = rows.some((row) => row.token_stats !== null);

  const tokenStats: RunTokenStats = {
    chunks: [],
    totalInputTokens: 0,
    totalOutputTokens: 0,
    documents: [],
  };
  for (const row of rows) {
    const file = fileIriOf(bucketId, row.file_id);
    const stats = parsedOr<DocumentTokenStats | undefined>(row.token_stats, undefined);
    for (const chunk of stats?.chunks ?? []) tokenStats.chunks.push({ file, ...chunk });
    tokenStats.totalInputTokens += Number(row.total_input_tokens);
    tokenStats.totalOutputTokens += Number(row.total_output_tokens);
    tokenStats.documents.push({
      file,
      totalInputTokens: Number(row.total_input_tokens),
      totalOutputTokens: Number(row.total_output_tokens),
    });
  }
  const metadata: ResultMetadata = {
    documents: rows.map((row) => ({
      file: fileIriOf(bucketId, row.file_id),
      ...parsedOr<DocumentMetadata>(row.result_metadata, { sources: {}, violations: [] }),
    })),
  };
  // A failed document that was never read counts no chunks; one still to be read leaves
  // the total unknown, as a run's was before it had read its files.
  const unknownTotal = rows.some((row) => row.chunks_total === null && row.status !== 'failed');
  return {
    documents: JSON.stringify(rows.map((row) => documentSummary(bucketId, row))),
    result_json: completed ? resultsJson(bucketId, rows, (row) => row.result_json) : null,
    edited_result_json: edited ? resultsJson(bucketId, rows, effectiveDocumentJson) : null,
    // A failed document's values found before it failed are no record: it shows none.
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

/**
 * How a run ends once the worker has done every document: `completed` when all completed,
 * `partially_completed` when some did, else `failed`; the error says which failed and why
 * (each document's error already names its file).
 */
export function settledOutcome(rows: readonly RunDocumentRow[]): {
  status: RunStatus;
  error: string | null;
} {
  const failed = rows.filter((row) => row.status !== 'completed');
  const errors = failed.map((row) => row.error ?? `${row.name} could not be extracted`).join('; ');
  if (failed.length === 0) return { status: 'completed', error: null };
  if (failed.length < rows.length) {
    const counted = rows.length === 1 ? 'document' : 'documents';
    return {
      status: 'partially_completed',
      error: `${failed.length} of ${rows.length} ${counted} failed: ${errors}`,
    };
  }
  if (rows.length === 1) return { status: 'failed', error: errors };
  return { status: 'failed', error: `All ${rows.length} documents failed: ${errors}` };
}

/**
 * A document's error as people read it: naming the file. Most errors of the engine already
 * do (`scan.png is a picture and OCR found no text in it`); one that does not (a model
 * provider that cannot be reached) gets the document's name in front.
 */
export function documentError(
  row: Pick<RunDocumentRow, 'name'>,
  fileNames: readonly string[],
  message: string,
): string {
  return fileNames.some((name) => message.includes(name)) ? message : `${row.name}: ${message}`;
}
