/**
 * What the store promises on either dialect, checked on the one this project runs (SQLite in
 * `server`, PostgreSQL in `server-postgres`): the same types back, text that PostgreSQL
 * cannot hold, and several connections (processes) on one database seeing each other's
 * commits, with exactly one winner of a conditional update.
 */
import { Migrator } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createBucket } from '../buckets/buckets.js';
import { loadConfig } from '../config.js';
import { demoExtractor } from '../extractors/demo.js';
import { createExtractor } from '../extractors/extractors.js';
import { documentsOfRun } from '../runs/documents.js';
import { findRun, listRuns } from '../runs/runs.js';
import { insertRunRow } from '../testing/fixtures.js';
import {
  testDialect,
  testStoreLocation,
  type TestStoreLocation,
} from '../testing/test-database.js';
import {
  createPersonalToken,
  createSessionToken,
  revokeToken,
  verifyToken,
} from '../tokens/tokens.js';
import type { Store } from './database.js';
import { migrationProvider } from './migrations.js';
import { newId, nowIso } from './ids.js';
import { pageWindow } from './paging.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function location(): Promise<TestStoreLocation> {
  const opened = await testStoreLocation('extractor-store-');
  cleanups.push(() => opened.dispose());
  return opened;
}

async function open(where: TestStoreLocation): Promise<Store> {
  const store = await where.open();
  cleanups.push(() => store.close());
  return store;
}

/** A bucket and an extractor, as the service makes them. */
async function bucketAndExtractor(store: Store) {
  const bucket = await createBucket(store.db, {}, 'api');
  const { row: extractor } = await createExtractor(store.db, demoExtractor, loadConfig({}));
  return { bucketId: bucket.id, extractorId: extractor.id };
}

