/**
 * The database's clock, for whatever several processes judge together: when a worker's lease
 * on a run ends, when a webhook delivery is due. Each machine's own clock may be a few
 * seconds off the others'; a lease judged by the database's is judged alike by everyone.
 * Times are ISO 8601 text in UTC with milliseconds, exactly as `Date.prototype.toISOString`
 * writes them and the store keeps every other time, so they compare as text.
 */
import { PostgresAdapter, sql, type DialectAdapter, type RawBuilder } from 'kysely';
import type { Dialect } from './migrations.js';

/** A Kysely instance or a transaction of one, whatever its tables. */
interface Executes {
  getExecutor(): { readonly adapter: DialectAdapter };
}

/** Which dialect a Kysely instance (or a transaction of one) speaks. */
export function dialectOf(db: Executes): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * The database's time now, moved by `offsetMs`. On PostgreSQL `now()` is the start of the
 * transaction, so the statements of one transaction agree on it; on SQLite 'now' is the
 * same throughout a statement.
 */
export function databaseTime(db: Executes, offsetMs = 0): RawBuilder<string> {
  const seconds = offsetMs / 1000;
  if (dialectOf(db) === 'postgres')
    return sql<string>`to_char((now() + make_interval(secs => ${seconds})) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const modifier = `${seconds < 0 ? '-' : '+'}${Math.abs(seconds)} seconds`;
  return sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${modifier})`;
}
