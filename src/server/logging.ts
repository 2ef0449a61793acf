/**
 * The service's logger: pino, one JSON line per request or event, on stdout.
 *
 * Lines are not written one by one. The lines of one event-loop turn are handed on
 * together at its end, and pino's destination (sonic-boom) writes them in batches of 4 KB,
 * or every second when the service is quiet. One blocking write per line was a tenth of
 * the cost of a cheap read (src/bench/http.ts); handing sonic-boom one line at a time
 * made it measure its whole growing batch again for every line. The batches are written
 * synchronously: an asynchronous write still under way when the process exits would be
 * overtaken by the last lines, written synchronously on exit. What is left is written when
 * the process exits; a SIGKILL can lose the last second of lines, never data.
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import { atEndOfTurn } from './end-of-turn.js';

type SonicBoom = ReturnType<typeof pino.destination>;

/** Collects the lines of the current turn and passes them on as one string. */
class TurnBatch implements DestinationStream {
  private lines: string[] = [];

  constructor(private readonly destination: SonicBoom) {}

  write(line: string): void {
    if (this.lines.push(line) === 1) atEndOfTurn(this.release);
  }

  /** Hands the turn's lines on; pino calls this through `logger.flush()`. */
  flush(): void {
    this.release();
    this.destination.flush();
  }

  flushSync(): void {
    this.release();
    this.destination.flushSync();
  }

  private readonly release = (): void => {
    if (this.lines.length === 0) return;
    this.destination.write(this.lines.join(''));
    this.lines = [];
  };
}

export function createLogger(level: string): Logger {
  const destination = pino.destination({ dest: 1, minLength: 4096, sync: true });
  const batch = new TurnBatch(destination);
  setInterval(() => batch.flush(), 1000).unref();
  // pino writes out what sonic-boom holds on exit; this turn's lines must reach it first.
  process.once('exit', () => batch.flushSync());
  return pino({ level }, batch);
}