/** The next turn of the event loop: where the next request would be read. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe(`the store on ${testDialect()}`, () => {
  it('opens on the dialect the project runs, migrating once however often it is opened', async () => {
    const where = await location();
    const first = await open(where);
    expect(first.dialect).toBe(testDialect());
    await bucketAndExtractor(first);
    // A second process starting on the same database finds the migrations done.
    const second = await open(where);
    expect(await second.db.selectFrom('buckets').select('id').execute()).toHaveLength(1);
  });

  it('hands out sizes, counts, event ids and token totals as numbers', async () => {
    const store = await open(await location());
    const { bucketId, extractorId } = await bucketAndExtractor(store);
    const big = 2 ** 40;
    await store.db
      .insertInto('files')
      .values({
        id: newId(),
        bucket_id: bucketId,
        name: 'big.pdf',
        size: big,
        media_type: 'application/pdf',
        sha256: '0'.repeat(64),
        created_at: nowIso(),
      })
      .execute();
    const run = await insertRunRow(store.db, {
      bucketId,
      extractorId,
      total_input_tokens: 3_000_000_000,
    });
    await store.db
      .insertInto('run_events')
      .values({ run_id: run.id, type: 'extraction_run.started', data: '{}', created_at: nowIso() })
      .execute();

    const file = await store.db.selectFrom('files').select('size').executeTakeFirstOrThrow();
    expect(file.size).toBe(big);
    const event = await store.db.selectFrom('run_events').select('id').executeTakeFirstOrThrow();
    expect(typeof event.id).toBe('number');
    expect((await findRun(store.db, run.id))?.total_input_tokens).toBe(3_000_000_000);
    const { total } = await listRuns(store.db, {}, pageWindow(1));
    expect(total).toBe(1);
  });

  it('keeps text with a NUL character and finds nothing by one, never failing', async () => {
    const store = await open(await location());
    const { bucketId, extractorId } = await bucketAndExtractor(store);
    await store.db
      .updateTable('buckets')
      .set({ description: 'before\u0000after' })
      .where('id', '=', bucketId)
      .execute();
    const { description } = await store.db
      .selectFrom('buckets')
      .select('description')
      .executeTakeFirstOrThrow();
    // PostgreSQL's text cannot hold U+0000: it keeps the replacement character instead.
    expect(description).toBe(
      testDialect() === 'postgres' ? 'before\ufffdafter' : 'before\u0000after',
    );

    await insertRunRow(store.db, { bucketId, extractorId, error: 'the model said no' });
    expect(await findRun(store.db, `${newId()}\u0000`)).toBeUndefined();
    const filtered = await listRuns(store.db, { error: 'said\u0000' }, pageWindow(1));
    expect(filtered).toEqual({ rows: [], total: 0 });
  });

  it('shows each connection what another committed: no row is served from a stale cache', async () => {
    const where = await location();
    const serving = await open(where);
    const other = await open(where);
    const { bucketId, extractorId } = await bucketAndExtractor(serving);
    const { id, token } = await createPersonalToken(serving.db, 'two processes');
    const run = await insertRunRow(serving.db, { bucketId, extractorId });

    // Read once through the serving connection, so that whatever it caches holds these rows.
    expect((await verifyToken(serving.db, token)).ok).toBe(true);
    expect((await findRun(serving.db, run.id))?.status).toBe('queued');

    // Another process changes both; the next request (in a later turn) must see it.
    expect(await revokeToken(other.db, id)).toBe(true);
    await other.db
      .updateTable('runs')
      .set({ status: 'running' })
      .where('id', '=', run.id)
      .execute();
    await nextTurn();
    expect(await verifyToken(serving.db, token)).toEqual({
      ok: false,
      reason: 'The access token has been revoked.',
    });
    expect((await findRun(serving.db, run.id))?.status).toBe('running');
  });

  it('lets exactly one of several connections win a conditional update of the same row', async () => {
    const where = await location();
    const stores = [await open(where), await open(where), await open(where)];
    const { bucketId, extractorId } = await bucketAndExtractor(stores[0]!);
    const run = await insertRunRow(stores[0]!.db, { bucketId, extractorId });

    // The claim the worker makes: queued → running, only if still queued. (One statement:
    // SQLite connections in one process cannot interleave transactions, as processes do.)
    const claims = await Promise.all(
      stores.flatMap((store, index) =>
        [0, 1].map((attempt) =>
          store.db
            .updateTable('runs')
            .set({ status: 'running', lease_owner: `worker-${index}-${attempt}` })
            .where('id', '=', run.id)
            .where('status', '=', 'queued')
            .returningAll()
            .executeTakeFirst(),
        ),
      ),
    );
    const winners = claims.filter((claim) => claim !== undefined);
    expect(winners).toHaveLength(1);
    expect((await findRun(stores[1]!.db, run.id))?.lease_owner).toBe(winners[0]!.lease_owner);
  });
});

describe(`the store on ${testDialect()}: migrations`, () => {
  it('adds the drafts column without touching edits saved before it (a migration reads no domain code)', async () => {
    const where = await location();
    const store = await open(where);
    const { bucketId, extractorId } = await bucketAndExtractor(store);
    const run = await insertRunRow(store.db, {
      bucketId,
      extractorId,
      status: 'completed',
      documents: [{ data: { invoice_number: 'A', total: 2 }, edited: { invoice_number: 7 } }],
    });
    // Back to before drafts (an edit then was a record, valid or not), and up again.
    const migrator = new Migrator({ db: store.db, provider: migrationProvider(store.dialect) });
    expect((await migrator.migrateTo('0010_previous_webhook_secret')).error).toBeUndefined();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    const migrated = (await findRun((await open(where)).db, run.id))!;
    expect(migrated.draft_result_json).toBeNull();
    expect(migrated.edited_result_json).toBe(run.edited_result_json);
  });

  it('turns the runs made before documents into runs of one document holding all their files', async () => {
    const where = await location();
    const store = await open(where);
    const { bucketId, extractorId } = await bucketAndExtractor(store);
    const fileIds = [newId(), newId()];
    for (const [index, id] of fileIds.entries()) {
      await store.db
        .insertInto('files')
        .values({
          id,
          bucket_id: bucketId,
          name: `page-${index + 1}.png`,
          size: 10,
          media_type: 'image/png',
          sha256: '0'.repeat(64),
          created_at: nowIso(),
        })
        .execute();
    }
    const run = await insertRunRow(store.db, { bucketId, extractorId });
    // Back to the schema before documents, and a run as it was written then.
    const migrator = new Migrator({ db: store.db, provider: migrationProvider(store.dialect) });
    expect((await migrator.migrateTo('0001_initial')).error).toBeUndefined();
    const sources = {
      '/invoice_number': { file: 'page-1.png', fileId: fileIds[0], page: 1, offset: 0, text: 'A' },
    };
    await store.db
      .updateTable('runs')
      .set({
        status: 'completed',
        file_ids: JSON.stringify(fileIds),
        result_json: '{"invoice_number":"A"}',
        edited_result_json: '{"invoice_number":"B"}',
        partial_result_json: '{"invoice_number":"A"}',
        result_metadata: JSON.stringify({ sources, violations: [] }),
        token_stats: JSON.stringify({
          chunks: [{ chunk: 0, inputTokens: 5, outputTokens: 2 }],
          totalInputTokens: 5,
          totalOutputTokens: 2,
        }),
        total_input_tokens: 5,
        total_output_tokens: 2,
        chunks_completed: 1,
        chunks_total: 1,
      })
      .where('id', '=', run.id)
      .execute();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    const migrated = (await findRun((await open(where)).db, run.id))!;
    expect(migrated.combine_files).toBe(1);
    const files = fileIds.map((id) => `/api/buckets/${bucketId}/files/${id}`);
    const document = { file: files[0], files, name: 'page-1.png, page-2.png', status: 'completed' };
    expect(JSON.parse(migrated.documents)).toEqual([
      // Its pages were not counted then (issue 14 counts them as they are read).
      {
        ...document,
        error: null,
        errorCode: null,
        stage: null,
        pagesRead: 0,
        pagesTotal: null,
        chunksCompleted: 1,
        chunksTotal: 1,
      },
    ]);
    expect(JSON.parse(migrated.result_json!)).toEqual({
      documents: [{ ...document, data: { invoice_number: 'A' }, error: null }],
    });
    expect(JSON.parse(migrated.edited_result_json!)).toEqual({
      documents: [{ ...document, data: { invoice_number: 'B' }, error: null }],
    });
    expect(JSON.parse(migrated.result_metadata!)).toEqual({
      documents: [{ file: files[0], sources, violations: [] }],
    });
    expect(JSON.parse(migrated.token_stats!)).toMatchObject({
      totalInputTokens: 5,
      documents: [{ file: files[0], totalInputTokens: 5, totalOutputTokens: 2 }],
    });
    const rows = await store.db.selectFrom('run_documents').selectAll().execute();
    expect(rows.map((row) => [row.run_id, row.file_id, row.status])).toEqual([
      [run.id, fileIds[0], 'completed'],
    ]);
  });
});

describe(`the store on ${testDialect()}: migrations of failed documents and session tokens`, () => {
  it('keeps the words of a document that failed before errors had codes, and gives it none', async () => {
    const where = await location();
    const store = await open(where);
    const { bucketId, extractorId } = await bucketAndExtractor(store);
    const error = 'scan.pdf could not be read as a PDF; it may be damaged';
    const run = await insertRunRow(store.db, {
      bucketId,
      extractorId,
      status: 'failed',
      error,
      documents: [{ name: 'scan.pdf', status: 'failed', error }],
    });
    // Back to the schema before codes, with the run's documents as they were written then.
    const migrator = new Migrator({ db: store.db, provider: migrationProvider(store.dialect) });
    expect((await migrator.migrateTo('0007_session_language')).error).toBeUndefined();
    const written = (JSON.parse(run.documents) as Record<string, unknown>[]).map(
      ({ errorCode: _code, ...document }) => document,
    );
    await store.db
      .updateTable('runs')
      .set({ documents: JSON.stringify(written) })
      .where('id', '=', run.id)
      .execute();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    const document = await store.db.selectFrom('run_documents').selectAll().executeTakeFirst();
    expect(document).toMatchObject({ status: 'failed', error, error_code: null });
    const migrated = (await findRun((await open(where)).db, run.id))!;
    expect(documentsOfRun(migrated)).toMatchObject([
      { name: 'scan.pdf', status: 'failed', error, errorCode: null },
    ]);
  });

  it('makes each session token from before sessions were recorded a session of its own', async () => {
    const store = await open(await location());
    const { bucketId, extractorId } = await bucketAndExtractor(store);
    const grant = {
      extractorId,
      bucketId,
      ttlSeconds: 600,
      renewableUntil: new Date(Date.now() + 3_600_000).toISOString(),
      allowedOrigins: [],
      theme: null,
      locale: null,
      strings: {},
      colorScheme: 'light' as const,
    };
    const sessions = [
      await createSessionToken(store.db, grant),
      await createSessionToken(store.db, grant),
    ];
    const personal = await createPersonalToken(store.db, 'partner');
    const migrator = new Migrator({ db: store.db, provider: migrationProvider(store.dialect) });
    expect((await migrator.migrateTo('0008_document_error_codes')).error).toBeUndefined();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    const rows = await store.db.selectFrom('tokens').select(['id', 'session_id']).execute();
    expect(rows.find((row) => row.id === personal.id)?.session_id).toBeNull();
    for (const session of sessions)
      expect(rows.find((row) => row.id === session.id)?.session_id).toBe(session.id);
    expect(await revokeToken(store.db, sessions[0]!.id, 'session')).toBe(true);
    expect((await verifyToken(store.db, sessions[0]!.token)).ok).toBe(false);
    expect((await verifyToken(store.db, sessions[1]!.token)).ok).toBe(true);
    expect((await verifyToken(store.db, personal.token)).ok).toBe(true);
  });
});
