/**
 * Where the service may send webhooks. Only http(s); and, unless WEBHOOK_ALLOW_PRIVATE=1,
 * never to loopback, private, link-local or otherwise internal addresses, so a webhook
 * cannot be used to reach into the network the service runs in (SSRF). Names are checked
 * when an extractor is saved and their resolved addresses again at every delivery.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

function ipv4Parts(address: string): number[] | undefined {
  const parts = address.split('.').map(Number);
  return parts.length === 4 &&
    parts.every((part) => Number.isInteger(part) && part >= 0 && part <= 255)
    ? parts
    : undefined;
}

export function isInternalAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  if (mapped) return isInternalAddress(mapped[1]!);
  const v4 = ipv4Parts(bare);
  if (v4) {
    const [a, b] = v4 as [number, number, number, number];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 198 && (b === 18 || b === 19)) ||
      a >= 224
    );
  }
  if (isIP(bare) === 6) {
    return (
      bare === '::' ||
      bare === '::1' ||
      bare.startsWith('fe8') ||
      bare.startsWith('fe9') ||
      bare.startsWith('fea') ||
      bare.startsWith('feb') ||
      bare.startsWith('fc') ||
      bare.startsWith('fd') ||
      bare.startsWith('ff')
    );
  }
  return false;
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
    return { url, addresses: [{ address: bare, family: literal }] };
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
  };
}
