/**
 * Sends the outbox. A dispatcher wakes when kicked (after a transaction that enqueued a
 * delivery has committed, in this process or, through the signals, another), when the next
 * retry is due, and at least every WORKER_POLL_MS. Due deliveries are claimed in one
 * transaction: on PostgreSQL the rows are locked with SKIP LOCKED, so dispatchers in any
 * number of processes each take different ones without waiting on each other, and one
 * delivery is never sent by two at once. A claim is a lease (next_attempt_at moved past the
 * attempt's deadline), so a delivery whose process died is tried again once the lease runs
 * out, with the same webhook-id. Every time is the database's (store/clock.ts), so
 * machines whose clocks disagree still agree on when a lease ends.
 *
 * A run's deliveries go out one at a time in the order they were made (`run_sequence`):
 * only the oldest pending delivery of a run is ever due. A receiver that is down therefore
 * gets a run's events in order once it is back, after the retry of the first.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { extractorColumns } from '../extractors/extractors.js';
import { databaseTime, dialectOf } from '../store/clock.js';
import { nowIso } from '../store/ids.js';
import type { Db } from '../store/database.js';
import { within } from '../time-limit.js';
import { resolveWebhookTarget } from './address-policy.js';
import { retryDelayMs } from './outbox.js';
import { postToTarget } from './pinned-post.js';
import { webhookHeaders } from './signature.js';

export interface WebhookDispatcher {
  /** Look for due deliveries now; call it after committing a transaction that enqueued one. */
  kick(): void;
  /** Stops polling and waits for the attempts in flight, so shutdown and tests end cleanly. */
  stop(): Promise<void>;
}

/** Attempts in flight at once per dispatcher; webhooks are small, receivers are slow. */
const parallelAttempts = 4;
/**
 * Beyond the address lookup and the request, each limited to WEBHOOK_TIMEOUT_MS, the time a
 * claim allows for the bookkeeping around them: the lease is twice the timeout and this.
 */
const leaseMarginMs = 5_000;
const userAgent = 'Extractor-Webhooks/0.1 (+https://www.standardwebhooks.com/)';

interface ClaimedDelivery {
  id: string;
  extractor_id: string;
  payload: string;
  /** Counting this one. */
  attempts: number;
}

/** The current secret, and the one it replaced while that still overlaps it. */
function signingSecrets(extractor: {
  webhook_secret: string;
  previous_webhook_secret: string | null;
  previous_webhook_secret_until: string | null;
}): [string, ...string[]] {
  const { previous_webhook_secret: previous, previous_webhook_secret_until: until } = extractor;
  return previous && until && until > nowIso()
    ? [extractor.webhook_secret, previous]
    : [extractor.webhook_secret];
}

/** What an attempt needs of the dispatcher that makes it. */
interface DeliveryContext {
  db: Db;
  logger: Logger;
  timeoutMs: number;
  retryScale: number;
  allowPrivate: boolean;
}

/** A pending delivery with no older pending delivery of the same run. */
function pendingHeads(executor: Db) {
  return executor
    .selectFrom('webhook_deliveries as d')
    .where('d.status', '=', 'pending')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('webhook_deliveries as older')
            .select('older.id')
            .whereRef('older.run_id', '=', 'd.run_id')
            .where('older.status', '=', 'pending')
            .where((older) =>
              older.or([
                older('older.run_sequence', '<', older.ref('d.run_sequence')),
                older.and([
                  older('older.run_sequence', '=', older.ref('d.run_sequence')),
                  older('older.id', '<', older.ref('d.id')),
                ]),
              ]),
            ),
        ),
      ),
    );
}

/**
 * Claims up to `limit` due deliveries: each attempt counted, and the next one pushed past
 * this attempt's deadline, which is the lease.
 */
function claimDue({ db, timeoutMs }: DeliveryContext, limit: number): Promise<ClaimedDelivery[]> {
  return db.transaction().execute(async (trx) => {
    let due = pendingHeads(trx)
      .select('d.id')
      .where('d.next_attempt_at', '<=', databaseTime(trx))
      .orderBy('d.next_attempt_at')
      .orderBy('d.run_sequence')
      .orderBy('d.id')
      .limit(limit);
    if (dialectOf(trx) === 'postgres') due = due.forUpdate().skipLocked();
    const ids = (await due.execute()).map((row) => row.id);
    if (ids.length === 0) return [];
    return trx
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        attempts: eb('attempts', '+', 1),
        last_attempt_at: databaseTime(trx),
        next_attempt_at: databaseTime(trx, 2 * timeoutMs + leaseMarginMs),
      }))
      .where('id', 'in', ids)
      .where('status', '=', 'pending')
      .returning(['id', 'extractor_id', 'payload', 'attempts'])
      .execute();
  });
}

