import { sql, type RawBuilder } from 'kysely';

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * A case-insensitive substring match that means the same on SQLite and PostgreSQL: LIKE
 * is case-insensitive on one and not the other, and only an explicit ESCAPE makes `%` and
 * `_` in the value literal on both.
 */
export function containsText(column: string, value: string): RawBuilder<boolean> {
  return sql<boolean>`lower(${sql.ref(column)}) like ${`%${escapeLike(value.toLowerCase())}%`} escape '\\'`;
}
