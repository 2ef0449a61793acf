import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveWebhookTarget } from './address-policy.js';
import { postToTarget } from './pinned-post.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function receiver(
  status: number,
  location?: string,
): Promise<{ port: number; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((request, response) => {
    seen.push(request.headers);
    request.resume();
    request.on('end', () =>
      response.writeHead(status, location ? { location } : {}).end('body of the answer'),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { port: (server.address() as AddressInfo).port, seen };
}

describe('postToTarget', () => {
  it('connects to the checked address instead of resolving the name again', async () => {
    const { port, seen } = await receiver(204);
    // `.invalid` never resolves (RFC 6761): the request can only arrive through the pinned address.
    const target = {
      url: new URL(`http://receiver.invalid:${port}/hook?source=extractor`),
      addresses: [{ address: '127.0.0.1', family: 4 as const }],
      allowPrivate: true,
    };

    const answer = await postToTarget(
      target,
      { 'content-type': 'application/json' },
      '{"a":1}',
      2000,
    );

    expect(answer.status).toBe(204);
    expect(seen[0]).toMatchObject({ host: `receiver.invalid:${port}`, 'content-length': '7' });
  });

  it('does not follow redirects', async () => {
    const { port: elsewhere, seen: elsewhereSeen } = await receiver(204);
    const { port } = await receiver(307, `http://127.0.0.1:${elsewhere}/`);

    const answer = await postToTarget(
      await resolveWebhookTarget(`http://127.0.0.1:${port}/`, true),
      {},
      '{}',
      2000,
    );

    expect(answer).toEqual({ status: 307, bodyStart: 'body of the answer' });
    expect(elsewhereSeen).toEqual([]);
  });
});

describe('resolveWebhookTarget', () => {
  it('pins an address literal as it is', async () => {
    await expect(
      resolveWebhookTarget('https://[2606:4700:4700::1111]:8443/hook', false),
    ).resolves.toMatchObject({
      addresses: [{ address: '2606:4700:4700::1111', family: 6 }],
    });
  });

  it('refuses internal addresses and names unless private addresses are allowed', async () => {
    await expect(resolveWebhookTarget('http://10.0.0.8/hook', false)).rejects.toThrow(/private/);
    await expect(resolveWebhookTarget('http://localhost/hook', false)).rejects.toThrow(/loopback/);
    const allowed = await resolveWebhookTarget('http://localhost/hook', true);
    expect(allowed.addresses.length).toBeGreaterThan(0);
    expect(allowed.addresses.every((entry) => ['127.0.0.1', '::1'].includes(entry.address))).toBe(
      true,
    );
  });
});
