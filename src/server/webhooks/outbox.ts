/**
 * The webhook outbox: every event an extractor's webhook should hear about becomes a row of
 * `webhook_deliveries`, written in the same transaction as the change it reports. A change
 * that commits therefore always gets its webhook (the dispatcher sends it, even after a
 * restart), and one that rolls back never does. The row's id is the Standard Webhooks
 * `webhook-id`, fixed here, so every retry of one message carries the same id.
 */
import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import {
  webhookEventTypes,
  webhookPayloadSchema,
  type WebhookEventType,
} from '../../contract/events.js';
import { iriOf } from '../../contract/iri.js';
import type { ExtractorRow } from '../extractors/extractors.js';
import type { RunDocumentRow } from '../runs/documents.js';
import { runEventData } from '../runs/events.js';
import { effectiveResultJson, type RunRow } from '../runs/runs.js';
import { databaseTime } from '../store/clock.js';
import type { Database } from '../store/schema.js';

let lastMessageMs = 0;
let messageSequence = 0;

/**
 * `msg_` + 12 hex digits of milliseconds + a 4-digit sequence + 64 random bits. Ids made by
 * one process sort in the order they were made, even within a millisecond; across processes
 * a run's deliveries are ordered by `run_sequence` instead (enqueueWebhook).
 */
export function newMessageId(now = Date.now()): string {
  if (now > lastMessageMs) {
    lastMessageMs = now;
    messageSequence = 0;
  } else if (++messageSequence > 0xffff) {
    // More than 65,536 ids in one millisecond: borrow the next one rather than repeat an order.
    lastMessageMs++;
    messageSequence = 0;
  }
  const time = lastMessageMs.toString(16).padStart(12, '0');
  const sequence = messageSequence.toString(16).padStart(4, '0');
  return `msg_${time}${sequence}${randomBytes(8).toString('hex')}`;
}

function isWebhookEventType(type: string): type is WebhookEventType {
  return (webhookEventTypes as readonly string[]).includes(type);
}

/**
 * Adds a delivery to the outbox in the caller's transaction. A no-op unless the extractor has
 * webhooks enabled and an address, and for the stream-only events (`resumed`,
 * `results_changed`). The payload is a snapshot of the run now: a retry a day later still
 * says what happened then. Its run, bucket and extractor references are IRIs relative to the
 * service, as in every other representation of a run.
 *
 * The delivery is numbered after the run's last one (`run_sequence`), and the dispatcher
 * sends a run's deliveries in that order. The numbering is exact because the caller
 * (recordRunEvent) has locked the run's row in this transaction by updating it first.
 */
export async function enqueueWebhook(
  db: Kysely<Database> | Transaction<Database>,
  event: {
    type: WebhookEventType;
    extractor: ExtractorRow;
    run: RunRow;
    document?: RunDocumentRow;
  },
): Promise<void> {
  const { type, extractor, run, document } = event;
  if (extractor.enable_webhook !== 1 || !extractor.webhook_url || !isWebhookEventType(type)) return;
  const now = new Date();
  const payload = webhookPayloadSchema.parse({
    type,
    timestamp: now.toISOString(),
    data: {
      ...runEventData(run, document),
      bucket: iriOf('bucket', run.bucket_id),
      savedExtractor: iriOf('extractor', run.extractor_id),
      resultJson: effectiveResultJson(run),
      ...(type === 'extraction_run.submitted' && extractor.redirect_url
        ? { redirectUrl: extractor.redirect_url }
        : {}),
    },
  });
  await db
    .insertInto('webhook_deliveries')
    .values({
      id: newMessageId(now.getTime()),
      extractor_id: extractor.id,
      run_id: run.id,
      event_type: type,
      payload: JSON.stringify(payload),
      status: 'pending',
      attempts: 0,
      // Due at once, by the clock the dispatchers judge it by.
      next_attempt_at: databaseTime(db),
      last_attempt_at: null,
      last_status_code: null,
      last_error: null,
      created_at: now.toISOString(),
      delivered_at: null,
      run_sequence: sql<number>`(select coalesce(max(run_sequence), 0) + 1 from webhook_deliveries where run_id = ${run.id})`,
    })
    .execute();
}

/**
 * The wait before each attempt, as Standard Webhooks producers commonly schedule it:
 * immediately, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, eight attempts over about
 * 27 hours, so a receiver that is down for a day still gets everything.
 */
export const attemptDelaysMs = [
  0,
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
] as const;

/**
 * How long to wait after `attemptsMade` failed attempts, or `undefined` when they are used up.
 * ±20% jitter spreads the retries of many deliveries that failed together (a receiver that
 * was down) so they do not all arrive in the same second when it comes back.
 */
export function retryDelayMs(
  attemptsMade: number,
  scale: number,
  random = Math.random,
): number | undefined {
  const base = attemptDelaysMs[attemptsMade];
  if (base === undefined) return undefined;
  return Math.round(base * scale * (0.8 + 0.4 * random()));
}
