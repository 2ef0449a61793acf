/**
 * Table shapes as Kysely sees them. Columns are chosen to mean the same on SQLite and
 * PostgreSQL: timestamps are ISO 8601 text (they sort as they should), flags are integers
 * 0/1, serialized documents are text. Repositories turn rows into domain objects.
 *
 * Rows as read are `Selectable<…Table>` (the `…Row` types below); an insert may leave out
 * a column that is `Generated` or `Nullable` (it is then the database's default or null).
 */
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { RunEventType, WebhookEventType } from '../../contract/events.js';
import type { BucketOrigin, DocumentErrorCode } from '../../contract/resources.js';
import type { DocumentStatus, RunStatus } from '../../contract/run-status.js';

/** A column that may hold null, and holds null unless an insert names it. */
export type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;

/** What a run reads of its documents, set on an extractor and copied to each of its runs. */
export interface ContentOptionColumns {
  include_text: number;
  include_embedded_images: number;
  mark_embedded_images: number;
  include_page_images: number;
  mark_page_images: number;
  chunk_size: number;
}

export interface ExtractorTable extends ContentOptionColumns {
  id: string;
  /** JSON list of the ISO 639-1 codes OCR reads its documents in; `[]`: each page says. */
  document_languages: Generated<string>;
  /** 1: the files of a bucket are read as one document (see runs/documents.ts). */
  combine_files: number;
  /** 1: each run over a bucket may be submitted; 0: only one run per bucket. */
  allow_resubmission: Generated<number>;
  label: string;
  strategy: string;
  model: string;
  json_schema: string;
  output_instructions: string;
  /** JSON object of the interface texts (pageTitle and the *View* labels). */
  labels: string;
  allow_download: number;
  enable_webhook: number;
  webhook_url: string;
  webhook_secret: string;
  /** The secret before the last rotation, which still signs beside it until the time below. */
  previous_webhook_secret: Nullable<string>;
  previous_webhook_secret_until: Nullable<string>;
  redirect_url: string;
  /** JSON list of the checks over the results (src/contract/checks.ts); `[]` by default. */
  checks: Generated<string>;
  created_at: string;
  updated_at: string;
  deleted_at: Nullable<string>;
  last_ran_at: Nullable<string>;
}

export interface BucketTable {
  id: string;
  description: Nullable<string>;
  created_using: BucketOrigin;
  created_at: string;
  updated_at: string;
  deleted_at: Nullable<string>;
}

export interface FileTable {
  id: string;
  bucket_id: string;
  name: string;
  size: number;
  media_type: string;
  sha256: string;
  created_at: string;
  /** How many pages the engine makes of the file; null when it could not be opened (files/pages.ts). */
  page_count: Nullable<number>;
}

/**
 * What extracting gives and when, kept for each document of a run (`run_documents`) and,
 * put together, for the run.
 */
export interface ExtractionColumns {
  error: Nullable<string>;
  result_json: Nullable<string>;
  edited_result_json: Nullable<string>;
  partial_result_json: Nullable<string>;
  /** JSON: sources, violations and review of the values (DocumentMetadata for a document). */
  result_metadata: Nullable<string>;
  /** JSON: the tokens of each chunk. */
  token_stats: Nullable<string>;
  total_input_tokens: number;
  total_output_tokens: number;
  chunks_completed: number;
  chunks_total: Nullable<number>;
  created_at: string;
  updated_at: string;
  started_at: Nullable<string>;
  finished_at: Nullable<string>;
}

