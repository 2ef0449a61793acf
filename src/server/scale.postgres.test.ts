/**
 * The service spread over processes as a partner would run it: the real bundle (as `npm
 * start` runs it) in two `api` and two `worker` processes, on one PostgreSQL database and
 * an S3-protocol object store on loopback (s3rver), with a stand-in model provider and a
 * webhook receiver of our own. Forty runs over twenty buckets are started through both API
 * processes; one worker is killed with SIGKILL while it is in the middle of a run. Every
 * run completes with the right results, every chunk is counted once, every webhook event
 * is delivered (at least once, with its id) and in its run's order, and a run's events are followed live through
 * the API process that did not start it.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { documentsOfResults, runSchema, type Run } from '../contract/resources.js';
import type { Store } from './store/database.js';
import {
  answer,
  startChatCompletionsServer,
  userText,
  type ChatCompletionsServer,
  type ChatRequest,
} from './testing/chat-completions-server.js';
import { readEvents, type StreamedEvent } from './testing/event-stream.js';
import { callServer, startRealServer, type RealServer } from './testing/real-server.js';
import { startS3StandIn, type S3StandIn } from './testing/s3-stand-in.js';
import {
  besideStoreLocation,
  testStoreLocation,
  type TestStoreLocation,
} from './testing/test-database.js';

const token = 'xpat_scale-test-token-0123456789abcdef';
const bucketCount = 20;
/** The bucket and extractor whose second chunk is in flight when its worker is killed. */
const victim = { bucket: 7, extractor: 'A' };

interface Process {
  role: 'api' | 'worker';
  server: RealServer;
  place: TestStoreLocation;
}

let location: TestStoreLocation;
let store: Store;
let s3: S3StandIn;
let stand: ChatCompletionsServer;
let receiver: WebhookReceiver;
const processes: Process[] = [];

beforeAll(async () => {
  [location, s3, stand] = await Promise.all([
    testStoreLocation('extractor-scale-'),
    startS3StandIn(),
    startChatCompletionsServer(),
  ]);
  store = await location.open();
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await Promise.all(processes.map(({ server }) => server.stop()));
  for (const { place } of processes) if (place !== location) await place.dispose();
  await store?.close();
  await Promise.all([s3?.stop(), stand?.close(), receiver?.close()]);
  await location?.dispose();
});

/** A request to a process's API with the test's token. */
function call<T>(process: Process, method: string, path: string, body?: unknown): Promise<T> {
  return callServer<T>(process.server, token, method, path, body);
}

async function startProcess(role: Process['role']): Promise<Process> {
  // Each process has a data directory of its own; the first is the test's location's.
  const place = processes.length === 0 ? location : besideStoreLocation(location);
  const server = await startRealServer({
    dataDir: place.dataDir,
    env: {
      ...place.env,
      ...s3.env,
      FILES_URL: `s3://${s3.bucket}/scale`,
      SERVICE_ROLE: role,
      WORKER_CONCURRENCY: role === 'worker' ? '2' : '0',
      // A dead worker's runs are taken up a few seconds after its last renewal; long enough
      // that a live worker on a busy machine renews in time.
      WORKER_LEASE_SECONDS: '5',
      EXTRACTOR_ADMIN_TOKEN: token,
      LLM_BASE_URL: stand.baseUrl,
      LLM_API_KEY: 'sk-test',
      WEBHOOK_ALLOW_PRIVATE: '1',
      WEBHOOK_TIMEOUT_MS: '2000',
      LOG_LEVEL: 'warn',
    },
  });
  const started = { role, server, place };
  processes.push(started);
  return started;
}

/** Four lines of about 150 characters: four chunks of 200, the number first, the total last. */
function invoiceText(bucket: number): string {
  const filler = (line: number) => `bucket-${bucket} line ${line}: ${'words '.repeat(20)}`;
  return [
    `Invoice number: SCALE-${bucket} ${filler(1)}`,
    filler(2),
    filler(3),
    `Total: ${bucket}.00 ${filler(4)}`,
  ].join('\n');
}

/** The model: finds what the chunk says, after a moment's thought. */
function modelAnswer(request: ChatRequest): unknown {
  const text = userText(request);
  const total = /Total: (\d+)/.exec(text)?.[1];
  return {
    invoice_number: /Invoice number: (\S+)/.exec(text)?.[1] ?? null,
    total: total === undefined ? null : Number(total),
  };
}

const keyOf = (request: ChatRequest) => JSON.stringify(request.body.messages);

