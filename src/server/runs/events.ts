/**
 * The event log of runs. Every change a watcher cares about is a row in `run_events`
 * written in the same transaction as the change, so the SSE stream can replay from any
 * Last-Event-ID. The in-process bus only wakes streams early; a stream also polls, so a
 * change made by another process (a worker elsewhere) is seen too.
 */
import { EventEmitter } from 'node:events';
import { iriOf } from '../../contract/iri.js';
import type { RunEventData, RunEventType } from '../../contract/events.js';
import type { Db } from '../store/database.js';
import { nowIso } from '../store/ids.js';
import type { Database } from '../store/schema.js';
import type { Kysely, Transaction } from 'kysely';
import type { RunRow } from './runs.js';

export interface StoredRunEvent {
  id: number;
  type: RunEventType | 'snapshot';
  data: RunEventData;
}

export function runEventData(run: RunRow): RunEventData {
  return {
    run: iriOf('run', run.id),
    status: run.status,
    chunksCompleted: run.chunks_completed,
    chunksTotal: run.chunks_total,
    partialResultJson: run.partial_result_json,
    error: run.error,
  };
}

export async function appendRunEvent(
  db: Kysely<Database> | Transaction<Database>,
  run: RunRow,
  type: RunEventType,
): Promise<void> {
  await db
    .insertInto('run_events')
    .values({ run_id: run.id, type, data: JSON.stringify(runEventData(run)), created_at: nowIso() })
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

/** Wakes whoever waits on a run (SSE streams) and the worker when a run is queued. */
export class RunSignals {
  readonly #emitter = new EventEmitter();

  constructor() {
    // One listener per open stream; many streams may watch one run.
    this.#emitter.setMaxListeners(0);
  }

  runChanged(runId: string): void {
    this.#emitter.emit(`run:${runId}`);
  }

  runQueued(): void {
    this.#emitter.emit('queued');
  }

  /** Resolves on the next change of the run, or after `timeoutMs`, or when aborted. */
  waitForRun(runId: string, timeoutMs: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#emitter.off(`run:${runId}`, done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.#emitter.on(`run:${runId}`, done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  onQueued(listener: () => void): () => void {
    this.#emitter.on('queued', listener);
    return () => this.#emitter.off('queued', listener);
  }
}
