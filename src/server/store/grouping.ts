/**
 * Rows of many parents read in one query, then handed to each parent: what lists of
 * buckets and extractors show of their runs and files, without a query per item.
 */

/** `rows` grouped by `parentOf`, with an empty group for each of `parents` that has none. */
export function groupByParent<Row, Value>(
  parents: readonly string[],
  rows: readonly Row[],
  parentOf: (row: Row) => string,
  valueOf: (row: Row) => Value,
): Map<string, Value[]> {
  const groups = new Map<string, Value[]>(parents.map((id) => [id, []]));
  for (const row of rows) groups.get(parentOf(row))?.push(valueOf(row));
  return groups;
}
