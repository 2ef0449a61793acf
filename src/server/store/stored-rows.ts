/**
 * What is computed from a row the store hands out, kept as long as the row is.
 *
 * The rows of the SQLite store's point-read cache (sqlite-connection.ts) are shared by
 * every caller until the database changes, and handed out frozen: they cannot change, so
 * whatever is computed from one alone is computed once. The result is frozen in turn, so
 * that what is computed from it (a run's wire form, then its representations) is kept as
 * well: a client polling a run is answered from the same bytes until the run changes.
 * Anything else (a row of PostgreSQL, of a list, of a transaction) is computed every time.
 */
export function oncePerStoredRow<Row extends object, Args extends unknown[], Result extends object>(
  compute: (row: Row, ...args: Args) => Result,
): (row: Row, ...args: Args) => Result {
  const results = new WeakMap<Row, Result>();
  return (row, ...args) => {
    // Frozen is how the store says a row is shared and can never change.
    if (!Object.isFrozen(row)) return compute(row, ...args);
    let result = results.get(row);
    if (!result) {
      result = Object.freeze(compute(row, ...args));
      results.set(row, result);
    }
    return result;
  };
}
