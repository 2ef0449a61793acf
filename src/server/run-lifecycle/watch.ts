/**
 * Watching a run: its events after the one a client saw last, as they happen, until the
 * run is final and every event up to that point is out. The event stream of the REST API
 * (`GET …/events`) writes what this yields; the loop itself knows nothing of HTTP.
 */
import { isFinalRunStatus } from '../../contract/run-status.js';
import type { Db } from '../store/database.js';
import { lastRunEventId, runEventsAfter, type StoredRunEvent } from '../runs/events.js';
import type { RunSignals } from './signals.js';
import { findRun, type RunRow } from '../runs/runs.js';

/**
 * Where a client's watch of a run begins:
 * - `settled`: the run is final and the client has had its last event; nothing more will
 *   come (the stream answers 204, which stops EventSource reconnecting);
 * - `resume`: after the event the client names, one of this run's, replaying what it missed;
 * - `snapshot`: from `run` as it is now, which stands for every event up to `after`. So
 *   begins a client that names no event: a reconnecting client that never had one gets the
 *   run's state once, not its whole history again. So does one that names an event past the
 *   run's last, which no stream of this run gave out (a made-up or stale id): resuming after
 *   it would wait in silence for events that, numbered below it, would never be sent.
 */
export type WatchStart =
  | { kind: 'settled' }
  | { kind: 'resume'; after: number }
  | { kind: 'snapshot'; run: RunRow; after: number };

/** Where the watch of `run` (as read just now) begins for a client that last saw `lastSeen`. */
export async function startWatch(
  db: Db,
  run: RunRow,
  lastSeen: number | undefined,
): Promise<WatchStart> {
  // Read after the run: a run read final has committed all its events, so this is its last.
  const last = await lastRunEventId(db, run.id);
  if (lastSeen !== undefined && lastSeen <= last)
    return isFinalRunStatus(run.status) && lastSeen === last
      ? { kind: 'settled' }
      : { kind: 'resume', after: lastSeen };
  // The run again, after its last event's id: the state sent is at least as new as every
  // event it stands for, and any change since comes as an event after `last`.
  return { kind: 'snapshot', run: (await findRun(db, run.id)) ?? run, after: last };
}

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
