import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import type {
  SqliteDatabase as KyselySqliteDatabase,
  SqliteStatement as KyselySqliteStatement,
} from 'kysely';
import { atEndOfTurn } from '../end-of-turn.js';

export interface CachedConnectionOptions {
  /** Compiled statements kept; the least recently used go beyond it. */
  statements?: number;
  /** Point-read answers kept, and the characters their rows may hold together. */
  pointReads?: number;
  pointReadCharacters?: number;
}

export interface CachedConnection extends KyselySqliteDatabase {
  /**
   * The rows `sql` with `parameters` would be answered with from the point-read cache,
   * now, without a round through Kysely's executor; undefined when they are not cached,
   * or while a transaction is open (its reads must wait for it, in Kysely's queue).
   */
  recall(sql: string, parameters: readonly unknown[]): readonly unknown[] | undefined;
}

/**
 * The better-sqlite3 connection as Kysely sees it, with two caches in front of it. Both
 * exist for the cheap reads a service answers thousands of times a second (the token
 * check of every request, a client polling its run: src/bench/http.ts), where compiling
 * SQL, then reading and converting the same row, were the largest costs in a profile.
 *
 * Statements: better-sqlite3 compiles SQL on every `prepare`, and Kysely prepares on every
 * query. Queries are written in code with their values as parameters, so there are few
 * distinct texts; each compiled statement is kept and reused. better-sqlite3 runs a
 * statement to the end synchronously, so sharing one is safe, except while an iteration
 * (Kysely's `stream()`) holds it: then that call gets a statement of its own.
 *
 * Point reads: the rows of a read-only query that found at most one row are kept until the
 * database changes, and handed out frozen, since every caller shares them. The database
 * changes either through this connection or through another one (the token CLI, a second
 * process). Here, any statement that is not a plain read (a write, BEGIN, COMMIT, ROLLBACK)
 * empties the cache right after it ran: better-sqlite3 is synchronous, so no read can
 * slip in between, and a read inside a transaction that is then rolled back is forgotten
 * with it. Elsewhere: SQLite changes `PRAGMA data_version` when another connection
 * commits. It is read before the first answer from the cache in each turn of the event
 * loop (a read of it takes file locks, and under load one turn serves many requests):
 * whatever another process committed before a request arrived was committed before the
 * turn that reads the request began, so it is seen.
 */
export function cachedConnection(
  sqlite: SqliteDatabase,
  options: CachedConnectionOptions = {},
): CachedConnection {
  const statementLimit = options.statements ?? 500;
  const statements = new Map<string, KyselySqliteStatement>();
  const pointReads = new PointReadCache(
    sqlite,
    options.pointReads ?? 1000,
    options.pointReadCharacters ?? 16_000_000,
  );

  const wrap = (sql: string, statement: Statement): KyselySqliteStatement => {
    const cacheable = statement.reader && statement.readonly;
    // SQLite ends a transaction by itself on some errors (SQLITE_FULL, SQLITE_IOERR:
    // https://www.sqlite.org/lang_transaction.html, "Response To Errors Within A
    // Transaction"). Kysely then sends its ROLLBACK anyway, SQLite answers "cannot rollback
    // - no transaction is active", and that error replaces the one that mattered (a full
    // disk would become a 500). There is nothing left to roll back: it is done.
    if (/^rollback$/i.test(sql.trim())) {
      return {
        reader: false,
        all: () => [],
        run(parameters) {
          pointReads.clear();
          return sqlite.inTransaction
            ? statement.run(parameters)
            : { changes: 0, lastInsertRowid: 0 };
        },
        iterate: (parameters) => statement.iterate(parameters),
      };
    }
    return {
      reader: statement.reader,
      all(parameters) {
        if (cacheable) return pointReads.read(sql, parameters, () => statement.all(parameters));
        try {
          return statement.all(parameters);
        } finally {
          pointReads.clear();
        }
      },
      run(parameters) {
        try {
          return statement.run(parameters);
        } finally {
          pointReads.clear();
        }
      },
      iterate(parameters) {
        return statement.iterate(parameters);
      },
    };
  };

  return {
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (statement) {
        statements.delete(sql);
      } else {
        statement = wrap(sql, sqlite.prepare(sql));
        if (statements.size >= statementLimit) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      return statement;
    },
    recall(sql, parameters) {
      return sqlite.inTransaction ? undefined : pointReads.recall(sql, parameters);
    },
    close() {
      statements.clear();
      pointReads.clear();
      sqlite.close();
    },
  };
}

type Parameter = string | number | null;

class PointReadCache {
  readonly #dataVersion: Statement<[], number>;
  #version: number;
  #versionChecked = false;
  /** By SQL and parameters (cacheKey), oldest first. */
  readonly #entries = new Map<string, { rows: unknown[]; characters: number }>();
  #characters = 0;

  constructor(
    sqlite: SqliteDatabase,
    readonly limit: number,
    readonly characterLimit: number,
  ) {
    this.#dataVersion = sqlite.prepare<[], number>('PRAGMA data_version').pluck();
    this.#version = this.#dataVersion.get()!;
  }

  read(sql: string, parameters: readonly unknown[], query: () => unknown[]): unknown[] {
    const key = cacheKey(sql, parameters);
    if (key === undefined) return query();
    const cached = this.#cached(key);
    if (cached) return cached;
    const rows = query();
    if (rows.length > 1) return rows;
    // Frozen whether kept or not, so that no caller can come to depend on which.
    for (const row of rows) Object.freeze(row);
    Object.freeze(rows);
    this.#remember(key, rows);
    return rows;
  }

  recall(sql: string, parameters: readonly unknown[]): unknown[] | undefined {
    const key = cacheKey(sql, parameters);
    return key === undefined ? undefined : this.#cached(key);
  }

  #cached(key: string): unknown[] | undefined {
    if (!this.#versionChecked) this.#checkVersion();
    return this.#entries.get(key)?.rows;
  }

  #checkVersion(): void {
    const version = this.#dataVersion.get()!;
    if (version !== this.#version) {
      this.clear();
      this.#version = version;
    }
    this.#versionChecked = true;
    atEndOfTurn(() => (this.#versionChecked = false));
  }

  clear(): void {
    if (this.#entries.size === 0) return;
    this.#entries.clear();
    this.#characters = 0;
  }

  #remember(key: string, rows: unknown[]): void {
    let characters = key.length;
    for (const row of rows) {
      for (const value of Object.values(row as Record<string, unknown>)) {
        if (typeof value === 'string') characters += value.length;
      }
    }
    // One huge row (a run with megabytes of results) would push out everything else.
    if (characters > this.characterLimit / 16) return;
    this.#entries.set(key, { rows, characters });
    this.#characters += characters;
    for (const [oldest, entry] of this.#entries) {
      if (this.#entries.size <= this.limit && this.#characters <= this.characterLimit) break;
      this.#entries.delete(oldest);
      this.#characters -= entry.characters;
    }
  }
}

/**
 * SQL and parameters as one string, or undefined when a parameter is not text, a number
 * or null. Each text carries its length, so no two lists of values (a value can hold any
 * character, NUL included: it may come from a URL) ever make the same key.
 */
function cacheKey(sql: string, parameters: readonly unknown[]): string | undefined {
  let key = sql;
  for (const parameter of parameters as readonly Parameter[]) {
    if (typeof parameter === 'string') key += `\u0000s${parameter.length}:${parameter}`;
    else if (typeof parameter === 'number') key += `\u0000n${parameter}`;
    else if (parameter === null) key += '\u0000z';
    else return undefined;
  }
  return key;
}
