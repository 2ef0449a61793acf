/**
 * Where a run's event stream begins, and how many a token may hold open: a client that
 * names no event gets the run as it is, once, instead of its history again; one that names
 * an event past the run's last gets the same rather than a silent stream; a token holds a
 * few streams, not hundreds.
 */
import { describe, expect, it, vi } from 'vitest';
import { eventStreamsPerToken } from '../http/stream-slots.js';
import { readEvents } from '../testing/event-stream.js';
import {
  createExtractor,
  createSession,
  expectProblem,
  insertRun,
  insertRunOfNew,
} from '../testing/fixtures.js';
import { useTestService } from '../testing/test-service.js';
import { createPersonalToken } from '../tokens/tokens.js';
import type { RunRow } from '../runs/runs.js';

const service = useTestService();

function openStream(run: RunRow, headers: Record<string, string> = {}, token?: string) {
  return service.request(
    `/api/extraction_runs/${run.id}/events${token ? `?access_token=${token}` : ''}`,
    { headers: { Accept: 'text/event-stream', ...headers }, ...(token ? { token: null } : {}) },
  );
}

async function command(run: RunRow, name: 'pause' | 'resume' | 'cancel') {
  const response = await service.json('POST', `/api/extraction_runs/${run.id}/${name}`);
  expect(response.status, `${name}: ${await response.clone().text()}`).toBe(200);
}

/** A running run that has been paused, resumed and paused again: three events so far. */
async function runWithHistory() {
  const { run } = await insertRunOfNew(service, { status: 'running' });
  await command(run, 'pause');
  await command(run, 'resume');
  // Resumed, it is queued; the worker is off in these tests, so it is set working by hand.
  await service.services.db
    .updateTable('runs')
    .set({ status: 'running' })
    .where('id', '=', run.id)
    .execute();
  await command(run, 'pause');
  const history = await readEvents(await openStream(run, { 'Last-Event-ID': '0' }), (seen) =>
    seen.some((event) => event.event === 'extraction_run.paused' && seen.length > 3),
  );
  const lastId = history.at(-1)!.id!;
  return { run, lastId };
}

describe('where a run’s event stream begins', () => {
  it('without Last-Event-ID: a snapshot carrying the last event’s id, then only what happens next', async () => {
    const { run, lastId } = await runWithHistory();
    const stream = await openStream(run);
    expect(stream.status).toBe(200);
    const cancel = command(run, 'cancel');
    const events = await readEvents(stream);
    await cancel;
    // Not the pauses and the resume again: the snapshot stands for them.
    expect(events.map((event) => event.event)).toEqual(['snapshot', 'extraction_run.cancelled']);
    expect(events[0]).toMatchObject({ id: lastId, data: { status: 'paused' } });
    // Reconnecting after the end, with the id EventSource kept, stops it.
    const reconnect = await openStream(run, { 'Last-Event-ID': events.at(-1)!.id! });
    expect(reconnect.status).toBe(204);
  });

  it('with Last-Event-ID 0: the whole history, after a snapshot without an id', async () => {
    const { run } = await runWithHistory();
    await command(run, 'cancel');
    const events = await readEvents(await openStream(run, { 'Last-Event-ID': '0' }));
    expect(events.map((event) => [event.event, event.id === undefined])).toEqual([
      ['snapshot', true],
      ['extraction_run.paused', false],
      ['extraction_run.resumed', false],
      ['extraction_run.paused', false],
      ['extraction_run.cancelled', false],
    ]);
  });

  it('with a Last-Event-ID past the run’s last event: the snapshot, then what happens next, never silence', async () => {
    const { run, lastId } = await runWithHistory();
    for (const resume of [
      { 'Last-Event-ID': '999999999999999' },
      { 'Last-Event-ID': String(Number(lastId) + 1) },
    ]) {
      const events = await readEvents(await openStream(run, resume), (seen) => seen.length > 0);
      expect(events[0]).toMatchObject({ event: 'snapshot', id: lastId });
    }
    const stream = await openStream(run, { 'Last-Event-ID': '999999999999999' });
    const cancel = command(run, 'cancel');
    const events = await readEvents(stream);
    await cancel;
    expect(events.map((event) => event.event)).toEqual(['snapshot', 'extraction_run.cancelled']);
  });

  it('of a settled run, without Last-Event-ID: the snapshot alone, whose id then answers 204', async () => {
    const { run } = await runWithHistory();
    await command(run, 'cancel');
    const events = await readEvents(await openStream(run));
    expect(events.map((event) => event.event)).toEqual(['snapshot']);
    expect(events[0]!.data).toMatchObject({ status: 'cancelled' });
    expect((await openStream(run, { 'Last-Event-ID': events[0]!.id! })).status).toBe(204);
  });
});

describe('the event streams of one token', () => {
  it(`are ${eventStreamsPerToken.session} at most for a session; another answers 429 until one closes`, async () => {
    const extractor = await createExtractor(service);
    const session = await createSession(service, { savedExtractor: extractor.id });
    const run = await insertRun(service, {
      bucketId: session.bucket.split('/').at(-1)!,
      extractorId: extractor.id,
      status: 'running',
    });
    const readers: ReadableStreamDefaultReader<Uint8Array>[] = [];
    for (let index = 0; index < eventStreamsPerToken.session; index++) {
      const stream = await openStream(run, {}, session.token);
      expect(stream.status).toBe(200);
      readers.push(stream.body!.getReader());
      await readers.at(-1)!.read(); // its snapshot
    }
    const refused = await openStream(run, {}, session.token);
    expect(refused.status).toBe(429); // before reading on: a stream would not end
    const problem = await expectProblem(refused, 429);
    expect(problem.type).toBe('/api/docs#problem-too-many-requests');
    expect(problem.detail).toMatch(/4 event streams open/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another token is not held back by this one's streams.
    const personal = await openStream(run);
    expect(personal.status).toBe(200);
    await personal.body!.cancel();

    // A stream the client closes gives its place back.
    await readers.pop()!.cancel();
    await vi.waitFor(async () => {
      const again = await openStream(run, {}, session.token);
      expect(again.status).toBe(200);
      readers.push(again.body!.getReader());
    });
    await Promise.all(readers.map((reader) => reader.cancel()));
  });

  it(`are ${eventStreamsPerToken.personal} at most for a personal access token`, async () => {
    const { run } = await insertRunOfNew(service, { status: 'running' });
    // A token of its own, which no other test's streams hold places of.
    const { token } = await createPersonalToken(service.services.db, 'streams');
    const open = () =>
      service.request(`/api/extraction_runs/${run.id}/events`, {
        token,
        headers: { Accept: 'text/event-stream' },
      });
    const streams: Response[] = [];
    for (let index = 0; index < eventStreamsPerToken.personal; index++) {
      const stream = await open();
      expect(stream.status).toBe(200);
      streams.push(stream);
    }
    const refused = await open();
    expect(refused.status).toBe(429);
    await expectProblem(refused, 429);
    await Promise.all(streams.map((stream) => stream.body!.cancel()));
  });
});