it('works forty runs over twenty buckets with two api and two worker processes, one killed mid-run', async () => {
  const [api1, api2] = await Promise.all([startProcess('api'), startProcess('api')]);
  const workers = await Promise.all([startProcess('worker'), startProcess('worker')]);

  // The provider holds the victim's second chunk until its worker is gone.
  let victimArrived!: (request: ChatRequest) => void;
  const victimRequest = new Promise<ChatRequest>((resolve) => (victimArrived = resolve));
  let victimHeld = false;
  stand.fallback = (response, request) => {
    const text = userText(request);
    const system = request.body.messages.find((message) => message.role === 'system');
    if (
      !victimHeld &&
      text.includes(`bucket-${victim.bucket} line 2`) &&
      JSON.stringify(system).includes(`Extractor ${victim.extractor}`)
    ) {
      victimHeld = true;
      victimArrived(request);
      return;
    }
    setTimeout(() => answer(modelAnswer(request))(response, request), 20);
  };

  const schema = {
    type: 'object',
    properties: {
      invoice_number: { type: ['string', 'null'] },
      total: { type: ['number', 'null'] },
    },
  };
  const extractors: Record<string, string> = {};
  for (const name of ['A', 'B']) {
    const created = await call<{ id: string }>(api1, 'POST', '/api/extractors', {
      label: `Scale ${name}`,
      jsonSchema: JSON.stringify(schema),
      outputInstructions: `Extractor ${name}.`,
      strategy: 'llm',
      model: 'gpt-4o-mini',
      enableWebhook: true,
      webhookUrl: receiver.url,
    });
    extractors[name] = created.id;
  }
  // Buckets and uploads through both API processes: the files go to the object store.
  const buckets = await Promise.all(
    Array.from({ length: bucketCount }, async (_, index) => {
      const api = index % 2 === 0 ? api1 : api2;
      const bucket = await call<{ id: string }>(api, 'POST', '/api/buckets', {});
      const form = new FormData();
      form.append('file', new Blob([invoiceText(index)]), `invoice-${index}.txt`);
      const upload = await fetch(`${api.server.baseUrl}/api/buckets/${bucket.id}/files`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
        body: form,
      });
      expect(upload.status).toBe(201);
      return bucket.id;
    }),
  );

  const started = await Promise.all(
    buckets.flatMap((bucketId, index) =>
      (['A', 'B'] as const).map(async (name) => {
        const api = name === 'A' ? api1 : api2;
        const run = runSchema.parse(
          await call(api, 'POST', '/api/extraction_runs', {
            bucket: bucketId,
            savedExtractor: extractors[name],
            chunkSize: 200,
          }),
        );
        return { run, bucket: index, extractor: name };
      }),
    ),
  );
  expect(started).toHaveLength(40);
  // The victim's run, started through api1, is watched through api2.
  const watched = started.find(
    (entry) => entry.bucket === victim.bucket && entry.extractor === victim.extractor,
  )!.run;
  const stream = followEvents(api2, watched.id);

  await victimRequest;
  const { lease_owner: owner } = await store.db
    .selectFrom('runs')
    .select('lease_owner')
    .where('id', '=', watched.id)
    .executeTakeFirstOrThrow();
  const pidOf = (leaseOwner: string | null) =>
    Number(/^worker-[^:]*:(\d+):/.exec(leaseOwner ?? '')?.[1]);
  const doomed = workers.find(({ server }) => server.pid === pidOf(owner))!;
  expect(doomed).toBeDefined();
  // The work is spread: both workers hold runs (two each, their WORKER_CONCURRENCY).
  const holders = await store.db
    .selectFrom('runs')
    .select('lease_owner')
    .where('status', '=', 'running')
    .execute();
  expect(new Set(holders.map((row) => pidOf(row.lease_owner)))).toEqual(
    new Set(workers.map(({ server }) => server.pid)),
  );
  // Webhook answers wait while it dies, so that none it is sending counts as delivered
  // unless its sender also recorded it: a delivery it held is sent again by the survivor.
  receiver.hold();
  await new Promise((resolve) => setTimeout(resolve, 100));
  const held = await store.db
    .selectFrom('runs')
    .select('id')
    .where('lease_owner', '=', owner)
    .execute();
  doomed.server.child.kill('SIGKILL');
  await doomed.server.exited;
  // Its connections are closed by now; the receiver sees them close before it answers.
  await new Promise((resolve) => setTimeout(resolve, 300));
  receiver.release();

  const finished = await Promise.all(
    started.map(async ({ run, bucket }) => ({ run: await finalRun(api2, run.id), bucket })),
  );
  for (const { run, bucket } of finished) {
    expect(run.status).toBe('completed');
    expect(documentsOfResults(run.resultJson)[0]?.data).toEqual({
      invoice_number: `SCALE-${bucket}`,
      total: bucket,
    });
    // Every chunk counted once: the token statistics hold each chunk exactly once.
    const stats = JSON.parse(run.tokenStats!) as { chunks: { chunk: number }[] };
    expect(stats.chunks.map((entry) => entry.chunk)).toEqual([...Array(run.chunksTotal).keys()]);
    expect(run.chunksTotal).toBe(4);
  }

  // Each chunk was asked about once, but for some of the runs the killed worker held: the
  // chunk in flight, and one whose answer it had not stored yet, were asked again.
  const asked = new Map<string, number>();
  for (const request of stand.received)
    asked.set(keyOf(request), (asked.get(keyOf(request)) ?? 0) + 1);
  expect(asked.size).toBe(40 * 4);
  const heldTags = held.map(({ id }) => {
    const entry = started.find(({ run }) => run.id === id)!;
    return [`bucket-${entry.bucket} line`, `Extractor ${entry.extractor}.`];
  });
  const again = [...asked].filter(([, count]) => count > 1);
  expect(again.map(([key]) => key)).toContain(keyOf(await victimRequest));
  for (const [key, count] of again) {
    expect(count).toBe(2);
    expect(heldTags.some((tags) => tags.every((tag) => key.includes(tag)))).toBe(true);
  }

  // Every webhook event delivered, in its run's order. Delivery is at least once: a message
  // the killed worker had sent, and whose answer it had not recorded before it died, is sent
  // again with the same webhook-id after its lease (a receiver de-duplicates by that id).
  const rows = await waitFor(async () => {
    const all = await store.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'run_id', 'event_type', 'status', 'run_sequence', 'attempts'])
      .orderBy('run_id')
      .orderBy('run_sequence')
      .execute();
    return all.length > 0 && all.every((row) => row.status === 'delivered') ? all : undefined;
  }, 'every webhook delivered');
  const deliveredIds = receiver.delivered.map((delivery) => delivery.id);
  expect(new Set(deliveredIds)).toEqual(new Set(rows.map((row) => row.id)));
  const timesArrived = new Map<string, number>();
  for (const id of deliveredIds) timesArrived.set(id, (timesArrived.get(id) ?? 0) + 1);
  for (const [id, times] of timesArrived) {
    if (times === 1) continue;
    // Sent again only after a second claim of the same message, never more than once again.
    expect(times).toBe(2);
    expect(rows.find((row) => row.id === id)!.attempts).toBeGreaterThanOrEqual(2);
  }
  for (const { run } of finished) {
    const ofRun = rows.filter((row) => row.run_id === run.id);
    const arrived = [
      ...new Set(
        receiver.delivered
          .filter((delivery) => delivery.run === `/api/runs/${run.id}`)
          .map((delivery) => delivery.id),
      ),
    ];
    expect(arrived).toEqual(ofRun.map((row) => row.id));
    expect(ofRun[0]!.event_type).toBe('extraction_run.started');
    expect(ofRun.at(-1)!.event_type).toBe('extraction_run.completed');
  }

  // The watched run's events, followed through the other API process as they happened.
  const events = await stream;
  expect(events.map((event) => Number(event.id))).toEqual(
    events.map((event) => Number(event.id)).sort((a, b) => a - b),
  );
  expect(events[0]!.event).toBe('extraction_run.started');
  expect(events.at(-1)!.event).toBe('extraction_run.completed');
  const progress = events
    .filter((event) => event.event === 'extraction_run.progress')
    .map((event) => (event.data as { chunksCompleted: number }).chunksCompleted);
  expect(progress.at(-1)).toBe(4);
  expect(progress).toEqual([...progress].sort((a, b) => a - b));
}, 240_000);

