import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import type { SqliteDatabase as KyselySqliteDatabase } from 'kysely';

/**
 * better-sqlite3 compiles SQL on every `prepare`, and Kysely prepares on every query: on a
 * cheap read such as GET /api/extraction_runs/{id} that compilation was the largest single
 * cost in a profile (see src/bench/http.ts). Queries are written in code with their values
 * as parameters, so there are few distinct texts; each compiled statement is kept (the
 * least recently used go beyond `limit`) and reused. better-sqlite3 runs a statement to the
 * end synchronously, so sharing one is safe, except while an iteration (Kysely's
 * `stream()`) holds it: then that call gets a statement of its own.
 */
export function withStatementCache(sqlite: SqliteDatabase, limit = 500): KyselySqliteDatabase {
  const statements = new Map<string, Statement>();
  return {
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (statement?.busy) return sqlite.prepare(sql);
      if (statement) {
        statements.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (statements.size >= limit) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      return statement;
    },
    close() {
      statements.clear();
      sqlite.close();
    },
  };
}
