import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { webhookPayloadSchema, type WebhookEventType } from '../../contract/events.js';
import { createBucket } from '../buckets/buckets.js';
import { loadConfig, projectRoot, type Config } from '../config.js';
import { demoExtractor } from '../extractors/demo.js';
import {
  createExtractor,
  rotateWebhookSecret,
  webhookSecretOverlapHours,
  type ExtractorRow,
} from '../extractors/extractors.js';
import type { RunRow } from '../runs/runs.js';
import type { Db, Store } from '../store/database.js';
import { nowIso } from '../store/ids.js';
import { partnerGuideParts, partnerGuideSource } from '../../tools/docs/partner-guide.js';
import { insertRunRow, type DocumentSeed } from '../testing/fixtures.js';
import { testStoreLocation } from '../testing/test-database.js';
import { startWebhookDispatcher, type WebhookDispatcher } from './dispatcher.js';
import { enqueueWebhook } from './outbox.js';

const silent = pino({ level: 'silent' });

/**
 * Standard Webhooks verification written out from the specification, independently of
 * signature.ts: HMAC-SHA256 of `{id}.{timestamp}.{body}` under the base64 key after `whsec_`,
 * compared in constant time with each `v1,` entry; timestamps older than five minutes fail.
 */
function verifiesAsStandardWebhook(
  secret: string,
  headers: IncomingHttpHeaders,
  body: string,
): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string')
    return false;
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300)
    return false;
  const key = Buffer.from(secret.split('_')[1] ?? '', 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on loopback whose answer to each request the test decides. */
class Receiver {
  readonly received: Received[] = [];
  answer: (request: Received, index: number) => number | 'hang' = () => 204;
  port = 0;
  private server: Server | undefined;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks/extractor`;
  }

  async start(): Promise<void> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const entry = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
        this.received.push(entry);
        const answer = this.answer(entry, this.received.length - 1);
        if (answer !== 'hang') response.writeHead(answer).end(answer >= 300 ? 'not now' : '');
      });
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
  }

  /**
   * Stops listening at once, so later connections are refused; `graceful` lets the request
   * being answered finish first.
   */
  async stop(options: { graceful?: boolean } = {}): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    if (!options.graceful) server.closeAllConnections();
    await closed;
  }
}

async function until<T>(
  probe: () => Promise<T> | T,
  what: string,
  timeoutMs = 10_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Fixture {
  config: Config;
  store: Store;
  /** Opens the same store again: another process's connection to it. */
  reopen(): Promise<Store>;
}

/** A store of its own; retries run a thousand times faster than in service. */
async function openFixture(env: Record<string, string> = {}): Promise<Fixture> {
  const location = await testStoreLocation('extractor-webhooks-');
  cleanups.push(() => location.dispose());
  const config = loadConfig({
    ...location.env,
    WEBHOOK_ALLOW_PRIVATE: '1',
    WEBHOOK_RETRY_SCALE: '0.001',
    WEBHOOK_TIMEOUT_MS: '2000',
    WORKER_POLL_MS: '200',
    ...env,
  });
  const reopen = async () => {
    const store = await location.open();
    cleanups.push(() => store.close());
    return store;
  };
  return { config, store: await reopen(), reopen };
}

function startDispatcher(db: Db, config: Config): WebhookDispatcher {
  const dispatcher = startWebhookDispatcher({ db, config, logger: silent });
  cleanups.push(() => dispatcher.stop());
  return dispatcher;
}

async function startReceiver(): Promise<Receiver> {
  const receiver = new Receiver();
  await receiver.start();
  cleanups.push(() => receiver.stop());
  return receiver;
}

async function webhookExtractor(
  db: Db,
  config: Config,
  webhookUrl: string,
  enableWebhook = true,
): Promise<ExtractorRow> {
  const { row } = await createExtractor(
    db,
    { ...demoExtractor, enableWebhook, webhookUrl, redirectUrl: 'https://example.com/thanks' },
    config,
  );
  return row;
}

/** A store of its own, a receiver, and an extractor whose webhooks go to it. */
async function receivingFixture(): Promise<
  Fixture & { receiver: Receiver; extractor: ExtractorRow }
> {
  const fixture = await openFixture();
  const receiver = await startReceiver();
  const extractor = await webhookExtractor(fixture.store.db, fixture.config, receiver.url);
  return { ...fixture, receiver, extractor };
}

async function insertRun(
  db: Db,
  extractor: ExtractorRow,
  fields: Omit<Partial<RunRow>, 'documents'> & { documents?: DocumentSeed[] } = {},
): Promise<RunRow> {
  const bucket = await createBucket(db, {}, 'api');
  return insertRunRow(db, {
    bucketId: bucket.id,
    extractorId: extractor.id,
    status: 'running',
    strategy: extractor.strategy,
    model: extractor.model,
    target_schema: extractor.json_schema,
    output_instructions: extractor.output_instructions,
    chunks_total: 3,
    started_at: nowIso(),
    ...fields,
  });
}

async function currentSecret(db: Db, extractorId: string): Promise<string> {
  const row = await db
    .selectFrom('extractors')
    .select('webhook_secret')
    .where('id', '=', extractorId)
    .executeTakeFirstOrThrow();
  return row.webhook_secret;
}

/** The Standard Webhooks headers of a request, as the standardwebhooks package reads them. */
function standardHeaders(entry: Received): Record<string, string> {
  return Object.fromEntries(
    ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [
      name,
      String(entry.headers[name]),
    ]),
  );
}

function deliveries(db: Db) {
  return db.selectFrom('webhook_deliveries').selectAll().orderBy('id').execute();
}

function typeOf(entry: Received): WebhookEventType {
  return webhookPayloadSchema.parse(JSON.parse(entry.body)).type;
}

describe('webhook outbox', () => {
  it('adds nothing when the extractor has webhooks off, or for stream-only events', async () => {
    const { config, store } = await openFixture();
    const receiver = await startReceiver();
    const off = await webhookExtractor(store.db, config, receiver.url, false);
    const on = await webhookExtractor(store.db, config, receiver.url);
    const offRun = await insertRun(store.db, off);
    const onRun = await insertRun(store.db, on);

    await enqueueWebhook(store.db, { type: 'extraction_run.started', extractor: off, run: offRun });
    const streamOnly = 'extraction_run.resumed' as WebhookEventType;
    await enqueueWebhook(store.db, { type: streamOnly, extractor: on, run: onRun });

    expect(await deliveries(store.db)).toEqual([]);
  });

  it('stores a delivery only when the transaction that made it commits', async () => {
    const { config, store } = await openFixture();
    const extractor = await webhookExtractor(store.db, config, 'http://127.0.0.1:9/hook');
    const run = await insertRun(store.db, extractor);

    await expect(
      store.db.transaction().execute(async (trx) => {
        await enqueueWebhook(trx, { type: 'extraction_run.started', extractor, run });
        throw new Error('the transition failed');
      }),
    ).rejects.toThrow('the transition failed');
    expect(await deliveries(store.db)).toEqual([]);

    await store.db
      .transaction()
      .execute((trx) => enqueueWebhook(trx, { type: 'extraction_run.started', extractor, run }));
    expect(await deliveries(store.db)).toMatchObject([
      { status: 'pending', attempts: 0, run_id: run.id },
    ]);
  });
});

describe('webhook dispatcher', () => {
  it('POSTs the event signed with the extractor’s current secret, as Standard Webhooks says', async () => {
    const { config, store, receiver, extractor } = await receivingFixture();
    const run = await insertRun(store.db, extractor, {
      status: 'completed',
      documents: [
        {
          name: 'a.pdf',
          data: { invoice_number: 'A-1' },
          edited: { invoice_number: 'A-1 (checked)' },
        },
      ],
      chunks_completed: 3,
      submitted_at: nowIso(),
    });
    const [document] = JSON.parse(run.documents) as { file: string }[];
    await enqueueWebhook(store.db, { type: 'extraction_run.completed', extractor, run });
    await enqueueWebhook(store.db, { type: 'extraction_run.submitted', extractor, run });
    const secret = await currentSecret(store.db, extractor.id);

    startDispatcher(store.db, config);
    await until(() => receiver.received.length >= 2, 'two deliveries');

    const [completed, submitted] = receiver.received as [Received, Received];
    for (const entry of [completed, submitted]) {
      expect(verifiesAsStandardWebhook(secret, entry.headers, entry.body)).toBe(true);
      expect(entry.headers['webhook-signature']).not.toContain(' ');
      expect(
        verifiesAsStandardWebhook(secret, entry.headers, entry.body.replace('A-1', 'A-2')),
      ).toBe(false);
      expect(entry.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(entry.headers['content-type']).toBe('application/json');
      expect(entry.headers['user-agent']).toMatch(/^Extractor-Webhooks\//);
    }
    expect(completed.headers['webhook-id']).not.toBe(submitted.headers['webhook-id']);
    expect(JSON.parse(completed.body)).toEqual({
      type: 'extraction_run.completed',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      data: {
        run: `/api/runs/${run.id}`,
        status: 'completed',
        chunksCompleted: 3,
        chunksTotal: 3,
        partialResultJson: run.partial_result_json,
        error: null,
        documents: [
          {
            file: document!.file,
            name: 'a.pdf',
            status: 'completed',
            error: null,
            errorCode: null,
            stage: null,
            pagesRead: 0,
            pagesTotal: null,
            chunksCompleted: 1,
            chunksTotal: 1,
          },
        ],
        bucket: `/api/buckets/${run.bucket_id}`,
        savedExtractor: `/api/extractors/${extractor.id}`,
        resultJson: JSON.stringify({
          documents: [
            {
              file: document!.file,
              name: 'a.pdf',
              status: 'completed',
              data: { invoice_number: 'A-1 (checked)' },
              error: null,
            },
          ],
        }),
      },
    });
    expect(JSON.parse(submitted.body)).toMatchObject({
      type: 'extraction_run.submitted',
      data: { redirectUrl: 'https://example.com/thanks' },
    });
    await until(
      async () => (await deliveries(store.db)).every((row) => row.status === 'delivered'),
      'rows marked delivered',
    );
  });

  it('signs with the old secret beside the new one for a day after a rotation, including deliveries queued before it', async () => {
    const { config, store, receiver, extractor } = await receivingFixture();
    const run = await insertRun(store.db, extractor, { status: 'completed' });
    const oldSecret = await currentSecret(store.db, extractor.id);
    // Queued before the rotation, sent after it: signed at send time, with both secrets.
    await enqueueWebhook(store.db, { type: 'extraction_run.completed', extractor, run });
    const rotatedAt = Date.now();
    const newSecret = await rotateWebhookSecret(store.db, extractor.id);
    expect(newSecret).toBe(await currentSecret(store.db, extractor.id));
    const dispatcher = startDispatcher(store.db, config);
    await until(() => receiver.received.length >= 1, 'a delivery during the overlap');

    // A receiver still on the old secret and one already on the new both accept it.
    const during = receiver.received[0]!;
    const signatures = String(during.headers['webhook-signature']).split(' ');
    expect(signatures).toHaveLength(2);
    for (const secret of [oldSecret, newSecret!]) {
      expect(new Webhook(secret).verify(during.body, standardHeaders(during))).toMatchObject({
        type: 'extraction_run.completed',
      });
    }
    const { previous_webhook_secret_until: overlapEnds } = await store.db
      .selectFrom('extractors')
      .select('previous_webhook_secret_until')
      .where('id', '=', extractor.id)
      .executeTakeFirstOrThrow();
    const overlapMs = Date.parse(overlapEnds!) - rotatedAt;
    expect(overlapMs).toBeGreaterThan(webhookSecretOverlapHours * 3_600_000 - 60_000);
    expect(overlapMs).toBeLessThanOrEqual(webhookSecretOverlapHours * 3_600_000 + 60_000);

    // Once the overlap has passed (moved into the past here), only the new secret signs.
    await store.db
      .updateTable('extractors')
      .set({ previous_webhook_secret_until: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', extractor.id)
      .execute();
    await enqueueWebhook(store.db, { type: 'extraction_run.submitted', extractor, run });
    dispatcher.kick();
    await until(() => receiver.received.length >= 2, 'a delivery after the overlap');
    const after = receiver.received[1]!;
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(new Webhook(newSecret!).verify(after.body, standardHeaders(after))).toMatchObject({
      type: 'extraction_run.submitted',
    });
    expect(() => new Webhook(oldSecret).verify(after.body, standardHeaders(after))).toThrow(
      WebhookVerificationError,
    );

    // A second rotation overlaps only the secret it replaces.
    const third = await rotateWebhookSecret(store.db, extractor.id);
    await enqueueWebhook(store.db, { type: 'extraction_run.submitted', extractor, run });
    dispatcher.kick();
    await until(() => receiver.received.length >= 3, 'a delivery after a second rotation');
    const last = receiver.received[2]!;
    for (const secret of [third!, newSecret!]) {
      expect(() => new Webhook(secret).verify(last.body, standardHeaders(last))).not.toThrow();
    }
    expect(() => new Webhook(oldSecret).verify(last.body, standardHeaders(last))).toThrow(
      WebhookVerificationError,
    );
  });
});

describe('webhook dispatcher retries, in order', () => {
  it('retries after a 500 and a refused connection with the same webhook-id until the receiver is back', async () => {
    const { config, store, receiver, extractor } = await receivingFixture();
    const run = await insertRun(store.db, extractor);
    receiver.answer = (_request, index) => {
      if (index > 0) return 204;
      // Stop listening before answering, so the next attempt finds nobody there.
      void receiver.stop({ graceful: true });
      return 500;
    };
    await enqueueWebhook(store.db, { type: 'extraction_run.started', extractor, run });

    startDispatcher(store.db, config);
    const refused = await until(async () => {
      const [row] = await deliveries(store.db);
      return row && /ECONNREFUSED/.test(row.last_error ?? '') ? row : undefined;
    }, 'a refused attempt');
    expect(refused).toMatchObject({ status: 'pending', last_status_code: null });
    expect(refused.attempts).toBeGreaterThanOrEqual(2);
    await receiver.start();
    await until(() => receiver.received.length >= 2, 'the retry that succeeds');

    const [failed, succeeded] = receiver.received as [Received, Received];
    expect(succeeded.headers['webhook-id']).toBe(failed.headers['webhook-id']);
    expect(succeeded.body).toBe(failed.body);
    const secret = await currentSecret(store.db, extractor.id);
    expect(verifiesAsStandardWebhook(secret, succeeded.headers, succeeded.body)).toBe(true);
    const [row] = await until(async () => {
      const rows = await deliveries(store.db);
      return rows[0]?.status === 'delivered' ? rows : undefined;
    }, 'the row marked delivered');
    expect(row).toMatchObject({
      id: failed.headers['webhook-id'],
      last_status_code: 204,
      last_error: null,
    });
    expect(row!.attempts).toBeGreaterThanOrEqual(3);
    expect(receiver.received).toHaveLength(2);
  });

  it('delivers the events made while the receiver was down, in order, once it is back', async () => {
    const { config, store } = await openFixture();
    const receiver = await startReceiver();
    await receiver.stop();
    const extractor = await webhookExtractor(store.db, config, receiver.url);
    const run = await insertRun(store.db, extractor);
    const dispatcher = startDispatcher(store.db, config);
    const types = [
      'extraction_run.started',
      'extraction_run.progress',
      'extraction_run.completed',
    ] as const;
    for (const type of types) {
      await enqueueWebhook(store.db, {
        type,
        extractor,
        run: { ...run, status: type === 'extraction_run.completed' ? 'completed' : 'running' },
      });
      dispatcher.kick();
    }

    await until(
      async () => (await deliveries(store.db))[0]?.last_error?.includes('ECONNREFUSED'),
      'a refused attempt',
    );
    // The later events wait behind the first, so they cannot overtake it.
    expect((await deliveries(store.db)).slice(1).map((row) => row.attempts)).toEqual([0, 0]);
    await receiver.start();
    await until(() => receiver.received.length >= 3, 'all three events');

    expect(receiver.received.map(typeOf)).toEqual(types);
    const secret = await currentSecret(store.db, extractor.id);
    expect(
      receiver.received.every((entry) =>
        verifiesAsStandardWebhook(secret, entry.headers, entry.body),
      ),
    ).toBe(true);
    const rows = await until(async () => {
      const all = await deliveries(store.db);
      return all.every((row) => row.status === 'delivered') ? all : undefined;
    }, 'all rows delivered');
    expect(receiver.received.map((entry) => entry.headers['webhook-id'])).toEqual(
      rows.map((row) => row.id),
    );
  });

  it('keeps a run’s order when processes’ clocks disagree about its deliveries’ ids', async () => {
    const { config, store, receiver, extractor } = await receivingFixture();
    const run = await insertRun(store.db, extractor);
    const types = [
      'extraction_run.started',
      'extraction_run.paused',
      'extraction_run.cancelled',
    ] as const;
    for (const type of types) await enqueueWebhook(store.db, { type, extractor, run });
    // Each later event written by a process whose clock is behind: ids in the reverse order.
    const rows = await deliveries(store.db);
    expect(rows.map((row) => row.run_sequence)).toEqual([1, 2, 3]);
    for (const [index, row] of rows.entries()) {
      await store.db
        .updateTable('webhook_deliveries')
        .set({ id: `msg_${String(9 - index).padStart(12, '0')}${row.id.slice(16)}` })
        .where('id', '=', row.id)
        .execute();
    }

    startDispatcher(store.db, config);
    await until(() => receiver.received.length >= 3, 'all three events');
    expect(receiver.received.map(typeOf)).toEqual(types);
  });
});

describe('webhook dispatcher across processes', () => {
  it('keeps pending deliveries across a restart and sends them from the next process', async () => {
    const first = await openFixture();
    const receiver = await startReceiver();
    let up = false;
    receiver.answer = () => (up ? 204 : 503);
    const extractor = await webhookExtractor(first.store.db, first.config, receiver.url);
    const run = await insertRun(first.store.db, extractor);
    await enqueueWebhook(first.store.db, { type: 'extraction_run.started', extractor, run });

    const before = startWebhookDispatcher({
      db: first.store.db,
      config: first.config,
      logger: silent,
    });
    await until(() => receiver.received.length >= 1, 'a failed attempt');
    await before.stop();
    // Made while no dispatcher runs, as if the process had died between the two events.
    await enqueueWebhook(first.store.db, {
      type: 'extraction_run.paused',
      extractor,
      run: { ...run, status: 'paused' },
    });
    await first.store.close();
    const attemptsBefore = receiver.received.length;
    const failedId = receiver.received[0]!.headers['webhook-id'];

    const store = await first.reopen();
    expect((await deliveries(store.db)).map((row) => row.status)).toEqual(['pending', 'pending']);
    up = true;
    startDispatcher(store.db, first.config);
    await until(
      () => receiver.received.length >= attemptsBefore + 2,
      'both events after the restart',
    );

    const after = receiver.received.slice(attemptsBefore);
    expect(after.map(typeOf)).toEqual(['extraction_run.started', 'extraction_run.paused']);
    expect(after[0]!.headers['webhook-id']).toBe(failedId);
    expect(
      new Set(
        receiver.received.slice(0, attemptsBefore).map((entry) => entry.headers['webhook-id']),
      ),
    ).toEqual(new Set([failedId]));
    await until(
      async () => (await deliveries(store.db)).every((row) => row.status === 'delivered'),
      'rows delivered',
    );
  });

  it('sends each delivery once when two dispatchers share the database', async () => {
    const { config, store, reopen } = await openFixture();
    const other = await reopen();
    const receiver = await startReceiver();
    const extractor = await webhookExtractor(store.db, config, receiver.url);
    for (let index = 0; index < 8; index++) {
      const run = await insertRun(store.db, extractor);
      await enqueueWebhook(store.db, { type: 'extraction_run.started', extractor, run });
    }

    const one = startWebhookDispatcher({ db: store.db, config, logger: silent });
    const two = startWebhookDispatcher({ db: other.db, config, logger: silent });
    await until(
      async () => (await deliveries(store.db)).every((row) => row.status === 'delivered'),
      'all delivered',
    );
    await Promise.all([one.stop(), two.stop()]);

    const ids = receiver.received.map((entry) => entry.headers['webhook-id']);
    expect(ids).toHaveLength(8);
    expect(new Set(ids).size).toBe(8);
  });

  it('gives up on a receiver that does not answer in time and tries again', async () => {
    const { config, store } = await openFixture({ WEBHOOK_TIMEOUT_MS: '300' });
    const receiver = await startReceiver();
    receiver.answer = (_request, index) => (index === 0 ? 'hang' : 200);
    const extractor = await webhookExtractor(store.db, config, receiver.url);
    const run = await insertRun(store.db, extractor);
    await enqueueWebhook(store.db, { type: 'extraction_run.started', extractor, run });

    startDispatcher(store.db, config);
    await until(
      async () => (await deliveries(store.db))[0]?.status === 'delivered',
      'the second attempt',
    );

    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers['webhook-id']).toBe(
      receiver.received[0]!.headers['webhook-id'],
    );
  });
});

describe('webhook dispatcher refusals', () => {
  it('refuses loopback addresses unless private addresses are allowed', async () => {
    const { config, store } = await openFixture();
    const receiver = await startReceiver();
    const byAddress = await webhookExtractor(store.db, config, receiver.url);
    const byName = await webhookExtractor(
      store.db,
      config,
      `http://localhost:${receiver.port}/hook`,
    );
    await enqueueWebhook(store.db, {
      type: 'extraction_run.started',
      extractor: byAddress,
      run: await insertRun(store.db, byAddress),
    });
    await enqueueWebhook(store.db, {
      type: 'extraction_run.started',
      extractor: byName,
      run: await insertRun(store.db, byName),
    });

    const strict: Config = { ...config, webhooks: { ...config.webhooks, allowPrivate: false } };
    startDispatcher(store.db, strict);
    const rows = await until(async () => {
      const all = await deliveries(store.db);
      return all.every((row) => row.attempts >= 1 && row.last_error) ? all : undefined;
    }, 'an attempt at each');

    for (const row of rows) {
      expect(row.status).toBe('pending');
      expect(row.last_error).toMatch(/must not point at a loopback, private or link-local address/);
    }
    expect(receiver.received).toEqual([]);
  });

  it('drops a delivery without sending it when the extractor turned its webhook off', async () => {
    const { config, store, receiver, extractor } = await receivingFixture();
    await enqueueWebhook(store.db, {
      type: 'extraction_run.started',
      extractor,
      run: await insertRun(store.db, extractor),
    });
    await store.db
      .updateTable('extractors')
      .set({ enable_webhook: 0 })
      .where('id', '=', extractor.id)
      .execute();

    startDispatcher(store.db, config);
    const [row] = await until(async () => {
      const all = await deliveries(store.db);
      return all[0]?.status === 'failed' ? all : undefined;
    }, 'the delivery given up');

    expect(row!.last_error).toMatch(/webhook turned off/);
    expect(receiver.received).toEqual([]);
  });
});

