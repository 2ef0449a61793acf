/**
 * Several processes on one PostgreSQL database, each a real service in this test process
 * with a data directory of its own (besideStoreLocation): an `api` one that answers and
 * `worker` ones that work. Runs are claimed with leases so that each is worked by one
 * worker at a time; a worker that loses its lease stops and another continues from the
 * last stored chunk; one that stops hands its runs back at once; signals (LISTEN/NOTIFY)
 * wake and cancel across processes. The llm strategy talks to a local stand-in that can
 * hold a chunk, so each step happens at a known moment.
 */
import type { ServerResponse } from 'node:http';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { documentsOfResults, runSchema, type Run } from '../../contract/resources.js';
import { loadConfig } from '../config.js';
import { createService, type Service } from '../service.js';
import {
  answer,
  held,
  startChatCompletionsServer,
  userText,
  type ChatCompletionsServer,
  type Reply,
} from '../testing/chat-completions-server.js';
import { startTestService, type TestService } from '../testing/test-service.js';
import {
  besideStoreLocation,
  testStoreLocation,
  type TestStoreLocation,
} from '../testing/test-database.js';

let stand: ChatCompletionsServer;
const services: TestService[] = [];

beforeAll(async () => {
  stand = await startChatCompletionsServer();
});
afterAll(() => stand.close());
afterEach(async () => {
  // Workers first, then the api process whose location owns the database.
  for (const service of services.splice(0).reverse()) await service.dispose();
});

function llmEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    WORKER_POLL_MS: '100',
    LLM_BASE_URL: stand.baseUrl,
    LLM_API_KEY: 'sk-test',
    LLM_TIMEOUT_MS: '30000',
    ...extra,
  };
}

async function startApi(): Promise<TestService> {
  const api = await startTestService(llmEnv({ SERVICE_ROLE: 'api' }));
  services.push(api);
  return api;
}

async function startWorker(api: TestService, extra: Record<string, string> = {}) {
  const worker = await startTestService(
    llmEnv({ SERVICE_ROLE: 'worker', WORKER_CONCURRENCY: '1', ...extra }),
    besideStoreLocation(api.location),
  );
  services.push(worker);
  return worker;
}

const schema = {
  type: 'object',
  properties: { invoice_number: { type: ['string', 'null'] }, total: { type: ['number', 'null'] } },
};

/** Eight chunks of 200 characters, each naming its run, so every chunk's text is its own. */
function longText(tag: string): string {
  return Array.from(
    { length: 8 },
    (_, index) => `${tag} line ${index + 1}: ${'word '.repeat(24)}`,
  ).join('\n');
}

async function startRun(api: TestService, extractorId: string, tag: string): Promise<Run> {
  const bucket = (await (await api.json('POST', '/api/buckets', {})).json()) as { id: string };
  const form = new FormData();
  form.append('file', new Blob([longText(tag)]), 'long.txt');
  const upload = await api.request(`/api/buckets/${bucket.id}/files`, {
    method: 'POST',
    body: form,
  });
  expect(upload.status).toBe(201);
  const created = await api.json('POST', '/api/extraction_runs', {
    bucket: bucket.id,
    savedExtractor: extractorId,
    chunkSize: 200,
  });
  expect(created.status).toBe(201);
  return runSchema.parse(await created.json());
}

