/**
 * Watching a run: its events after the one a client saw last, as they happen, until the
 * run is final and every event up to that point is out. The event stream of the REST API
 * (`GET …/events`) writes what this yields; the loop itself knows nothing of HTTP.
 */
import { isFinalRunStatus } from '../../contract/run-status.js';
import type { Db } from '../store/database.js';
import { runEventsAfter, type RunSignals, type StoredRunEvent } from './events.js';
import { findRun } from './runs.js';

/** An event of the run, or `idle`: nothing happened for a heartbeat's time. */
export type RunWatchItem = { kind: 'event'; event: StoredRunEvent } | { kind: 'idle' };

export interface WatchOptions {
  signal: AbortSignal;
  /** How long it stays quiet before an `idle`, which keeps proxies from closing the stream. */
  heartbeatMs?: number;
  /** How long it waits for a signal before looking again itself (a change by another process). */
  pollMs?: number;
}

export async function* watchRun(
  db: Db,
  signals: RunSignals,
  runId: string,
  afterEventId: number,
  { signal, heartbeatMs = 15_000, pollMs = 2_000 }: WatchOptions,
): AsyncGenerator<RunWatchItem> {
  let lastId = afterEventId;
  let idleSince = Date.now();
  while (!signal.aborted) {
    // The run before its events: a run seen final has committed all its events, so they
    // are all among those read next. (The other way round, the last one could commit
    // between the two reads, by a worker in another process, and never be given out.)
    const current = await findRun(db, runId);
    const events = await runEventsAfter(db, runId, lastId);
    for (const event of events) {
      yield { kind: 'event', event };
      lastId = event.id;
    }
    if (events.length > 0) idleSince = Date.now();
    // Done once the run is final and every event up to it has been given out.
    if (!current || (isFinalRunStatus(current.status) && events.length === 0)) return;
    if (Date.now() - idleSince >= heartbeatMs) {
      yield { kind: 'idle' };
      idleSince = Date.now();
    }
    if (events.length === 0) await signals.waitForRun(runId, pollMs, signal);
  }
}
