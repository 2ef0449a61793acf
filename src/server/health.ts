/**
 * Health for whatever runs the processes (a load balancer, Kubernetes, systemd): `GET
 * /healthz` answers while the process can answer at all; `GET /readyz` only while what it
 * needs answers too, the database and the file store, so that traffic goes elsewhere while
 * they are away. Neither needs a token, and neither says more than which part failed: the
 * reason (an address, a driver's message) goes to the log.
 */
import { Hono } from 'hono';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { FileStore } from './files/storage.js';
import type { AppEnv } from './http/context.js';
import { notFound, problemResponse, ProblemError } from './http/problem.js';
import type { Db } from './store/database.js';
import { within } from './time-limit.js';

export type ReadinessCheck = 'database' | 'files';

export interface Readiness {
  ready: boolean;
  checks: Record<ReadinessCheck, 'ok' | 'failing'>;
}

/** A check that has not answered by then has failed: a hung database must not hang the probe. */
const checkTimeoutMs = 3_000;

export async function checkReadiness(
  deps: { db: Db; storage: FileStore; logger: Logger },
  timeoutMs = checkTimeoutMs,
): Promise<Readiness> {
  const checks: Record<ReadinessCheck, () => Promise<unknown>> = {
    database: () => sql`select 1`.execute(deps.db),
    files: () => deps.storage.check(),
  };
  const names = Object.keys(checks) as ReadinessCheck[];
  const outcomes = await Promise.allSettled(names.map((name) => within(checks[name](), timeoutMs)));
  const readiness: Readiness = { ready: true, checks: { database: 'ok', files: 'ok' } };
  outcomes.forEach((outcome, index) => {
    if (outcome.status === 'fulfilled') return;
    const name = names[index]!;
    readiness.ready = false;
    readiness.checks[name] = 'failing';
    deps.logger.warn({ err: outcome.reason as unknown, check: name }, 'not ready');
  });
  return readiness;
}

const noStore = { 'Cache-Control': 'no-store' };

export function livenessResponse(): Response {
  return Response.json({ status: 'alive' }, { headers: noStore });
}

/** 200 with the checks when ready; otherwise a 503 problem document naming what fails. */
export function readinessResponse(readiness: Readiness, instance: string): Response {
  if (readiness.ready)
    return Response.json({ status: 'ready', checks: readiness.checks }, { headers: noStore });
  const failing = (Object.keys(readiness.checks) as ReadinessCheck[]).filter(
    (name) => readiness.checks[name] === 'failing',
  );
  const parts = { database: 'the database', files: 'the file store' } as const;
  return problemResponse(
    new ProblemError({
      status: 503,
      slug: 'not-ready',
      title: 'Not ready',
      detail: `This process cannot serve requests now: ${failing.map((name) => parts[name]).join(' and ')} cannot be reached.`,
      headers: { ...noStore, 'Retry-After': '5' },
      extensions: { checks: readiness.checks },
    }),
    instance,
  );
}

/**
 * The whole HTTP app of a worker process (SERVICE_ROLE=worker): its health checks, for
 * whatever runs it to know it is alive and can reach what it needs, and nothing else.
 */
export function createHealthApp(deps: {
  db: Db;
  storage: FileStore;
  logger: Logger;
}): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/healthz', () => livenessResponse());
  app.get('/readyz', async (c) => readinessResponse(await checkReadiness(deps), c.req.path));
  app.notFound((c) => problemResponse(notFound(), c.req.path));
  return app;
}
