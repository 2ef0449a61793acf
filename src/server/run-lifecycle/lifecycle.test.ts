import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunStatus } from '../../contract/run-status.js';
import { readFileSync } from 'node:fs';
import {
  canRunCommand,
  runCommands,
  runStatuses,
  type RunCommand,
} from '../../contract/run-status.js';
import { runSchema, submissionSchema, type Run } from '../../contract/resources.js';
import { readEvents } from '../testing/event-stream.js';
import { expectProblem } from '../testing/fixtures.js';
import { startTestService, type TestService } from '../testing/test-service.js';
import { listDocuments, runColumnsOf } from '../runs/documents.js';

const orlen = readFileSync(new URL('../../../e2e/fixtures/invoices/Orlen.txt', import.meta.url));

let service: TestService;
let extractorId: string;

async function createExtractor(overrides: Record<string, unknown> = {}): Promise<string> {
  const schema = {
    type: 'object',
    properties: {
      invoice_number: { type: ['string', 'null'] },
      total: { type: ['number', 'null'] },
    },
    required: ['invoice_number', 'total'],
  };
  const response = await service.json('POST', '/api/extractors', {
    label: 'Test',
    jsonSchema: JSON.stringify(schema),
    redirectUrl: 'https://partner.example/done',
    ...overrides,
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function bucketWithFile(): Promise<string> {
  const bucket = (await (await service.json('POST', '/api/buckets', {})).json()) as { id: string };
  const form = new FormData();
  form.append('file', new Blob([orlen]), 'orlen.txt');
  const upload = await service.request(`/api/buckets/${bucket.id}/files`, {
    method: 'POST',
    body: form,
  });
  expect(upload.status).toBe(201);
  return bucket.id;
}

async function startRun(bucketId: string, extractor = extractorId) {
  const response = await service.json('POST', '/api/extraction_runs', {
    bucket: `/api/buckets/${bucketId}`,
    savedExtractor: `/api/extractors/${extractor}`,
  });
  expect(response.status).toBe(201);
  return runSchema.parse(await response.json());
}

/**
 * Completes (or fails) the documents of a run directly in the store, and writes the run's
 * columns made from them, as the worker would: the worker is off in these tests.
 */
async function settleDocuments(
  run: Run,
  status: RunStatus,
  outcomes: ({ data: unknown } | { error: string })[],
) {
  const db = service.store.db;
  const documents = await listDocuments(db, run.id);
  for (const [index, outcome] of outcomes.entries()) {
    await db
      .updateTable('run_documents')
      .set(
        'data' in outcome
          ? {
              status: 'completed',
              result_json: JSON.stringify(outcome.data),
              chunks_total: 1,
              chunks_completed: 1,
            }
          : { status: 'failed', error: outcome.error },
      )
      .where('run_id', '=', run.id)
      .where('file_id', '=', documents[index]!.file_id)
      .execute();
  }
  const bucketId = run.bucket.split('/').pop()!;
  await forceStatus(run.id, status, {
    ...runColumnsOf(bucketId, await listDocuments(db, run.id)),
    finished_at: new Date().toISOString(),
  });
}

/** Puts a run in a status directly in the store: the worker is off in these tests. */
async function forceStatus(runId: string, status: RunStatus, extra: Record<string, unknown> = {}) {
  await service.store.db
    .updateTable('runs')
    .set({ status, ...extra })
    .where('id', '=', runId)
    .execute();
}

beforeAll(async () => {
  service = await startTestService();
  extractorId = await createExtractor();
});
afterAll(() => service.dispose());

describe('starting a run', () => {
  it('answers 201 with a queued run that copies the extractor schema', async () => {
    const bucketId = await bucketWithFile();
    const run = await startRun(bucketId);
    expect(run.status).toBe('queued');
    expect(run.bucket).toBe(`/api/buckets/${bucketId}`);
    expect(run.savedExtractor).toBe(`/api/extractors/${extractorId}`);
    expect(run.strategy).toBe('local');
    expect(run.model).toBe('local');
    expect(run.chunkSize).toBe(4000);

    const original = run.targetSchema;
    const newSchema = JSON.stringify({ type: 'object', properties: { other: { type: 'string' } } });
    const put = await service.json('PUT', `/api/extractors/${extractorId}`, {
      label: 'Test',
      jsonSchema: newSchema,
    });
    expect(put.status).toBe(200);
    const again = runSchema.parse(
      await (await service.json('GET', `/api/extraction_runs/${run.id}`)).json(),
    );
    expect(again.targetSchema).toBe(original);
    const restore = await service.json('PUT', `/api/extractors/${extractorId}`, {
      label: 'Test',
      jsonSchema: original,
      redirectUrl: 'https://partner.example/done',
    });
    expect(restore.status).toBe(200);

    const extractor = (await (
      await service.json('GET', `/api/extractors/${extractorId}`)
    ).json()) as { lastRanAt: string | null; runs: string[] };
    expect(extractor.lastRanAt).not.toBeNull();
    expect(extractor.runs).toContain(`/api/runs/${run.id}`);
  });

  it("keeps the extractor's document languages with the run, for its reading", async () => {
    const languages = await createExtractor({ documentLanguages: ['de', 'ja'] });
    const run = await startRun(await bucketWithFile(), languages);
    const row = await service.store.db
      .selectFrom('runs')
      .select('document_languages')
      .where('id', '=', run.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.document_languages)).toEqual(['de', 'ja']);
  });

  it('takes overrides and checks them', async () => {
    const bucketId = await bucketWithFile();
    const response = await service.json('POST', '/api/runs', {
      bucket: bucketId,
      savedExtractor: extractorId,
      chunkSize: 500,
      includeText: false,
    });
    expect(response.status).toBe(201);
    const run = runSchema.parse(await response.json());
    expect(run.chunkSize).toBe(500);
    expect(run.includeText).toBe(false);

    const badModel = await service.json('POST', '/api/runs', {
      bucket: bucketId,
      savedExtractor: extractorId,
      model: 'gpt-9',
    });
    expect(badModel.status).toBe(422);
    const problem = (await badModel.json()) as { errors: { pointer: string; detail: string }[] };
    expect(problem.errors[0]!.pointer).toBe('/model');
    expect(problem.errors[0]!.detail).toContain('"local"');

    const llm = await service.json('POST', '/api/runs', {
      bucket: bucketId,
      savedExtractor: extractorId,
      strategy: 'llm',
    });
    expect(llm.status).toBe(201);
    expect(runSchema.parse(await llm.json()).model).toBe(service.config.llm.models[0]);
  });

  it('refuses a bucket without files and references to nothing', async () => {
    const empty = (await (await service.json('POST', '/api/buckets', {})).json()) as { id: string };
    const response = await service.json('POST', '/api/extraction_runs', {
      bucket: `/api/buckets/${empty.id}`,
      savedExtractor: `/api/extractors/${extractorId}`,
    });
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(((await response.json()) as { detail: string }).detail).toContain('no files');

    const nothing = await service.json('POST', '/api/extraction_runs', {
      bucket: '/api/buckets/nope',
      savedExtractor: '/api/extractors/nope',
    });
    expect(nothing.status).toBe(422);
    const pointers = ((await nothing.json()) as { errors: { pointer: string }[] }).errors.map(
      (error) => error.pointer,
    );
    expect(pointers).toEqual(['/bucket', '/savedExtractor']);
  });
});

describe('the state machine', () => {
  const commands = Object.keys(runCommands) as RunCommand[];
  for (const status of runStatuses) {
    for (const command of commands) {
      const allowed = canRunCommand(status, command);
      it(`${command} on a ${status} run ${allowed ? `moves it to ${runCommands[command]}` : 'is a 409'}`, async () => {
        const run = await startRun(await bucketWithFile());
        await forceStatus(run.id, status);
        const response = await service.json('POST', `/api/extraction_runs/${run.id}/${command}`);
        if (allowed) {
          expect(response.status).toBe(200);
          const moved = runSchema.parse(await response.json());
          expect(moved.status).toBe(runCommands[command]);
          if (command === 'cancel') expect(moved.finishedAt).not.toBeNull();
        } else {
          expect(response.status).toBe(409);
          const problem = (await response.json()) as { currentStatus: string; detail: string };
          expect(problem.currentStatus).toBe(status);
          expect(problem.detail).toContain(status);
        }
      });
    }
  }

  it('lets a session control only the runs of its own bucket', async () => {
    const bucketId = await bucketWithFile();
    const session = (await (
      await service.json('POST', '/api/embed_sessions', {
        savedExtractor: extractorId,
        bucket: bucketId,
      })
    ).json()) as { token: string };
    const own = await startRun(bucketId);
    const other = await startRun(await bucketWithFile());
    expect(
      (await service.json('POST', `/api/runs/${own.id}/cancel`, undefined, session.token)).status,
    ).toBe(200);
    expect(
      (await service.json('POST', `/api/runs/${other.id}/cancel`, undefined, session.token)).status,
    ).toBe(404);
    const foreign = await service.json(
      'POST',
      '/api/runs',
      { bucket: await bucketWithFile(), savedExtractor: extractorId },
      session.token,
    );
    expect(foreign.status).toBe(422);
    const mine = await service.json(
      'POST',
      '/api/runs',
      { bucket: bucketId, savedExtractor: extractorId },
      session.token,
    );
    expect(mine.status).toBe(201);
  });
});

describe('replacing a failed document', () => {
  const replace = (run: Run, fileId: string) => {
    const form = new FormData();
    form.append('file', new Blob([orlen]), 'orlen-again.txt');
    return service.request(`/api/extraction_runs/${run.id}/documents/${fileId}/replace`, {
      method: 'POST',
      body: form,
    });
  };
  const filesOf = async (bucketId: string) =>
    (
      (await (await service.request(`/api/buckets/${bucketId}/files`)).json()) as { id: string }[]
    ).map((file) => file.id);

  it('is a 409, as removing the file is, while another open run of the bucket is to read the file', async () => {
    const bucketId = await bucketWithFile();
    const failed = await startRun(bucketId);
    await settleDocuments(failed, 'failed', [{ error: 'orlen.txt could not be read' }]);
    const [fileId] = await filesOf(bucketId);
    // Another run over the same bucket, queued: it will read the same file.
    const waiting = await startRun(bucketId);
    expect(waiting.status).toBe('queued');

    const removal = await service.request(`/api/buckets/${bucketId}/files/${fileId}`, {
      method: 'DELETE',
    });
    expect(removal.status).toBe(409);
    const problem = await expectProblem(await replace(failed, fileId!), 409);
    expect(problem.detail).toContain(waiting.id);
    expect(problem.currentStatus).toBe('failed');
    // The file the queued run is to read is still there, and nothing was added.
    expect(await filesOf(bucketId)).toEqual([fileId]);
    expect((await service.request(`/api/buckets/${bucketId}/files/${fileId}/content`)).status).toBe(
      200,
    );

    // Once that run is over, the file can be replaced.
    await forceStatus(waiting.id, 'cancelled');
    expect((await replace(failed, fileId!)).status).toBe(202);
    expect(await filesOf(bucketId)).not.toContain(fileId);
  });
});

/** A run whose one document completed with an invoice's record. */
async function completedRun() {
  const run = await startRun(await bucketWithFile());
  await settleDocuments(run, 'completed', [{ data: { invoice_number: 'F 1234', total: 316.83 } }]);
  return run;
}

/** The results of a one-document run, with this record. */
const oneDocument = (run: Run, data: unknown) => ({
  documents: [
    {
      file: run.documents[0]!.file,
      name: 'orlen.txt',
      status: 'completed',
      data,
      error: null,
    },
  ],
});

describe('results and submission', () => {
  it('has no results before the run completes', async () => {
    const run = await startRun(await bucketWithFile());
    const response = await service.request(`/api/extraction_runs/${run.id}/results`);
    expect(response.status).toBe(409);
    const put = await service.json('PUT', `/api/extraction_runs/${run.id}/results`, {
      documents: [{ file: run.documents[0]!.file, data: { invoice_number: 'x', total: 1 } }],
    });
    expect(put.status).toBe(409);
  });

  it('keeps the machine original next to a person’s edits', async () => {
    const run = await completedRun();
    const file = run.documents[0]!.file;
    const invalid = await service.json('PUT', `/api/extraction_runs/${run.id}/results`, {
      documents: [{ file, data: { invoice_number: 7, total: 'lots' } }],
    });
    expect(invalid.status).toBe(422);
    const pointers = ((await invalid.json()) as { errors: { pointer: string }[] }).errors
      .map((error) => error.pointer)
      .sort();
    expect(pointers).toEqual(['/documents/0/data/invoice_number', '/documents/0/data/total']);
    // The old shape, a bare record, names what is missing.
    const bare = await service.json('PUT', `/api/extraction_runs/${run.id}/results`, {
      invoice_number: 'F 1234K20',
      total: 316.83,
    });
    expect(bare.status).toBe(422);
    const nobody = await service.json('PUT', `/api/extraction_runs/${run.id}/results`, {
      documents: [{ file: '/api/buckets/x/files/y', data: { invoice_number: 'a', total: 1 } }],
    });
    expect(nobody.status).toBe(422);

    const saved = await service.json('PUT', `/api/extraction_runs/${run.id}/results`, {
      documents: [{ file, data: { invoice_number: 'F 1234K20', total: 316.83 } }],
    });
    expect(saved.status).toBe(200);
    const wire = runSchema.parse(await saved.json());
    const edited = oneDocument(run, { invoice_number: 'F 1234K20', total: 316.83 });
    const machine = oneDocument(run, { invoice_number: 'F 1234', total: 316.83 });
    expect(JSON.parse(wire.editedResultJson!)).toEqual(edited);
    expect(JSON.parse(wire.resultJson!)).toEqual(machine);
    expect(JSON.parse(wire.data!)).toEqual(edited);

    const current = await service.request(`/api/extraction_runs/${run.id}/results?format=json`);
    expect(await current.json()).toEqual(edited);
    const original = await service.request(
      `/api/extraction_runs/${run.id}/results?format=json&version=original`,
    );
    expect(await original.json()).toEqual(machine);

    // One document's record, through its own address.
    const fileId = file.split('/').pop()!;
    const documentPath = `/api/extraction_runs/${run.id}/documents/${fileId}/results`;
    const again = await service.json('PUT', documentPath, { invoice_number: 'F 9', total: 1 });
    expect(again.status).toBe(200);
    expect(JSON.parse(runSchema.parse(await again.json()).data!)).toEqual(
      oneDocument(run, { invoice_number: 'F 9', total: 1 }),
    );
    const elsewhere = await service.json(
      'PUT',
      `/api/extraction_runs/${run.id}/documents/nope/results`,
      { invoice_number: 'F 9', total: 1 },
    );
    expect(elsewhere.status).toBe(404);

    const notJson = await service.request(`/api/extraction_runs/${run.id}/results`, {
      method: 'PUT',
      headers: { 'Content-Type': 'text/csv' },
      body: 'a\n1',
    });
    expect(notJson.status).toBe(415);
  });

  it("keeps a person's draft the schema refuses apart from the records, and refuses to submit it", async () => {
    const run = await completedRun();
    const file = run.documents[0]!.file;
    const documentPath = `/api/extraction_runs/${run.id}/documents/${file.split('/').pop()!}/results`;
    const runPath = `/api/extraction_runs/${run.id}`;
    // A record the schema accepts becomes the document's record.
    const valid = { invoice_number: 'F 7', total: 300 };
    expect((await service.json('PUT', documentPath, valid)).status).toBe(200);
    // Half typed: the schema does not accept it yet, but the work must survive a reload.
    const draft = { invoice_number: 7, total: 'three hundred' };
    const saved = await service.json('PUT', documentPath, draft);
    expect(saved.status).toBe(200);
    const reloaded = await service.json('GET', runPath);
    for (const wire of [await saved.json(), await reloaded.json()].map((body) =>
      runSchema.parse(body),
    )) {
      // The records stay the last the schema accepted, as the OpenAPI document promises…
      expect(JSON.parse(wire.data!)).toEqual(oneDocument(run, valid));
      expect(JSON.parse(wire.editedResultJson!)).toEqual(oneDocument(run, valid));
      // …and the draft is readable apart, in the shape PUT …/results takes.
      expect(JSON.parse(wire.draftResultJson!)).toEqual({ documents: [{ file, data: draft }] });
    }
    const results = await service.request(`${runPath}/results?format=json`);
    expect(await results.json()).toEqual(oneDocument(run, valid));
    const graphql = await service.json('POST', '/api/graphql', {
      query: `{ run(id: "${run.id}") { documents { data } draftResultJson } }`,
    });
    expect(await graphql.json()).toEqual({
      data: {
        run: {
          documents: [{ data: JSON.stringify(valid) }],
          draftResultJson: JSON.stringify({ documents: [{ file, data: draft }] }),
        },
      },
    });

    const refused = await service.json('POST', `${runPath}/submit`);
    const problem = await expectProblem(refused, 422);
    expect(problem.errors!.map((error) => error.pointer).sort()).toEqual([
      '/documents/0/data/invoice_number',
      '/documents/0/data/total',
    ]);
    expect(problem.errors![0]!.detail).toContain('orlen.txt');

    // A record the schema accepts, through either address, replaces the draft.
    const fixed = await service.json('PUT', `${runPath}/results`, {
      documents: [{ file, data: { invoice_number: 'F 8', total: 301 } }],
    });
    const fixedRun = runSchema.parse(await fixed.json());
    expect(fixedRun.draftResultJson).toBeNull();
    expect(JSON.parse(fixedRun.data!)).toEqual(
      oneDocument(run, { invoice_number: 'F 8', total: 301 }),
    );
    await service.json('PUT', documentPath, draft);
    const again = await service.json('PUT', documentPath, { invoice_number: 'F 9', total: 1 });
    expect(runSchema.parse(await again.json()).draftResultJson).toBeNull();
    expect((await service.json('POST', `${runPath}/submit`)).status).toBe(200);
  });
});

describe('results and submission: submitting', () => {
  it('submits one run per bucket unless the extractor allows more', async () => {
    const bucketId = await bucketWithFile();
    const first = await startRun(bucketId);
    await settleDocuments(first, 'completed', [{ data: { invoice_number: 'A', total: 1 } }]);
    const second = await startRun(bucketId);
    await settleDocuments(second, 'completed', [{ data: { invoice_number: 'B', total: 2 } }]);
    expect((await service.json('POST', `/api/extraction_runs/${first.id}/submit`)).status).toBe(
      200,
    );
    const refused = await service.json('POST', `/api/extraction_runs/${second.id}/submit`);
    const problem = await expectProblem(refused, 409);
    expect(problem.detail).toContain('already been submitted');
    const unchanged = runSchema.parse(
      await (await service.json('GET', `/api/extraction_runs/${second.id}`)).json(),
    );
    expect(unchanged.submittedAt).toBeNull();

    const lenient = await createExtractor({ allowResubmission: true });
    const extractor = (await (await service.json('GET', `/api/extractors/${lenient}`)).json()) as {
      allowResubmission: boolean;
    };
    expect(extractor.allowResubmission).toBe(true);
    const third = await startRun(bucketId, lenient);
    await settleDocuments(third, 'completed', [{ data: { invoice_number: 'C', total: 3 } }]);
    expect((await service.json('POST', `/api/extraction_runs/${third.id}/submit`)).status).toBe(
      200,
    );
    // Still once per run.
    expect((await service.json('POST', `/api/extraction_runs/${third.id}/submit`)).status).toBe(
      409,
    );
  });

  it('submits once and answers with the redirect address', async () => {
    const run = await completedRun();
    const response = await service.json('POST', `/api/extraction_runs/${run.id}/submit`);
    expect(response.status).toBe(200);
    const submission = submissionSchema.parse(await response.json());
    expect(submission.redirectUrl).toBe('https://partner.example/done');
    expect(submission.run).toBe(`/api/runs/${run.id}`);

    const again = await service.json('POST', `/api/extraction_runs/${run.id}/submit`);
    expect(again.status).toBe(409);
    const edit = await service.json('PUT', `/api/extraction_runs/${run.id}/results`, {
      documents: [{ file: run.documents[0]!.file, data: { invoice_number: 'x', total: 1 } }],
    });
    expect(edit.status).toBe(409);
    const wire = runSchema.parse(await (await service.json('GET', `/api/runs/${run.id}`)).json());
    expect(wire.submittedAt).toBe(submission.submittedAt);
  });

  it('cannot submit a run that has not completed', async () => {
    const run = await startRun(await bucketWithFile());
    const response = await service.json('POST', `/api/extraction_runs/${run.id}/submit`);
    expect(response.status).toBe(409);
    expect(((await response.json()) as { currentStatus: string }).currentStatus).toBe('queued');
  });
});

describe('the event stream', () => {
  it('sends a snapshot, then each change, ends at a final status and replays from Last-Event-ID', async () => {
    const run = await startRun(await bucketWithFile());
    await forceStatus(run.id, 'running');
    const stream = await service.request(`/api/extraction_runs/${run.id}/events`, {
      headers: { Accept: 'text/event-stream' },
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    const pause = service.json('POST', `/api/extraction_runs/${run.id}/pause`);
    const events = await readEvents(stream, (seen) =>
      seen.some((event) => event.event === 'extraction_run.paused'),
    );
    expect((await pause).status).toBe(200);
    expect(events[0]).toMatchObject({
      event: 'snapshot',
      data: { status: 'running', run: `/api/runs/${run.id}` },
    });
    const paused = events.find((event) => event.event === 'extraction_run.paused')!;
    expect(paused.data).toMatchObject({ status: 'paused' });

    await service.json('POST', `/api/extraction_runs/${run.id}/cancel`);
    const replay = await service.request(`/api/extraction_runs/${run.id}/events`, {
      headers: { 'Last-Event-ID': paused.id! },
    });
    const rest = await readEvents(replay, () => false);
    expect(rest.map((event) => event.event)).toEqual(['snapshot', 'extraction_run.cancelled']);
  });

  it('answers 204 to a reconnect after the last event of a final run, so EventSource stops', async () => {
    const run = await startRun(await bucketWithFile());
    await forceStatus(run.id, 'running');
    await service.json('POST', `/api/extraction_runs/${run.id}/cancel`);
    const first = await service.request(`/api/extraction_runs/${run.id}/events`, {
      headers: { Accept: 'text/event-stream' },
    });
    const events = await readEvents(first, () => false);
    // The snapshot stands for the run's events so far, and carries the last one's id.
    expect(events.map((event) => event.event)).toEqual(['snapshot']);
    const last = events.at(-1)!.id!;
    const resumes: [string, Record<string, string>][] = [
      ['', { 'Last-Event-ID': last }],
      [`?lastEventId=${last}`, {}],
    ];
    for (const [query, headers] of resumes) {
      const reconnect = await service.request(`/api/extraction_runs/${run.id}/events${query}`, {
        headers: { Accept: 'text/event-stream', ...headers },
      });
      expect(reconnect.status).toBe(204);
      expect(await reconnect.text()).toBe('');
    }
    // Resuming from earlier still replays what was missed.
    const earlier = await service.request(`/api/extraction_runs/${run.id}/events`, {
      headers: { Accept: 'text/event-stream', 'Last-Event-ID': String(Number(last) - 1) },
    });
    expect(earlier.status).toBe(200);
    expect((await readEvents(earlier, () => false)).map((event) => event.event)).toEqual([
      'snapshot',
      'extraction_run.cancelled',
    ]);
  });

  it('accepts an embed session token as access_token, only on this path, and never a personal token', async () => {
    const run = await startRun(await bucketWithFile());
    await forceStatus(run.id, 'cancelled');
    const { adminToken } = await import('../testing/test-service.js');
    const minted = await service.json('POST', '/api/embed_sessions', {
      savedExtractor: `/api/extractors/${extractorId}`,
      bucket: run.bucket,
    });
    expect(minted.status).toBe(201);
    const session = (await minted.json()) as { token: string };
    const viaQuery = await service.request(
      `/api/extraction_runs/${run.id}/events?access_token=${session.token}`,
      { token: null },
    );
    expect(viaQuery.status).toBe(200);
    await viaQuery.body?.cancel();
    const elsewhere = await service.request(
      `/api/extraction_runs/${run.id}?access_token=${session.token}`,
      { token: null },
    );
    expect(elsewhere.status).toBe(401);
    const personal = await service.request(
      `/api/extraction_runs/${run.id}/events?access_token=${adminToken}`,
      { token: null },
    );
    expect(personal.status).toBe(401);
    expect(personal.headers.get('content-type')).toBe('application/problem+json');
    expect(((await personal.json()) as { detail: string }).detail).toMatch(
      /personal access token is not accepted in access_token/,
    );
  });
});
