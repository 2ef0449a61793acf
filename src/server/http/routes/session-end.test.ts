/**
 * The end of an embed session: revoked or expired, its token answers 401 and its open event
 * streams end.
 */
import { describe, expect, it } from 'vitest';
import {
  createExtractor,
  createSession,
  expectProblem,
  expectUnauthorized,
  insertRun,
} from '../../testing/fixtures.js';
import { useTestService } from '../../testing/test-service.js';

const service = useTestService();

describe('the end of a session', () => {
  /**
   * Opens the event stream of a running run of a new session, as EventSource does (the
   * token in the address), and reads its snapshot.
   */
  async function openStream() {
    const extractor = await createExtractor(service);
    const session = await createSession(service, { savedExtractor: extractor.id });
    const run = await insertRun(service, {
      bucketId: session.bucket.split('/').at(-1)!,
      extractorId: extractor.id,
      status: 'running',
    });
    const response = await service.request(
      `/api/extraction_runs/${run.id}/events?access_token=${session.token}`,
      { token: null, headers: { Accept: 'text/event-stream' } },
    );
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('event: snapshot');
    return { session, reader };
  }

  /** Settles once the stream is done: reads on until then. */
  async function end(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<true> {
    while (!(await reader.read()).done);
    return true;
  }

  /** Whether `ended` settles within `ms`. */
  function within(ended: Promise<true>, ms: number): Promise<boolean> {
    const deadline = new Promise<false>((resolve) => setTimeout(() => resolve(false), ms));
    return Promise.race([ended, deadline]);
  }

  /** Whether the stream ends within `ms`; it is cancelled when it does not. */
  async function endsWithin(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number) {
    const ended = await within(end(reader), ms);
    if (!ended) await reader.cancel();
    return ended;
  }

  it('ends the open event streams of a revoked session within five seconds, and only then', async () => {
    const { session, reader } = await openStream();
    const ended = end(reader);
    // Past a check of the token (every two seconds), a live session's stream stays open.
    expect(await within(ended, 2_500)).toBe(false);
    const revoke = await service.request(`/api/embed_sessions/${session.id}`, { method: 'DELETE' });
    expect(revoke.status).toBe(204);
    expect(await within(ended, 5_000)).toBe(true);
  });

  it('ends the open event streams of a session within five seconds of its expiry', async () => {
    const { session, reader } = await openStream();
    await service.services.db
      .updateTable('tokens')
      .set({ expires_at: new Date(Date.now() + 500).toISOString() })
      .where('id', '=', session.id)
      .execute();
    expect(await endsWithin(reader, 5_500)).toBe(true);
  });

  it('answers 401 with a Bearer challenge once the session has expired', async () => {
    const extractor = await createExtractor(service);
    const session = await createSession(service, { savedExtractor: extractor.id });
    const bucketPath = session.bucket;
    expect((await service.request(bucketPath, { token: session.token })).status).toBe(200);
    await service.services.db
      .updateTable('tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', session.id)
      .execute();
    for (const path of [
      bucketPath,
      `/api/extractors/${extractor.id}`,
      '/api/embed_sessions/current',
      '/api/buckets',
    ]) {
      const problem = await expectUnauthorized(
        await service.request(path, { token: session.token }),
      );
      expect(problem.detail).toMatch(/expired/);
    }
  });

  it('answers 401 once revoked; revoking twice or revoking a personal token here answers 404', async () => {
    const extractor = await createExtractor(service);
    const session = await createSession(service, { savedExtractor: extractor.id });
    const revoke = await service.request(`/api/embed_sessions/${session.id}`, { method: 'DELETE' });
    expect(revoke.status).toBe(204);
    const problem = await expectUnauthorized(
      await service.request(session.bucket, { token: session.token }),
    );
    expect(problem.detail).toMatch(/revoked/);
    await expectProblem(
      await service.request(`/api/embed_sessions/${session.id}`, { method: 'DELETE' }),
      404,
    );
    const personal = await service.services.db
      .selectFrom('tokens')
      .select('id')
      .where('kind', '=', 'personal')
      .executeTakeFirstOrThrow();
    await expectProblem(
      await service.request(`/api/embed_sessions/${personal.id}`, { method: 'DELETE' }),
      404,
    );
    expect((await service.request('/api/buckets')).status).toBe(200);
  });
});
