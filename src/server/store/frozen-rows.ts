/**
 * Rows the store hands out frozen (the point-read cache of sqlite-connection.ts shares
 * them between callers) cannot change, so whatever is computed from one alone can be
 * computed once and kept as long as the row is. A client polling a run is answered from
 * the same row until the run changes, and its wire form and representation with it.
 */
export function oncePerFrozenRow<Row extends object, Result extends object>(
  compute: (row: Row) => Result,
): (row: Row) => Result {
  const results = new WeakMap<Row, Result>();
  return (row) => {
    if (!Object.isFrozen(row)) return compute(row);
    let result = results.get(row);
    if (!result) {
      result = Object.freeze(compute(row));
      results.set(row, result);
    }
    return result;
  };
}
