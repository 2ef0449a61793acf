/**
 * Health for whatever runs the processes (a load balancer, Kubernetes, systemd): `GET
 * /healthz` answers while the process can answer at all; `GET /readyz` only while what it
 * needs answers too, the database and the file store, and while DATA_DIR can be written,
 * so that traffic goes elsewhere while they are away or the disk is full. Neither needs a
 * token, and neither says more than which part failed and, for the disk, why (full,
 * over quota, read-only): any other reason (an address, a driver's message) goes to the log.
 */
import { sql } from 'kysely';
import type { Logger } from 'pino';
import { whyNotWritable, type DataDirectory } from './data-directory.js';
import type { FileStore } from './files/storage.js';
import type { Db } from './store/database.js';
import { within } from './time-limit.js';

export type ReadinessCheck = 'database' | 'files' | 'disk';

export interface Readiness {
  ready: boolean;
  checks: Record<ReadinessCheck, 'ok' | 'failing'>;
  /** Why a failing check fails, where that can be said to anyone ("its disk is full"). */
  reasons: Partial<Record<ReadinessCheck, string>>;
}

/** A check that has not answered by then has failed: a hung database must not hang the probe. */
const checkTimeoutMs = 3_000;

export async function checkReadiness(
  deps: { db: Db; storage: FileStore; dataDirectory: DataDirectory; logger: Logger },
  timeoutMs = checkTimeoutMs,
): Promise<Readiness> {
  const checks: Record<ReadinessCheck, () => Promise<unknown>> = {
    database: () => sql`select 1`.execute(deps.db),
    files: () => deps.storage.check(),
    disk: () => deps.dataDirectory.check(),
  };
  const names = Object.keys(checks) as ReadinessCheck[];
  const outcomes = await Promise.allSettled(names.map((name) => within(checks[name](), timeoutMs)));
  const readiness: Readiness = {
    ready: true,
    checks: { database: 'ok', files: 'ok', disk: 'ok' },
    reasons: {},
  };
  outcomes.forEach((outcome, index) => {
    if (outcome.status === 'fulfilled') return;
    const name = names[index]!;
    readiness.ready = false;
    readiness.checks[name] = 'failing';
    const reason = name === 'disk' ? whyNotWritable(outcome.reason) : undefined;
    if (reason) readiness.reasons[name] = reason;
    deps.logger.warn({ err: outcome.reason as unknown, check: name }, 'not ready');
  });
  return readiness;
}
