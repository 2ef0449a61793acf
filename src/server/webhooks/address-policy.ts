/**
 * Where the service may send webhooks. Only http(s); and, unless WEBHOOK_ALLOW_PRIVATE=1,
 * never to loopback, private, link-local or otherwise internal addresses, so a webhook
 * cannot be used to reach into the network the service runs in (SSRF). Names are checked
 * when an extractor is saved, their resolved addresses again at every delivery, and the
 * address a delivery's connection reached once more (pinned-post.ts).
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The IPv4 address that an IPv6 address stands for, in the forms that carry one: mapped
 * (::ffff:a.b.c.d), translated (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64
 * (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::). Each reaches that IPv4 address, so each
 * is judged as that address would be. `null` for a form that hides where it leads (Teredo,
 * NAT64's local-use prefix), which is refused.
 */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | null | undefined {
  const bytes = address.toByteArray();
  const ipv4 = (from: number) => new ipaddr.IPv4(bytes.slice(from, from + 4));
  switch (address.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return ipv4(12);
    case 'rfc6052':
      // The well-known prefix 64:ff9b::/96 only; 64:ff9b:1::/48 is for a network's own use.
      return bytes.slice(4, 12).every((byte) => byte === 0) ? ipv4(12) : null;
    case '6to4':
      return ipv4(2);
    case 'teredo':
      return null;
  }
  // IPv4-compatible (deprecated by RFC 4291, but stacks that still route it exist).
  if (bytes.slice(0, 12).every((byte) => byte === 0) && !['::', '::1'].includes(address.toString()))
    return ipv4(12);
  return undefined;
}

/**
 * Whether an address literal is one a webhook may not reach: anything but a public unicast
 * address (loopback, private, link-local, carrier-grade NAT, multicast, reserved, unique
 * local, site-local…), judged by ipaddr.js on the address itself, not on how it is written.
 * A name is not an address, and is judged by what it resolves to.
 */
export function isInternalAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!isIP(bare)) return false;
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv6') {
    const embedded = embeddedIpv4(parsed as ipaddr.IPv6);
    if (embedded === null) return true;
    if (embedded) return embedded.range() !== 'unicast';
  }
  return parsed.range() !== 'unicast';
}

const internalNames = /(^|\.)(localhost|local|internal|localdomain)$/i;

/** Why a webhook address may not be used, judged without DNS; `undefined` when it may. */
export function webhookUrlProblem(value: string, allowPrivate: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute http or https address';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must use http or https';
  if (url.username || url.password) return 'must not carry a user name or password';
  if (allowPrivate) return undefined;
  const host = url.hostname;
  if (internalNames.test(host) || isInternalAddress(host)) {
    return 'must not point at a loopback, private or link-local address';
  }
  return undefined;
}

/**
 * Where a webhook delivery connects: the URL and the addresses its name resolved to when
 * they were checked. The request must connect to these addresses and not resolve the name
 * again, or a name that answers with a public address for the check and a private one for
 * the connection (DNS rebinding) would slip past the policy.
 */
export interface WebhookTarget {
  url: URL;
  addresses: { address: string; family: 4 | 6 }[];
  /** WEBHOOK_ALLOW_PRIVATE: the connection checks the policy again unless it is set. */
  allowPrivate: boolean;
}

/** Resolves a webhook address and checks every address the name has against the policy. */
export async function resolveWebhookTarget(
  value: string,
  allowPrivate: boolean,
): Promise<WebhookTarget> {
  const problem = webhookUrlProblem(value, allowPrivate);
  if (problem) throw new Error(`webhookUrl ${problem}`);
  const url = new URL(value);
  const bare = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(bare);
  if (literal === 4 || literal === 6)
    return { url, addresses: [{ address: bare, family: literal }], allowPrivate };
  const resolved = await lookup(bare, { all: true });
  if (resolved.length === 0) throw new Error(`webhookUrl ${bare} does not resolve to any address`);
  if (!allowPrivate && resolved.some((entry) => isInternalAddress(entry.address))) {
    throw new Error(`webhookUrl ${bare} resolves to an internal address`);
  }
  return {
    url,
    addresses: resolved.map((entry) => ({
      address: entry.address,
      family: entry.family === 6 ? 6 : 4,
    })),
    allowPrivate,
  };
}
