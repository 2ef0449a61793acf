/**
 * Queries built and compiled once, then run with new values. Kysely builds a tree and
 * compiles it to SQL on every call, which on the hottest reads (the token check of every
 * request, a client polling its run) cost more than answering them from the store's
 * point-read cache. The query is still written with Kysely, so it still compiles for
 * whichever dialect the store speaks. Where the store has the rows in its point-read cache
 * (`Db.recall`), they are taken from there without a round through Kysely's executor (a
 * connection from its pool, several promises): on the hottest reads that round cost as
 * much as the rest of the read.
 */
import type { CompiledQuery, Compilable } from 'kysely';
import type { Db } from './database.js';

/** Stands for a value while the query is built; no query holds a constant like it. */
const placeholder = (name: string) => `\u0000prepared-query:${name}\u0000`;

export function preparedQuery<Values extends Record<string, string>, Row>(
  build: (db: Db, values: Values) => Compilable<Row>,
  names: readonly (keyof Values & string)[],
): (db: Db, values: Values) => Promise<Row[]> {
  const compiled = new WeakMap<
    Db,
    { query: CompiledQuery<Row>; parameters: ((values: Values) => unknown)[] }
  >();
  const compile = (db: Db) => {
    const byName = Object.fromEntries(names.map((name) => [name, placeholder(name)]));
    const query = build(db, byName as Values).compile();
    const parameters = query.parameters.map((parameter) => {
      const name = names.find((candidate) => parameter === placeholder(candidate));
      return name === undefined ? () => parameter : (values: Values) => values[name];
    });
    if (names.some((name) => !query.parameters.includes(placeholder(name))))
      throw new Error(`A prepared query does not use all of ${names.join(', ')}.`);
    const entry = { query, parameters };
    compiled.set(db, entry);
    return entry;
  };
  return async (db, values) => {
    const { query, parameters } = compiled.get(db) ?? compile(db);
    const bound = parameters.map((parameter) => parameter(values));
    const recalled = db.recall?.(query.sql, bound);
    if (recalled) return recalled as Row[];
    const result = await db.executeQuery<Row>({ ...query, parameters: bound });
    return result.rows;
  };
}
