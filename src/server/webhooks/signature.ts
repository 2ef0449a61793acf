/**
 * Webhook signatures as the Standard Webhooks specification defines them
 * (https://www.standardwebhooks.com/): the signed content is `{webhook-id}.{webhook-timestamp}.{body}`,
 * signed with HMAC-SHA256 under the base64-decoded part of the `whsec_…` secret, and sent as
 * `webhook-signature: v1,<base64 signature>` (several, space-separated, while a rotated
 * secret overlaps the new one). Receivers verify with any Standard Webhooks
 * library and reject timestamps too far from their clock, which stops replays.
 */
import { createHmac } from 'node:crypto';

const secretPrefix = 'whsec_';

export function webhookSigningKey(secret: string): Buffer {
  return Buffer.from(
    secret.startsWith(secretPrefix) ? secret.slice(secretPrefix.length) : secret,
    'base64',
  );
}

export function signWebhook(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  const signature = createHmac('sha256', webhookSigningKey(secret))
    .update(`${id}.${timestampSeconds}.${body}`)
    .digest('base64');
  return `v1,${signature}`;
}

/**
 * The three Standard Webhooks headers of one attempt; the timestamp is the attempt's own.
 * Each secret signs: while a rotated secret still overlaps the new one, the signature
 * header holds both, space-separated, and a receiver that knows either accepts it.
 */
export function webhookHeaders(
  secrets: readonly [string, ...string[]],
  id: string,
  body: string,
  now = Date.now(),
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const timestamp = Math.floor(now / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets
      .map((secret) => signWebhook(secret, id, timestamp, body))
      .join(' '),
  };
}