async function waitFor<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 120_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function finalRun(api: Process, id: string): Promise<Run> {
  return waitFor(async () => {
    const run = runSchema.parse(await call(api, 'GET', `/api/extraction_runs/${id}`));
    return ['completed', 'failed', 'cancelled'].includes(run.status) ? run : undefined;
  }, `run ${id}`);
}

/** The run's events as the stream of `api` sends them, until the service ends it. */
async function followEvents(api: Process, runId: string): Promise<StreamedEvent[]> {
  const response = await fetch(`${api.server.baseUrl}/api/extraction_runs/${runId}/events`, {
    // Every event from the run's first (Last-Event-ID 0), not a snapshot standing for them.
    headers: {
      Authorization: `Bearer ${token}`,
      Accept: 'text/event-stream',
      'Last-Event-ID': '0',
    },
  });
  expect(response.status).toBe(200);
  // The snapshot that comes first is no event of the run's.
  return (await readEvents(response)).filter((event) => event.event !== 'snapshot');
}

interface WebhookReceiver {
  url: string;
  /** Deliveries answered with a 2xx, in the order they were answered. */
  delivered: { id: string; type: string; run: string }[];
  /** Answers nothing until `release`; a request whose sender goes away meanwhile is dropped. */
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const delivered: WebhookReceiver['delivered'] = [];
  let gate: Promise<void> | undefined;
  let open: (() => void) | undefined;
  const answerLater = async (response: ServerResponse, body: string, id: string) => {
    await gate;
    if (response.destroyed || response.socket?.destroyed) return;
    const payload = JSON.parse(body) as { type: string; data: { run: string } };
    response.once('finish', () =>
      delivered.push({ id, type: payload.type, run: payload.data.run }),
    );
    response.writeHead(204).end();
  };
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on(
      'end',
      () => void answerLater(response, body, String(request.headers['webhook-id'])),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    delivered,
    hold() {
      gate = new Promise((resolve) => (open = resolve));
    },
    release() {
      open?.();
      gate = undefined;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
