/**
 * A run survives the end of its process. SIGKILL the real server while the model is working
 * on a chunk, start it again on the same store, and the run is put back in the queue and
 * completes from its last stored chunk, asking for no chunk twice: on SQLite the new process
 * puts back whatever was running at its start; on PostgreSQL, where other processes may be
 * working, the run is put back when the dead worker's lease runs out. SIGTERM instead lets
 * the chunk in flight finish, stores it, and hands the run back before the process exits.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { documentsOfResults, runSchema, type Run } from '../../contract/resources.js';
import { isFinalRunStatus } from '../../contract/run-status.js';
import {
  answer,
  held,
  startChatCompletionsServer,
  userText,
  type ChatCompletionsServer,
} from '../testing/chat-completions-server.js';
import { requestServer, startRealServer, type RealServer } from '../testing/real-server.js';
import { testStoreLocation, type TestStoreLocation } from '../testing/test-database.js';

const token = 'xpat_crash-test-token-0123456789';
let stand: ChatCompletionsServer;
let location: TestStoreLocation;
let server: RealServer | undefined;

beforeAll(async () => {
  stand = await startChatCompletionsServer();
  location = await testStoreLocation('extractor-crash-');
});

afterAll(async () => {
  await server?.stop();
  await stand.close();
  await location.dispose();
});

function start(env: Record<string, string> = {}): Promise<RealServer> {
  return startRealServer({
    dataDir: location.dataDir,
    env: {
      ...location.env,
      EXTRACTOR_ADMIN_TOKEN: token,
      WORKER_CONCURRENCY: '1',
      WORKER_POLL_MS: '50',
      // Short, so that the dead worker's lease runs out within the test (PostgreSQL).
      WORKER_LEASE_SECONDS: '4',
      LLM_BASE_URL: stand.baseUrl,
      LLM_API_KEY: 'sk-test',
      LOG_LEVEL: 'warn',
      ...env,
    },
  });
}

const call = (method: string, path: string, body?: unknown) =>
  requestServer(server!, token, method, path, body);

/** An llm extractor and a bucket of one text of several 200-character chunks. */
async function llmRunParts(): Promise<{ extractor: string; bucket: string }> {
  const schema = {
    type: 'object',
    properties: {
      invoice_number: { type: ['string', 'null'] },
      total: { type: ['number', 'null'] },
    },
  };
  const extractor = (await (
    await call('POST', '/api/extractors', {
      label: 'Crash',
      jsonSchema: JSON.stringify(schema),
      strategy: 'llm',
      model: 'gpt-4o-mini',
    })
  ).json()) as { id: string };
  const bucket = (await (await call('POST', '/api/buckets', {})).json()) as { id: string };
  const form = new FormData();
  const text = Array.from(
    { length: 6 },
    (_, index) => `Line ${index + 1}: ${'word '.repeat(24)}`,
  ).join('\n');
  form.append('file', new Blob([text]), 'long.txt');
  expect(
    (
      await fetch(`${server!.baseUrl}/api/buckets/${bucket.id}/files`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
        body: form,
      })
    ).status,
  ).toBe(201);
  return { extractor: extractor.id, bucket: bucket.id };
}

async function startRun(parts: { extractor: string; bucket: string }): Promise<Run> {
  return runSchema.parse(
    await (
      await call('POST', '/api/extraction_runs', {
        bucket: parts.bucket,
        savedExtractor: parts.extractor,
        chunkSize: 200,
      })
    ).json(),
  );
}

/**
 * A run of an llm extractor over the long text, its first chunk answered the record `first`
 * and the others `fallback`, but for the second, which the model holds: it has been asked for.
 */
async function runHeldAtSecondChunk(first: unknown, fallback: unknown) {
  stand.reset();
  const parts = await llmRunParts();
  const second = held();
  stand.enqueue(answer(first), second.reply);
  stand.fallback = answer(fallback);
  const run = await startRun(parts);
  await second.arrived;
  return { run, second };
}

async function finished(runId: string): Promise<Run> {
  const deadline = Date.now() + 30_000;
  let current: Run;
  do {
    await new Promise((resolve) => setTimeout(resolve, 50));
    current = runSchema.parse(await (await call('GET', `/api/extraction_runs/${runId}`)).json());
  } while (!isFinalRunStatus(current.status) && Date.now() < deadline);
  return current;
}

/** Starts the server again, and the run completes with `data` as its record. */
async function completesOnRestart(runId: string, data: unknown): Promise<Run> {
  server = await start();
  const current = await finished(runId);
  expect(current.status).toBe('completed');
  expect(documentsOfResults(current.resultJson)[0]?.data).toEqual(data);
  return current;
}

it('continues a run from its last stored chunk after the process is killed', async () => {
  server = await start();
  // The first chunk is answered; the second is held while the process is killed.
  const { run, second } = await runHeldAtSecondChunk(
    { invoice_number: 'INV-1', total: null },
    { invoice_number: null, total: 77 },
  );
  server.child.kill('SIGKILL');
  await server.exited;

  const current = await completesOnRestart(run.id, { invoice_number: 'INV-1', total: 77 });
  const texts = stand.received.map(userText);
  // The first chunk was stored before the kill and never asked again; the second was asked
  // twice (its first answer never arrived); every other chunk once.
  expect(texts.filter((entry) => entry === texts[0])).toHaveLength(1);
  expect(texts.filter((entry) => entry === texts[1])).toHaveLength(2);
  expect(texts).toHaveLength(current.chunksTotal! + 1);
  const stats = JSON.parse(current.tokenStats!) as { chunks: { chunk: number }[] };
  expect(stats.chunks.map((entry) => entry.chunk)).toEqual([...Array(current.chunksTotal).keys()]);
  second.release(answer({}));
});

it('on SIGTERM finishes the chunk in flight, stores it and hands the run back', async () => {
  await server?.stop();
  server = await start({ SHUTDOWN_GRACE_SECONDS: '20' });
  const { run, second } = await runHeldAtSecondChunk(
    { invoice_number: 'INV-2', total: null },
    { invoice_number: null, total: 88 },
  );
  server.child.kill('SIGTERM');
  // Stopping waits for the chunk: its answer comes after the signal.
  await new Promise((resolve) => setTimeout(resolve, 200));
  second.release(answer({ invoice_number: null, total: 2 }));
  expect(await server.exited).toBe(0);

  const store = await location.open();
  try {
    const row = await store.db
      .selectFrom('runs')
      .select(['status', 'lease_owner', 'lease_expires_at', 'chunks_completed'])
      .where('id', '=', run.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      status: 'queued',
      lease_owner: null,
      lease_expires_at: null,
      chunks_completed: 2,
    });
  } finally {
    await store.close();
  }

  const current = await completesOnRestart(run.id, { invoice_number: 'INV-2', total: 2 });
  // Nothing was asked twice: the chunk in flight at the signal was kept.
  const texts = stand.received.map(userText);
  expect(new Set(texts).size).toBe(texts.length);
  expect(texts).toHaveLength(current.chunksTotal!);
});