async function llmExtractor(api: TestService): Promise<string> {
  const response = await api.json('POST', '/api/extractors', {
    label: 'Leases',
    jsonSchema: JSON.stringify(schema),
    strategy: 'llm',
    model: 'gpt-4o-mini',
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function getRun(api: TestService, id: string): Promise<Run> {
  return runSchema.parse(await (await api.json('GET', `/api/extraction_runs/${id}`)).json());
}

async function waitFor<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const isFinal = (run: Run) => ['completed', 'failed', 'cancelled'].includes(run.status);

async function finished(api: TestService, id: string, timeoutMs?: number): Promise<Run> {
  return waitFor(
    async () => {
      const run = await getRun(api, id);
      return isFinal(run) ? run : undefined;
    },
    `run ${id} to finish`,
    timeoutMs,
  );
}

/** How often the stand-in was asked about each chunk of the run tagged `tag`, in order. */
function askedPerChunk(tag: string): number[] {
  const counts = new Map<string, number>();
  for (const text of stand.received.map(userText).filter((text) => text.includes(`${tag} line`)))
    counts.set(text, (counts.get(text) ?? 0) + 1);
  return [...counts.values()];
}

function leaseOf(api: TestService, runId: string) {
  return api.store.db
    .selectFrom('runs')
    .select(['status', 'lease_owner', 'lease_expires_at', 'chunks_completed'])
    .where('id', '=', runId)
    .executeTakeFirstOrThrow();
}

/** A reply that answers after `ms`, as a model that takes its time. */
const slowly =
  (ms: number, reply: Reply): Reply =>
  (response, request) =>
    setTimeout(() => reply(response, request), ms);

describe('claims with leases', () => {
  it('gives each run to one worker at a time: every chunk of twelve runs asked once', async () => {
    stand.reset();
    stand.fallback = slowly(20, answer({ invoice_number: 'N', total: 1 }));
    const api = await startApi();
    await Promise.all([1, 2, 3].map(() => startWorker(api, { WORKER_CONCURRENCY: '2' })));
    const extractorId = await llmExtractor(api);
    const runs = await Promise.all(
      Array.from({ length: 12 }, (_, index) => startRun(api, extractorId, `many-${index}`)),
    );
    const done = await Promise.all(runs.map((run) => finished(api, run.id, 60_000)));

    expect(done.map((run) => run.status)).toEqual(Array(12).fill('completed'));
    for (const [index, run] of done.entries()) {
      expect(askedPerChunk(`many-${index}`)).toEqual(Array(run.chunksTotal).fill(1));
      const stats = JSON.parse(run.tokenStats!) as { chunks: { chunk: number }[] };
      expect(stats.chunks.map((entry) => entry.chunk)).toEqual([...Array(run.chunksTotal).keys()]);
    }
    const leases = await api.store.db
      .selectFrom('runs')
      .select(['lease_owner', 'lease_expires_at'])
      .where(
        'id',
        'in',
        done.map((run) => run.id),
      )
      .execute();
    expect(leases.every((row) => row.lease_owner === null && row.lease_expires_at === null)).toBe(
      true,
    );
  });

  it('leaves runs queued while only api processes run', async () => {
    stand.reset();
    stand.fallback = answer({ invoice_number: 'LATE', total: 2 });
    const api = await startApi();
    const extractorId = await llmExtractor(api);
    const run = await startRun(api, extractorId, 'api-only');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await getRun(api, run.id)).status).toBe('queued');
    expect(stand.received).toHaveLength(0);

    await startWorker(api);
    expect((await finished(api, run.id)).status).toBe('completed');
  });

  it('stops a worker whose lease was taken, and the run continues from its last stored chunk', async () => {
    stand.reset();
    stand.fallback = answer({ invoice_number: null, total: 5 });
    const second = heldUntilClosed();
    stand.enqueue(answer({ invoice_number: 'FIRST', total: null }), second.reply);
    const api = await startApi();
    await startWorker(api, { WORKER_LEASE_SECONDS: '2' });
    const extractorId = await llmExtractor(api);
    const run = await startRun(api, extractorId, 'taken');
    await second.arrived;
    expect((await leaseOf(api, run.id)).lease_owner).toMatch(/^worker-/);

    // The lease passes to nobody and has run out, as when the worker lost the database for
    // longer than its lease: the worker finds out when it next renews, and gives the
    // chunk up at once; the reaper puts the run back in the queue.
    await api.store.db
      .updateTable('runs')
      .set({ lease_owner: 'worker-gone', lease_expires_at: '2000-01-01T00:00:00.000Z' })
      .where('id', '=', run.id)
      .execute();
    await second.closed;
    await startWorker(api, { WORKER_LEASE_SECONDS: '2' });
    const done = await finished(api, run.id);

    expect(done.status).toBe('completed');
    expect(documentsOfResults(done.resultJson)[0]?.data).toEqual({
      invoice_number: 'FIRST',
      total: 5,
    });
    const counts = askedPerChunk('taken');
    expect(counts[0]).toBe(1);
    expect(counts[1]).toBe(2);
    expect(counts.slice(2)).toEqual(Array(done.chunksTotal! - 2).fill(1));
    const stats = JSON.parse(done.tokenStats!) as { chunks: { chunk: number }[] };
    expect(stats.chunks.map((entry) => entry.chunk)).toEqual([...Array(done.chunksTotal).keys()]);
  });
});

describe('stopping a worker', () => {
  it('hands its run back at once, and another worker continues long before the lease would end', async () => {
    stand.reset();
    stand.fallback = answer({ invoice_number: null, total: 7 });
    const second = heldUntilClosed();
    stand.enqueue(answer({ invoice_number: 'KEPT', total: null }), second.reply);
    const api = await startApi();
    const leaving = await startWorker(api);
    const extractorId = await llmExtractor(api);
    const run = await startRun(api, extractorId, 'handed');
    await second.arrived;
    const staying = await startWorker(api);
    const stoppedAt = Date.now();
    await leaving.stopWork();

    const done = await finished(api, run.id);
    expect(done.status).toBe('completed');
    // The lease is a minute long; the run did not wait for it.
    expect(Date.now() - stoppedAt).toBeLessThan(30_000);
    expect(documentsOfResults(done.resultJson)[0]?.data).toEqual({
      invoice_number: 'KEPT',
      total: 7,
    });
    const counts = askedPerChunk('handed');
    expect(counts.slice(0, 2)).toEqual([1, 2]);
    expect(counts.slice(2)).toEqual(Array(done.chunksTotal! - 2).fill(1));
    void staying;
  });

  it('lets the chunk in flight finish within the grace, stores it, then hands the run back', async () => {
    stand.reset();
    stand.fallback = answer({ invoice_number: null, total: 8 });
    const second = held();
    stand.enqueue(answer({ invoice_number: 'ONE', total: null }), second.reply);
    const api = await startApi();
    const leaving = await startWorker(api, { SHUTDOWN_GRACE_SECONDS: '20' });
    const extractorId = await llmExtractor(api);
    const run = await startRun(api, extractorId, 'graceful');
    await second.arrived;

    const stopping = leaving.stopWork();
    second.release(answer({ invoice_number: null, total: 2 }));
    await stopping;
    const handedBack = await leaseOf(api, run.id);
    expect(handedBack).toMatchObject({
      status: 'queued',
      lease_owner: null,
      lease_expires_at: null,
      chunks_completed: 2,
    });

    await startWorker(api);
    const done = await finished(api, run.id);
    expect(done.status).toBe('completed');
    // Nothing asked twice: the chunk in flight was finished and kept.
    expect(askedPerChunk('graceful')).toEqual(Array(done.chunksTotal).fill(1));
    // The first value found stands: the finished chunk's total, not a later one's.
    expect(documentsOfResults(done.resultJson)[0]?.data).toEqual({
      invoice_number: 'ONE',
      total: 2,
    });
  });
});

describe('signals between processes', () => {
  it('wakes a watcher in the api process when a worker stores progress, and a cancel there stops the worker', async () => {
    stand.reset();
    const second = heldUntilClosed();
    stand.enqueue(answer({ invoice_number: 'SEEN', total: null }), second.reply);
    const api = await startApi();
    const extractorId = await llmExtractor(api);
    const run = await startRun(api, extractorId, 'watched');
    const watching = new AbortController();
    // Far longer than the test may take: only a signal from the worker's process ends it.
    const woken = api.services.signals.waitForRun(run.id, 120_000, watching.signal);
    await startWorker(api);
    const wokenAt = await Promise.race([
      woken.then(() => 'woken'),
      new Promise((resolve) => setTimeout(() => resolve('not woken'), 20_000)),
    ]);
    expect(wokenAt).toBe('woken');
    await second.arrived;
    expect((await getRun(api, run.id)).chunksCompleted).toBe(1);

    const cancel = await api.json('POST', `/api/extraction_runs/${run.id}/cancel`);
    expect(cancel.status).toBe(200);
    // The worker, in another process, drops the request for the chunk in flight.
    await second.closed;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      stand.received.map(userText).filter((text) => text.includes('watched line')),
    ).toHaveLength(2);
    expect((await getRun(api, run.id)).status).toBe('cancelled');
  });
});

