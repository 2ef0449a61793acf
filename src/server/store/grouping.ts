/**
 * Rows of many parents read in one query, then handed to each parent: what lists of
 * buckets and extractors show of their runs and files, without a query per item.
 */

/**
 * The rows `read` finds for `parents` (one query for all; none when there are no
 * parents), grouped by `parentOf`, with an empty group for each parent that has none.
 */
export async function readByParent<Row, Value>(
  parents: readonly string[],
  read: (parents: readonly string[]) => Promise<Row[]>,
  parentOf: (row: Row) => string,
  valueOf: (row: Row) => Value,
): Promise<Map<string, Value[]>> {
  const groups = new Map<string, Value[]>(parents.map((id) => [id, []]));
  if (parents.length === 0) return groups;
  for (const row of await read(parents)) groups.get(parentOf(row))?.push(valueOf(row));
  return groups;
}
