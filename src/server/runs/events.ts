/**
 * The event log of runs. Every change a watcher cares about is a row in `run_events`
 * written in the same transaction as the change, so the SSE stream can replay from any
 * Last-Event-ID. Signals (RunSignals, run-lifecycle/signals.ts) only wake streams early, in
 * this process or, through PostgreSQL, in any other; a stream also polls, so no change goes
 * unseen for long.
 */
import { iriOf } from '../../contract/iri.js';
import type { RunEventData, RunEventType } from '../../contract/events.js';
import type { Db } from '../store/database.js';
import { nowIso } from '../store/ids.js';
import type { Database } from '../store/schema.js';
import type { Kysely, Transaction } from 'kysely';
import {
  documentsOfRun,
  documentSummary,
  effectiveDocumentJson,
  type RunDocumentRow,
} from './documents.js';
import type { RunRow } from './runs.js';

export interface StoredRunEvent {
  id: number;
  type: RunEventType | 'snapshot';
  data: RunEventData;
}

/** What every event says of the run, and of the document it is about, if any. */
export function runEventData(run: RunRow, document?: RunDocumentRow): RunEventData {
  const text = document ? effectiveDocumentJson(document) : null;
  return {
    run: iriOf('run', run.id),
    status: run.status,
    chunksCompleted: run.chunks_completed,
    chunksTotal: run.chunks_total,
    partialResultJson: run.partial_result_json,
    error: run.error,
    documents: documentsOfRun(run),
    ...(document
      ? {
          document: {
            ...documentSummary(run.bucket_id, document),
            data: text === null ? null : (JSON.parse(text) as unknown),
          },
        }
      : {}),
  };
}

export async function appendRunEvent(
  db: Kysely<Database> | Transaction<Database>,
  run: RunRow,
  type: RunEventType,
  document?: RunDocumentRow,
): Promise<void> {
  await db
    .insertInto('run_events')
    .values({
      run_id: run.id,
      type,
      data: JSON.stringify(runEventData(run, document)),
      created_at: nowIso(),
    })
    .execute();
}

export async function runEventsAfter(
  db: Db,
  runId: string,
  afterId: number,
  limit = 200,
): Promise<StoredRunEvent[]> {
  const rows = await db
    .selectFrom('run_events')
    .select(['id', 'type', 'data'])
    .where('run_id', '=', runId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    type: row.type as RunEventType,
    data: JSON.parse(row.data) as RunEventData,
  }));
}

/** The id of the run's last event so far; 0 before its first. */
export async function lastRunEventId(db: Db, runId: string): Promise<number> {
  const row = await db
    .selectFrom('run_events')
    .select('id')
    .where('run_id', '=', runId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.id) : 0;
}
