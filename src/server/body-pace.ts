/**
 * How slowly a request body may arrive. A client that sends a byte now and then holds a
 * connection, a parser and (for an upload) an open file for as long as it likes: node's
 * own ceiling is five minutes for the whole request, checked every thirty seconds. A body
 * gets a grace period, then has to keep up a pace far below any real connection's; one
 * that falls behind is refused (408) and its connection closed.
 */
import { InputTooSlowError } from './errors.js';

export interface BodyPace {
  /** Time any body gets, whatever arrives in it. */
  graceMs: number;
  /** What has to arrive, on average, for each second past the grace period. */
  minBytesPerSecond: number;
}

export const bodyPace: BodyPace = { graceMs: 10_000, minBytesPerSecond: 8 * 1024 };

export interface PaceWatch {
  /** Counts bytes that arrived. */
  received(bytes: number): void;
  stop(): void;
}

/** Watches a body arrive, and calls `tooSlow` once (with the error to answer) when it falls behind. */
export function watchBodyPace(
  tooSlow: (error: InputTooSlowError) => void,
  pace: BodyPace = bodyPace,
): PaceWatch {
  const started = Date.now();
  let total = 0;
  const timer = setInterval(() => {
    const allowedMs = pace.graceMs + (total / pace.minBytesPerSecond) * 1000;
    if (Date.now() - started <= allowedMs) return;
    clearInterval(timer);
    tooSlow(
      new InputTooSlowError(
        `The request body arrived too slowly: ${total} bytes in ` +
          `${Math.round((Date.now() - started) / 1000)} s. After the first ` +
          `${pace.graceMs / 1000} s a body has to bring ${pace.minBytesPerSecond / 1024} KiB a ` +
          'second on average.',
      ),
    );
  }, 1000);
  timer.unref();
  return {
    received(bytes) {
      total += bytes;
    },
    stop() {
      clearInterval(timer);
    },
  };
}
