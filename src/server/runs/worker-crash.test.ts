/**
 * A run survives the death of its process: SIGKILL the real server while the model is
 * working on a chunk, start it again on the same data directory, and the run is put back
 * in the queue and completes from its last stored chunk, asking for no chunk twice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
import { startRealServer, type RealServer } from '../testing/real-server.js';

const token = 'xpat_crash-test-token-0123456789';
let stand: ChatCompletionsServer;
let dataDir: string;
let server: RealServer | undefined;

beforeAll(async () => {
  stand = await startChatCompletionsServer();
  dataDir = mkdtempSync(join(tmpdir(), 'extractor-crash-'));
});

afterAll(async () => {
  await server?.stop();
  await stand.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function start(): Promise<RealServer> {
  return startRealServer({
    dataDir,
    env: {
      EXTRACTOR_ADMIN_TOKEN: token,
      WORKER_CONCURRENCY: '1',
      WORKER_POLL_MS: '50',
      LLM_BASE_URL: stand.baseUrl,
      LLM_API_KEY: 'sk-test',
      LOG_LEVEL: 'warn',
    },
  });
}

async function call(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server!.baseUrl}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      Accept: 'application/json',
      ...(body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
}

it('continues a run from its last stored chunk after the process is killed', async () => {
  server = await start();
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
      await fetch(`${server.baseUrl}/api/buckets/${bucket.id}/files`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
        body: form,
      })
    ).status,
  ).toBe(201);

  // The first chunk is answered; the second is held while the process is killed.
  const second = held();
  stand.enqueue(answer({ invoice_number: 'INV-1', total: null }), second.reply);
  stand.fallback = answer({ invoice_number: null, total: 77 });
  const run = runSchema.parse(
    await (
      await call('POST', '/api/extraction_runs', {
        bucket: bucket.id,
        savedExtractor: extractor.id,
        chunkSize: 200,
      })
    ).json(),
  );
  await second.arrived;
  server.child.kill('SIGKILL');
  await server.exited;

  server = await start();
  const deadline = Date.now() + 30_000;
  let current: Run;
  do {
    await new Promise((resolve) => setTimeout(resolve, 50));
    current = runSchema.parse(await (await call('GET', `/api/extraction_runs/${run.id}`)).json());
  } while (!isFinalRunStatus(current.status) && Date.now() < deadline);

  expect(current.status).toBe('completed');
  expect(documentsOfResults(current.resultJson)[0]?.data).toEqual({
    invoice_number: 'INV-1',
    total: 77,
  });
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
