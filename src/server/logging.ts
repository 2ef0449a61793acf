/**
 * The service's logger: pino, one JSON line per request or event, on stdout. Lines are
 * written in batches of 4 KB (or every second when the service is quiet) instead of one
 * blocking write each: at thousands of requests a second that write was a tenth of the
 * cost of a cheap read (src/bench/http.ts). pino flushes what is left when the process
 * exits; a SIGKILL can lose the last second of lines, never data.
 */
import { pino, type Logger } from 'pino';

export function createLogger(level: string): Logger {
  const destination = pino.destination({ dest: 1, minLength: 4096, sync: false });
  setInterval(() => destination.flush(), 1000).unref();
  return pino({ level }, destination);
}
