/**
 * The renewals of an embed session belong to it: revoking any token of the session ends
 * them all, a token is renewed once (asked again, it answers the same renewal), and a
 * session never holds more than two live tokens, however often and however fast it is
 * renewed.
 */
import { describe, expect, it } from 'vitest';
import type { EmbedSession } from '../../contract/resources.js';
import {
  createExtractor,
  createSession,
  expectProblem,
  expectUnauthorized,
} from '../testing/fixtures.js';
import { useTestService } from '../testing/test-service.js';

const service = useTestService();

async function mint(): Promise<EmbedSession> {
  const extractor = await createExtractor(service);
  return createSession(service, { savedExtractor: extractor.id, ttlSeconds: 600 });
}

function renew(token: string): Promise<Response> {
  return service.request('/api/embed_sessions/renew', {
    method: 'POST',
    token,
    headers: { Accept: 'application/json' },
  });
}

async function renewed(token: string): Promise<EmbedSession> {
  const response = await renew(token);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as EmbedSession;
}

/** What the service answers `token` when it reads the session's bucket. */
function readBucket(session: EmbedSession, token: string): Promise<Response> {
  return service.request(session.bucket, { token });
}

/** The tokens of the session that began with `minted` that a request may still use. */
async function liveTokensOf(minted: EmbedSession, ...tokens: string[]): Promise<string[]> {
  const live: string[] = [];
  for (const token of tokens)
    if ((await readBucket(minted, token)).status === 200) live.push(token);
  return live;
}

describe('revoking an embed session', () => {
  it('by the id the partner minted ends every renewal, which neither works nor renews', async () => {
    const minted = await mint();
    const second = await renewed(minted.token);
    const third = await renewed(second.token);
    expect((await readBucket(minted, third.token)).status).toBe(200);

    const revoke = await service.request(`/api/embed_sessions/${minted.id}`, { method: 'DELETE' });
    expect(revoke.status).toBe(204);
    for (const token of [minted.token, second.token, third.token]) {
      const problem = await expectUnauthorized(await readBucket(minted, token));
      expect(problem.detail).toMatch(/revoked/);
      await expectUnauthorized(await renew(token));
    }
    // The session is gone as a whole: revoking it again, by any of its ids, finds nothing.
    for (const id of [minted.id, third.id])
      await expectProblem(
        await service.request(`/api/embed_sessions/${id}`, { method: 'DELETE' }),
        404,
      );
  });

  it('by the id of a renewal ends the token minted and the renewal alike', async () => {
    const minted = await mint();
    const renewal = await renewed(minted.token);
    const current = (await (
      await service.json('GET', '/api/embed_sessions/current', undefined, renewal.token)
    ).json()) as { id: string };
    expect(current.id).toBe(renewal.id);

    const revoke = await service.request(`/api/embed_sessions/${renewal.id}`, {
      method: 'DELETE',
    });
    expect(revoke.status).toBe(204);
    await expectUnauthorized(await readBucket(minted, minted.token));
    await expectUnauthorized(await readBucket(minted, renewal.token));
  });

  it('leaves every other session working', async () => {
    const revoked = await mint();
    const other = await mint();
    const otherRenewal = await renewed(other.token);
    await renewed(revoked.token);
    await service.request(`/api/embed_sessions/${revoked.id}`, { method: 'DELETE' });
    expect(await liveTokensOf(other, other.token, otherRenewal.token)).toEqual([
      other.token,
      otherRenewal.token,
    ]);
  });
});

describe('renewing an embed session', () => {
  it('renews a token once: asked again, even many times at once, it answers the same renewal', async () => {
    const minted = await mint();
    const first = await renewed(minted.token);
    const answers = await Promise.all(Array.from({ length: 30 }, () => renewed(minted.token)));
    for (const answer of answers) expect(answer).toEqual(first);
    expect(await liveTokensOf(minted, minted.token, first.token)).toEqual([
      minted.token,
      first.token,
    ]);
    const sessionRows = await service.services.db
      .selectFrom('tokens')
      .select('id')
      .where('bucket_id', '=', minted.bucket.split('/').at(-1)!)
      .execute();
    expect(sessionRows).toHaveLength(2);
  });

  it('keeps two live tokens at most: the newest renewal and the token it renewed', async () => {
    const minted = await mint();
    const tokens = [minted.token];
    for (let step = 0; step < 5; step++) tokens.push((await renewed(tokens.at(-1)!)).token);
    expect(await liveTokensOf(minted, ...tokens)).toEqual(tokens.slice(-2));
    // An older token is over: it has expired, and renews nothing.
    const problem = await expectUnauthorized(await readBucket(minted, tokens[0]!));
    expect(problem.detail).toMatch(/expired/);
    await expectUnauthorized(await renew(tokens[3]!));
    // The token renewed last still gives back its renewal, the newest token.
    expect((await renewed(tokens.at(-2)!)).token).toBe(tokens.at(-1));
  });
});