describe('roles', () => {
  it('a worker serves its health checks and nothing else', async () => {
    const api = await startApi();
    const worker = await startWorker(api);
    expect((await worker.request('/healthz', { token: null })).status).toBe(200);
    const ready = await worker.request('/readyz', { token: null });
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ checks: { database: 'ok', files: 'ok' } });
    const api404 = await worker.json('GET', '/api/extractors');
    expect(api404.status).toBe(404);
    expect(api404.headers.get('content-type')).toContain('application/problem+json');
    expect((await api.json('GET', '/api/extractors')).status).toBe(200);
  });

  it('api processes started together on a new database seed it once', async () => {
    const location = await testStoreLocation('extractor-seed-');
    const beside = [besideStoreLocation(location), besideStoreLocation(location)];
    const started: Service[] = [];
    try {
      const env = (at: TestStoreLocation) =>
        loadConfig({
          ...at.env,
          SERVICE_ROLE: 'api',
          EXTRACTOR_ADMIN_TOKEN: 'xpat_seed-race-0123456789abcdef',
        });
      const logger = pino({ level: 'silent' });
      started.push(
        ...(await Promise.all([
          createService(env(location), { logger }),
          createService(env(beside[0]!), { logger }),
          createService(env(beside[1]!), { logger }),
        ])),
      );
      expect(started.filter((service) => service.firstToken).length).toBe(1);
      const extractors = await started[0]!.store.db
        .selectFrom('extractors')
        .select('label')
        .execute();
      expect(extractors).toEqual([{ label: 'Invoice' }]);
      const personal = await started[0]!.store.db
        .selectFrom('tokens')
        .select('name')
        .where('kind', '=', 'personal')
        .orderBy('name')
        .execute();
      expect(personal.map((row) => row.name)).toEqual(['EXTRACTOR_ADMIN_TOKEN', 'first start']);
    } finally {
      for (const service of started) await service.close();
      for (const place of beside) await place.dispose();
      await location.dispose();
    }
  });
});

/**
 * A reply that never answers and tells when the worker gives the request up (the
 * connection closes): how a test sees a worker stop a chunk in flight.
 */
function heldUntilClosed(): { reply: Reply; arrived: Promise<void>; closed: Promise<void> } {
  let arrive!: () => void;
  let close!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const closed = new Promise<void>((resolve) => (close = resolve));
  return {
    reply(response: ServerResponse) {
      response.once('close', close);
      arrive();
    },
    arrived,
    closed,
  };
}
