import { describe, expect, it } from 'vitest';
import { openSqliteStore } from './database.js';
import { oncePerStoredRow } from './stored-rows.js';

describe('oncePerStoredRow', () => {
  it('computes once for a row the store shares, and every time for one that may change', () => {
    let computed = 0;
    const describeRow = oncePerStoredRow((row: { id: string }, prefix: string) => ({
      label: `${prefix}${row.id}`,
      n: ++computed,
    }));
    const shared = Object.freeze({ id: 'a' });
    const first = describeRow(shared, '#');
    expect(first).toEqual({ label: '#a', n: 1 });
    // Kept with the row: the second call's arguments are not even looked at.
    expect(describeRow(shared, '?')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);

    const open = { id: 'b' };
    expect(describeRow(open, '#')).toEqual({ label: '#b', n: 2 });
    open.id = 'c';
    expect(describeRow(open, '#')).toEqual({ label: '#c', n: 3 });
  });

  it('keeps what is computed from what it computed, and from the SQLite store’s point reads', async () => {
    const store = await openSqliteStore(':memory:');
    try {
      await store.db.insertInto('buckets').values(bucket('one')).execute();
      const read = () =>
        store.db
          .selectFrom('buckets')
          .selectAll()
          .where('id', '=', 'one')
          .executeTakeFirstOrThrow();
      const wire = oncePerStoredRow((row: { id: string }) => ({ name: `bucket ${row.id}` }));
      const bytes = oncePerStoredRow((object: { name: string }) => ({ text: object.name }));
      const first = bytes(wire(await read()));
      expect(bytes(wire(await read()))).toBe(first);
      await store.db.updateTable('buckets').set({ description: 'changed' }).execute();
      expect(bytes(wire(await read()))).not.toBe(first);
    } finally {
      await store.close();
    }
  });
});

function bucket(id: string) {
  const now = new Date().toISOString();
  return {
    id,
    description: null,
    created_using: 'api',
    created_at: now,
    updated_at: now,
    deleted_at: null,
  } as const;
}