export interface RunTable extends ContentOptionColumns, ExtractionColumns {
  id: string;
  /** The extractor's `document_languages` when the run started. */
  document_languages: Generated<string>;
  bucket_id: string;
  extractor_id: string;
  status: RunStatus;
  strategy: string;
  model: string;
  target_schema: string;
  output_instructions: string;
  /**
   * JSON list of the ids of the files the run works over, fixed when it is created (a file
   * replaced in a failed document takes its old file's place).
   */
  file_ids: string;
  combine_files: number;
  /**
   * `documents` and the ExtractionColumns from `result_json` to `chunks_total` are the run's
   * documents (`run_documents`) put together, rewritten whenever a document changes, so
   * that reading a run stays one point read (runs/documents.ts).
   */
  documents: string;
  evaluation_type: Nullable<string>;
  /**
   * JSON `{"documents": [{file, data}]}`: a person's drafts that targetSchema does not accept
   * yet, by document; null when there are none (runs/documents.ts: draftsAfter). The records
   * (`edited_result_json` of the run and its documents) hold only what the schema accepts.
   */
  draft_result_json: Nullable<string>;
  submitted_at: Nullable<string>;
  /** Which worker holds the run while it is `running`, and until when (see run-lifecycle/worker.ts). */
  lease_owner: Nullable<string>;
  lease_expires_at: Nullable<string>;
}

/** One document of a run: one file, or with combine_files all of them (file_ids). */
export interface RunDocumentTable extends ExtractionColumns {
  run_id: string;
  /** The document's (first) file; a replaced file's successor takes it over. */
  file_id: string;
  /** JSON list of the ids of the files read as this document: `[file_id]` unless combined. */
  file_ids: string;
  /** Its place among the run's documents, from 0, in the order of the bucket. */
  position: number;
  name: string;
  status: DocumentStatus;
  /** What kind of failure `error` tells of; null unless failed (or failed before codes were). */
  error_code: Nullable<DocumentErrorCode>;
  /** Pages of its files read so far, and of how many; the total is null until it is opened. */
  pages_read: Generated<number>;
  pages_total: Nullable<number>;
}

export interface RunEventTable {
  id: Generated<number>;
  run_id: string;
  type: RunEventType | 'snapshot';
  data: string;
  created_at: string;
}

export interface TokenTable {
  id: string;
  kind: 'personal' | 'session';
  name: string;
  /** SHA-256 of the token, hex. The token itself is never stored. */
  token_hash: string;
  created_at: string;
  expires_at: Nullable<string>;
  revoked_at: Nullable<string>;
  last_used_at: Nullable<string>;
  extractor_id: Nullable<string>;
  bucket_id: Nullable<string>;
  allowed_origins: Nullable<string>;
  theme: Nullable<string>;
  /** A session's BCP 47 locale, as `Intl` writes it. */
  locale: Nullable<string>;
  /** A session's string overrides: a JSON object of message id to text. */
  strings: Nullable<string>;
  /** A session's colour scheme: light, dark or auto (null: light). */
  color_scheme: Nullable<string>;
  /** A session's maximum lifetime: renewals never take it past this moment. */
  renewable_until: Nullable<string>;
  /**
   * The session a session token belongs to: the id of the token the partner minted, which
   * its renewals share. Revoking any token of a session revokes them all.
   */
  session_id: Nullable<string>;
  /** The token this one renewed (null for the token minted): each is renewed at most once. */
  renewal_of: Nullable<string>;
  /** What a renewal's token is derived from, with the token renewed (tokens.ts). */
  renewal_salt: Nullable<string>;
}

export interface WebhookDeliveryTable {
  /** The Standard Webhooks `webhook-id`: the same on every attempt of one message. */
  id: string;
  extractor_id: string;
  run_id: string;
  event_type: WebhookEventType;
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: string;
  last_attempt_at: Nullable<string>;
  last_status_code: Nullable<number>;
  last_error: Nullable<string>;
  created_at: string;
  delivered_at: Nullable<string>;
  /** The delivery's place among its run's, from 1 (0: written before deliveries were numbered). */
  run_sequence: Generated<number>;
}

export interface Database {
  extractors: ExtractorTable;
  buckets: BucketTable;
  files: FileTable;
  runs: RunTable;
  run_documents: RunDocumentTable;
  run_events: RunEventTable;
  tokens: TokenTable;
  webhook_deliveries: WebhookDeliveryTable;
}

export type ExtractorRow = Selectable<ExtractorTable>;
export type BucketRow = Selectable<BucketTable>;
export type FileRow = Selectable<FileTable>;
export type RunRow = Selectable<RunTable>;
export type NewRun = Insertable<RunTable>;
export type RunDocumentRow = Selectable<RunDocumentTable>;
export type TokenRow = Selectable<TokenTable>;
