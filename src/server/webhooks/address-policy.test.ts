/**
 * The webhook address policy on addresses however they are written: every IPv6 form that
 * carries an internal IPv4 address (mapped, translated, IPv4-compatible, NAT64, 6to4) and
 * the internal IPv6 ranges are refused when an extractor is saved, when a delivery
 * resolves its target, and when it connects, so a signed POST cannot reach loopback.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../testing/test-service.js';
import { isInternalAddress, resolveWebhookTarget, webhookUrlProblem } from './address-policy.js';
import { postToTarget } from './pinned-post.js';
import { webhookHeaders } from './signature.js';

/** Internal addresses, each as an IPv6 form would carry it. */
const refused: [form: string, url: string][] = [
  ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]:8080/hook'],
  ['IPv4-mapped loopback, in hex', 'http://[::ffff:7f00:1]/hook'],
  ['IPv4-mapped cloud metadata', 'http://[::ffff:169.254.169.254]/latest/meta-data'],
  ['IPv4-mapped 10/8', 'http://[::ffff:10.1.2.3]/hook'],
  ['IPv4-mapped 192.168/16', 'http://[::ffff:192.168.1.1]/hook'],
  ['IPv4-mapped 172.16/12', 'http://[0:0:0:0:0:ffff:ac10:0001]/hook'],
  ['IPv4-translated loopback', 'http://[::ffff:0:127.0.0.1]/hook'],
  ['IPv4-compatible loopback', 'http://[::127.0.0.1]/hook'],
  ['IPv4-compatible metadata, in hex', 'http://[::a9fe:a9fe]/hook'],
  ['NAT64 of loopback', 'http://[64:ff9b::127.0.0.1]/hook'],
  ['NAT64 of 10/8', 'http://[64:ff9b::a00:1]/hook'],
  ['NAT64 local-use prefix', 'http://[64:ff9b:1::8.8.8.8]/hook'],
  ['6to4 of loopback', 'http://[2002:7f00:1::1]/hook'],
  ['6to4 of 192.168/16', 'http://[2002:c0a8:101::]/hook'],
  ['Teredo', 'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook'],
  ['site-local', 'http://[fec0::1]/hook'],
  ['unique local', 'http://[fd00::1]/hook'],
  ['link-local', 'http://[fe80::1]/hook'],
  ['loopback', 'http://[::1]/hook'],
  ['unspecified', 'http://[::]/hook'],
  ['IPv4 loopback as a number', 'http://2130706433/hook'],
  ['IPv4 loopback, short', 'http://127.1/hook'],
  ['carrier-grade NAT', 'http://100.64.0.1/hook'],
  ['broadcast', 'http://255.255.255.255/hook'],
];

describe('webhookUrlProblem', () => {
  it.each(refused)('refuses %s', (_, url) => {
    expect(webhookUrlProblem(url, false)).toBe(
      'must not point at a loopback, private or link-local address',
    );
  });

  it.each([
    ['a public IPv4 address', 'https://8.8.8.8/hook'],
    ['a public IPv6 address', 'https://[2606:4700:4700::1111]/hook'],
    ['a public address, IPv4-mapped', 'https://[::ffff:8.8.8.8]/hook'],
    ['a public address through NAT64', 'https://[64:ff9b::808:808]/hook'],
    ['a name', 'https://hooks.partner.example/extractor'],
  ])('accepts %s', (_, url) => {
    expect(webhookUrlProblem(url, false)).toBeUndefined();
  });

  it('accepts internal addresses when WEBHOOK_ALLOW_PRIVATE is set', () => {
    expect(webhookUrlProblem('http://[::ffff:127.0.0.1]:8080/hook', true)).toBeUndefined();
  });
});

describe('isInternalAddress, on what a name resolves to', () => {
  it('judges resolved addresses as they come from DNS', () => {
    expect(isInternalAddress('::ffff:10.0.0.1')).toBe(true);
    expect(isInternalAddress('2002:a00:1::1')).toBe(true);
    expect(isInternalAddress('93.184.215.14')).toBe(false);
    expect(isInternalAddress('example.com')).toBe(false);
  });
});

describe('a signed POST to loopback written as IPv4-mapped IPv6', () => {
  let port: number;
  const received: string[] = [];
  const receiver = createServer((request, response) => {
    received.push(String(request.headers['webhook-signature']));
    request.resume();
    response.writeHead(204).end();
  });
  let service: TestService;

  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    port = (receiver.address() as AddressInfo).port;
    service = await startTestService({ WEBHOOK_ALLOW_PRIVATE: '0' });
  });
  afterAll(async () => {
    await service.dispose();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('is refused when the extractor is saved', async () => {
    const response = await service.json('POST', '/api/extractors', {
      label: 'Mapped loopback',
      jsonSchema: JSON.stringify({ type: 'object', properties: { n: { type: 'string' } } }),
      enableWebhook: true,
      webhookUrl: `http://[::ffff:127.0.0.1]:${port}/hook`,
    });
    expect(response.status).toBe(422);
    expect(JSON.stringify(await response.json())).toContain(
      'must not point at a loopback, private or link-local address',
    );
  });

  it('is refused when a delivery resolves its target', async () => {
    await expect(
      resolveWebhookTarget(`http://[::ffff:127.0.0.1]:${port}/hook`, false),
    ).rejects.toThrow('must not point at a loopback');
  });

  it('never reaches the receiver, even with a target made without the check', async () => {
    const body = '{"type":"extraction_run.completed"}';
    const headers = {
      'content-type': 'application/json',
      ...webhookHeaders(['whsec_dGVzdA=='], 'msg_1', body),
    };
    for (const address of ['::ffff:7f00:1', '127.0.0.1']) {
      const target = {
        url: new URL(`http://[::ffff:127.0.0.1]:${port}/hook`),
        addresses: [{ address, family: address.includes(':') ? (6 as const) : (4 as const) }],
        allowPrivate: false,
      };
      await expect(postToTarget(target, headers, body, 2000)).rejects.toThrow(
        /loopback, private or link-local/,
      );
    }
    const named = {
      url: new URL(`http://receiver.invalid:${port}/hook`),
      addresses: [{ address: '::ffff:127.0.0.1', family: 6 as const }],
      allowPrivate: false,
    };
    await expect(postToTarget(named, headers, body, 2000)).rejects.toThrow();
    expect(received).toEqual([]);
  });
});
