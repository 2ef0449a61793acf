/**
 * Table shapes as Kysely sees them. Columns are chosen to mean the same on SQLite and
 * PostgreSQL: timestamps are ISO 8601 text (they sort as they should), flags are integers
 * 0/1, serialized documents are text. Repositories turn rows into domain objects.
 */
import type { Generated } from 'kysely';

export interface ExtractorTable {
  id: string;
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
  redirect_url: string;
  include_text: number;
  include_embedded_images: number;
  mark_embedded_images: number;
  include_page_images: number;
  mark_page_images: number;
  chunk_size: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  last_ran_at: string | null;
}

export interface BucketTable {
  id: string;
  description: string | null;
  created_using: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface FileTable {
  id: string;
  bucket_id: string;
  name: string;
  size: number;
  media_type: string;
  sha256: string;
  created_at: string;
}

export interface RunTable {
  id: string;
  bucket_id: string;
  extractor_id: string;
  status: string;
  strategy: string;
  model: string;
  target_schema: string;
  output_instructions: string;
  include_text: number;
  include_embedded_images: number;
  mark_embedded_images: number;
  include_page_images: number;
  mark_page_images: number;
  chunk_size: number;
  /** JSON list of the ids of the files the run works over, fixed when it is created. */
  file_ids: string;
  result_json: string | null;
  edited_result_json: string | null;
  partial_result_json: string | null;
  result_metadata: string | null;
  token_stats: string | null;
  total_input_tokens: number;
  total_output_tokens: number;
  error: string | null;
  evaluation_type: string | null;
  chunks_completed: number;
  chunks_total: number | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  submitted_at: string | null;
  /** Which worker holds the run while it is `running`, and until when (see runs/worker.ts). */
  lease_owner: string | null;
  lease_expires_at: string | null;
}

export interface RunEventTable {
  id: Generated<number>;
  run_id: string;
  type: string;
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
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  extractor_id: string | null;
  bucket_id: string | null;
  allowed_origins: string | null;
  theme: string | null;
}

export interface WebhookDeliveryTable {
  /** The Standard Webhooks `webhook-id`: the same on every attempt of one message. */
  id: string;
  extractor_id: string;
  run_id: string;
  event_type: string;
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: string;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
  /** The delivery's place among its run's, from 1 (0: written before deliveries were numbered). */
  run_sequence: number;
}

export interface Database {
  extractors: ExtractorTable;
  buckets: BucketTable;
  files: FileTable;
  runs: RunTable;
  run_events: RunEventTable;
  tokens: TokenTable;
  webhook_deliveries: WebhookDeliveryTable;
}