/**
 * The two `js` blocks of the partner guide's "Verifying webhooks" (docs/partners/guide.md),
 * as modules: written inside the project, so `standardwebhooks` resolves from its
 * node_modules as in a partner's project.
 */
async function importGuideVerifiers(): Promise<Record<string, unknown>[]> {
  const guide = await readFile(join(projectRoot, partnerGuideSource), 'utf8');
  const part = partnerGuideParts(guide).find(({ id }) => id === 'verifying-webhooks')!;
  const blocks = [...part.body.matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
  await mkdir(join(projectRoot, 'test-results'), { recursive: true });
  const folder = await mkdtemp(join(projectRoot, 'test-results', 'webhook-guide-'));
  cleanups.push(() => rm(folder, { recursive: true, force: true }));
  return Promise.all(
    blocks.map(async (code, index) => {
      const file = join(folder, `verify-${index}.mjs`);
      await writeFile(file, code);
      return (await import(/* @vite-ignore */ pathToFileURL(file).href)) as Record<string, unknown>;
    }),
  );
}

describe('the partner guide’s webhook verification', () => {
  it('accepts a real delivery with the standardwebhooks package and by hand, exactly as the partner guide shows, and refuses a forged one', async () => {
    const { config, store, receiver, extractor } = await receivingFixture();
    const run = await insertRun(store.db, extractor, {
      status: 'completed',
      documents: [{ name: 'a.pdf', data: { invoice_number: 'Ä-1 €' } }],
    });
    await enqueueWebhook(store.db, { type: 'extraction_run.completed', extractor, run });
    startDispatcher(store.db, config);
    const secret = await currentSecret(store.db, extractor.id);
    await until(() => receiver.received.length >= 1, 'a delivery');
    const { headers, body } = receiver.received[0]!;

    // The guide's first block reads the secret from the environment when it loads.
    process.env.EXTRACTOR_WEBHOOK_SECRET = secret;
    const [withPackage, byHand] = await importGuideVerifiers();
    delete process.env.EXTRACTOR_WEBHOOK_SECRET;
    const verifyExtractorWebhook = withPackage!.verifyExtractorWebhook as (
      rawBody: string,
      headers: IncomingHttpHeaders,
    ) => unknown;
    const verifyByHand = byHand!.verifyByHand as (
      secret: string,
      rawBody: string,
      headers: IncomingHttpHeaders,
    ) => unknown;

    const event = { type: 'extraction_run.completed', data: expect.objectContaining({}) };
    expect(verifyExtractorWebhook(body, headers)).toMatchObject(event);
    expect(verifyByHand(secret, body, headers)).toMatchObject(event);

    const forged = body.replace('Ä-1', 'Ä-2');
    expect(forged).not.toBe(body);
    expect(() => verifyExtractorWebhook(forged, headers)).toThrow();
    expect(() => verifyByHand(secret, forged, headers)).toThrow('bad signature');
    const otherSecret = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
    expect(() => verifyByHand(otherSecret, body, headers)).toThrow('bad signature');
    const stale = { ...headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 600) };
    expect(() => verifyExtractorWebhook(body, stale)).toThrow();
    expect(() => verifyByHand(secret, body, stale)).toThrow('too old');
  });
});
