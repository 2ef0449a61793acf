/**
 * The one scheduler of work held until the end of the event loop's current turn: its
 * check phase, where `setImmediate` callbacks run, after the poll phase has read every
 * request the turn had. Three things wait for it: the answers of the turn, written back to
 * back (http/answers-per-turn.ts); the log lines of the turn, handed on as one batch
 * (logging.ts); and the store's check of whether another process changed the database,
 * made once per turn (store/sqlite-connection.ts). One `setImmediate` serves them all,
 * in the order they asked.
 */
let pending: (() => void)[] | undefined;

/** Runs `callback` at the end of the current turn. */
export function atEndOfTurn(callback: () => void): void {
  if (!pending) {
    pending = [];
    setImmediate(runPending);
  }
  pending.push(callback);
}

function runPending(): void {
  const callbacks = pending!;
  pending = undefined;
  let failure: { error: unknown } | undefined;
  for (const callback of callbacks) {
    try {
      callback();
    } catch (error) {
      // The others still run; the first failure is reported as an uncaught error would be.
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}