/** Records an attempt's outcome, unless the lease ran out and another claim took over. */
async function settle(
  { db, logger, retryScale }: DeliveryContext,
  delivery: ClaimedDelivery,
  outcome:
    | { delivered: true; status: number }
    | { delivered: false; status: number | null; error: string; final?: boolean },
): Promise<void> {
  const fenced = db
    .updateTable('webhook_deliveries')
    .where('id', '=', delivery.id)
    .where('status', '=', 'pending')
    .where('attempts', '=', delivery.attempts);
  if (outcome.delivered) {
    await fenced
      .set({
        status: 'delivered',
        delivered_at: new Date().toISOString(),
        last_status_code: outcome.status,
        last_error: null,
      })
      .execute();
    return;
  }
  const delay = outcome.final ? undefined : retryDelayMs(delivery.attempts, retryScale);
  await fenced
    .set({
      status: delay === undefined ? 'failed' : 'pending',
      next_attempt_at: databaseTime(db, delay ?? 0),
      last_status_code: outcome.status,
      last_error: outcome.error.slice(0, 1000),
    })
    .execute();
  logger.warn(
    {
      delivery: delivery.id,
      attempts: delivery.attempts,
      error: outcome.error,
      retryInMs: delay ?? null,
    },
    delay === undefined
      ? 'webhook delivery failed for good'
      : 'webhook delivery failed; will retry',
  );
}

/** One attempt at `delivery`, to the extractor's address as it is now; its outcome settled. */
async function attempt(context: DeliveryContext, delivery: ClaimedDelivery): Promise<void> {
  const { db, timeoutMs, allowPrivate } = context;
  // The extractor as it is now: its current secrets sign, its current address receives.
  const extractor = await extractorColumns(db, delivery.extractor_id, [
    'enable_webhook',
    'webhook_url',
    'webhook_secret',
    'previous_webhook_secret',
    'previous_webhook_secret_until',
    'deleted_at',
  ]);
  if (
    !extractor ||
    extractor.deleted_at !== null ||
    extractor.enable_webhook !== 1 ||
    !extractor.webhook_url
  ) {
    await settle(context, delivery, {
      delivered: false,
      status: null,
      error: 'the extractor was deleted or its webhook turned off before delivery',
      final: true,
    });
    return;
  }
  try {
    // A resolver that hangs must not hold the attempt past its lease.
    const target = await within(
      resolveWebhookTarget(extractor.webhook_url, allowPrivate),
      timeoutMs,
      `the address did not resolve within ${timeoutMs} ms`,
    );
    const headers = {
      ...webhookHeaders(signingSecrets(extractor), delivery.id, delivery.payload),
      'content-type': 'application/json',
      'user-agent': userAgent,
    };
    const answer = await postToTarget(target, headers, delivery.payload, timeoutMs);
    if (answer.status >= 200 && answer.status < 300) {
      await settle(context, delivery, { delivered: true, status: answer.status });
    } else {
      const said = answer.bodyStart.trim();
      await settle(context, delivery, {
        delivered: false,
        status: answer.status,
        error: `the receiver answered ${answer.status}${said ? `: ${said}` : ''}`,
      });
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await settle(context, delivery, { delivered: false, status: null, error: message });
  }
}

export function startWebhookDispatcher(deps: {
  db: Db;
  config: Config;
  logger: Logger;
}): WebhookDispatcher {
  const { db, config } = deps;
  const logger = deps.logger.child({ component: 'webhooks' });
  const { timeoutMs, retryScale, allowPrivate } = config.webhooks;
  const context: DeliveryContext = { db, logger, timeoutMs, retryScale, allowPrivate };
  const idleMs = config.workerPollMs;
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> | undefined;
  let passAgain = false;

  function track(delivery: ClaimedDelivery): void {
    const running = attempt(context, delivery)
      .catch((error: unknown) =>
        logger.error({ err: error, delivery: delivery.id }, 'webhook attempt crashed'),
      )
      .finally(() => {
        inFlight.delete(running);
        kick();
      });
    inFlight.add(running);
  }

  async function runPass(): Promise<void> {
    const free = parallelAttempts - inFlight.size;
    if (free > 0) {
      // Claimed is tried, even when stopping meanwhile: `stop` waits for the attempts.
      for (const delivery of await claimDue(context, free)) track(delivery);
    }
    if (stopped) return;
    // Sleep until the next delivery is due (a retry, or a lease that runs out), by the
    // database's clock, but no longer than the idle poll. Deliveries in flight kick when
    // they end.
    const next = await pendingHeads(db)
      .select((eb) => [eb.fn.min('d.next_attempt_at').as('due'), databaseTime(db).as('now')])
      .executeTakeFirst();
    const dueInMs = next?.due
      ? Date.parse(String(next.due)) - Date.parse(next.now)
      : Number.POSITIVE_INFINITY;
    const wait =
      inFlight.size >= parallelAttempts ? idleMs : Math.min(idleMs, Math.max(0, dueInMs));
    schedule(wait);
  }

  function schedule(ms: number): void {
    clearTimeout(timer);
    if (stopped) return;
    timer = setTimeout(kick, ms);
    timer.unref();
  }

  function kick(): void {
    if (stopped) return;
    if (pass) {
      passAgain = true;
      return;
    }
    clearTimeout(timer);
    pass = (async () => {
      do {
        passAgain = false;
        try {
          await runPass();
        } catch (error) {
          logger.error({ err: error }, 'webhook dispatcher pass failed');
          schedule(idleMs);
        }
      } while (passAgain && !stopped);
    })().finally(() => {
      pass = undefined;
    });
  }

  kick();
  return {
    kick,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await pass;
      await Promise.all([...inFlight]);
    },
  };
}
