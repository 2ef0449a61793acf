/**
 * Lists are read a page at a time, newest first (ties broken by id, which is a UUIDv7 and
 * so grows with time), with the count of every row on all pages beside it. REST, GraphQL
 * and the hosted pages page the same way through here.
 */
import type { Selectable, SelectQueryBuilder } from 'kysely';
import type { Database } from './schema.js';

export const itemsPerPage = 30;

/** Which rows a page holds: the page number (from 1), and the offset and limit it stands for. */
export interface PageWindow {
  page: number;
  offset: number;
  limit: number;
}

export function pageWindow(page: number): PageWindow {
  return { page, offset: (page - 1) * itemsPerPage, limit: itemsPerPage };
}

export interface PageOfRows<Row> {
  rows: Row[];
  /** How many rows there are on all pages. */
  total: number;
}

/** The tables listed newest first: each has `created_at` and an `id`. */
type ListedTable = 'buckets' | 'extractors' | 'runs';

/** One page of what `query` selects, newest first, and the count of all of it. */
export async function newestFirst<Table extends ListedTable>(
  query: SelectQueryBuilder<Database, Table, object>,
  window: Pick<PageWindow, 'offset' | 'limit'>,
): Promise<PageOfRows<Selectable<Database[Table]>>> {
  // Kysely cannot see through the generic table that these columns exist on each.
  const listed = query as unknown as SelectQueryBuilder<Database, ListedTable, object>;
  const [rows, count] = await Promise.all([
    listed
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(window.offset)
      .limit(window.limit)
      .execute(),
    listed.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as Selectable<Database[Table]>[], total: Number(count.total) };
}
