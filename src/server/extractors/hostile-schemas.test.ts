/**
 * Schemas at the edge of what the service takes, against the real service as `npm start`
 * runs it (the bundle, its document workers, one event loop for every request): a pattern a
 * backtracking engine needs minutes for, matched against a session's values while other
 * requests are answered, and a run over a schema at the depth limit (issue 22).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentsOfResults, runSchema, type Run } from '../../contract/resources.js';
import { isFinalRunStatus } from '../../contract/run-status.js';
import { nestedSchema } from '../testing/fixtures.js';
import {
  callServer,
  requestServer,
  startRealServer,
  type RealServer,
} from '../testing/real-server.js';

const token = 'xpat_hostile-schemas-0123456789abcdef';
let dataDir: string;
let server: RealServer;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'extractor-schemas-'));
  server = await startRealServer({
    dataDir,
    env: {
      EXTRACTOR_ADMIN_TOKEN: token,
      WORKER_CONCURRENCY: '1',
      WORKER_POLL_MS: '50',
      LOG_LEVEL: 'warn',
    },
  });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const call = <T>(method: string, path: string, body?: unknown) =>
  callServer<T>(server, token, method, path, body);

/** A completed run of a new extractor with this schema over one text file. */
async function completedRun(jsonSchema: string, text: string): Promise<Run> {
  const extractor = await call<{ id: string }>('POST', '/api/extractors', {
    label: 'Hostile schema',
    jsonSchema,
  });
  const bucket = await call<{ id: string }>('POST', '/api/buckets', {});
  const form = new FormData();
  form.append('file', new Blob([text]), 'note.txt');
  await call('POST', `/api/buckets/${bucket.id}/files`, form);
  let run = runSchema.parse(
    await call('POST', '/api/extraction_runs', { bucket: bucket.id, savedExtractor: extractor.id }),
  );
  while (!isFinalRunStatus(run.status)) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    run = runSchema.parse(await call('GET', `/api/extraction_runs/${run.id}`));
  }
  return run;
}

describe('a schema pattern that backtracks', () => {
  // A common e-mail pattern: RegExp needs twice as long for each more character of a value
  // without an @; at 34 characters it held the service for minutes.
  const emailPattern = '^([a-zA-Z0-9_\\-\\.]+)+@([a-zA-Z0-9_\\-\\.]+)\\.([a-zA-Z]{2,5})$';
  const schema = JSON.stringify({
    type: 'object',
    properties: { email: { type: ['string', 'null'], pattern: emailPattern } },
  });

  it('is matched against a session’s values without holding the requests sent beside them', async () => {
    const run = await completedRun(schema, 'Write to us at office@example.com.');
    expect(run.status).toBe('completed');
    const save = (email: string) =>
      requestServer(server, token, 'PUT', `/api/extraction_runs/${run.id}/results`, {
        documents: [{ file: run.documents[0]!.file, data: { email } }],
      });
    // Three edits with the value that backtracks, and reads sent after them: every one is
    // answered (on a backtracking engine the first edit alone held them all for minutes).
    const answers = await Promise.all([
      save(`${'a'.repeat(34)}!`),
      requestServer(server, token, 'GET', '/api/extractors'),
      save(`${'a'.repeat(40)}!`),
      requestServer(server, token, 'GET', `/api/extraction_runs/${run.id}`),
      save(`${'a'.repeat(60)}!`),
      requestServer(server, token, 'GET', '/healthz'),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([422, 200, 422, 200, 422, 200]);
    const problem = (await answers[0]!.json()) as { errors: { pointer: string; detail: string }[] };
    expect(problem.errors).toEqual([
      { pointer: '/documents/0/data/email', detail: `must match the pattern ${emailPattern}` },
    ]);

    expect((await save('someone@example.com')).status).toBe(200);
    const submitted = await requestServer(
      server,
      token,
      'POST',
      `/api/extraction_runs/${run.id}/submit`,
    );
    expect(submitted.status).toBe(200);
  });

  it('matches no value over 1,000 characters', async () => {
    const run = await completedRun(schema, 'No address here.');
    const response = await requestServer(
      server,
      token,
      'PUT',
      `/api/extraction_runs/${run.id}/results`,
      {
        documents: [{ file: run.documents[0]!.file, data: { email: `${'a'.repeat(1000)}@b.cd` } }],
      },
    );
    expect(response.status).toBe(422);
    const problem = (await response.json()) as { errors: { pointer: string; detail: string }[] };
    expect(problem.errors).toEqual([
      // It would match, were it not 1,006 characters long.
      { pointer: '/documents/0/data/email', detail: `must match the pattern ${emailPattern}` },
    ]);
  });
});

describe('the email format', () => {
  it('is checked in time linear in the value, while other requests are answered', async () => {
    const schema = JSON.stringify({
      type: 'object',
      properties: { email: { type: ['string', 'null'], format: 'email' } },
    });
    const run = await completedRun(schema, 'No address here.');
    // Its first expression backtracked over each dot: a minute for this value.
    const dotted = `a@${'a.'.repeat(100_000)}!`;
    const answers = await Promise.all([
      requestServer(server, token, 'PUT', `/api/extraction_runs/${run.id}/results`, {
        documents: [{ file: run.documents[0]!.file, data: { email: `${dotted} ` } }],
      }),
      requestServer(server, token, 'GET', '/healthz'),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([422, 200]);
    const problem = (await answers[0]!.json()) as { errors: { pointer: string; detail: string }[] };
    expect(problem.errors).toEqual([
      { pointer: '/documents/0/data/email', detail: 'must be an email address' },
    ]);
  });
});

describe('a schema at the depth limit', () => {
  it('is run to completion, the document worker reading the file as it is', async () => {
    const run = await completedRun(nestedSchema(30), 'Leaf: green');
    expect(run.status).toBe('completed');
    expect(run.documents[0]).toMatchObject({ status: 'completed', error: null });
    const results = await call<string>('GET', `/api/extraction_runs/${run.id}/results`);
    expect(documentsOfResults(JSON.stringify(results))).toHaveLength(1);
  });
});
