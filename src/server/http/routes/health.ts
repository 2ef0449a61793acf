/**
 * `GET /healthz` and `GET /readyz` for whatever runs the processes (a load balancer,
 * Kubernetes, systemd). Neither needs a token, and neither says more than which part
 * failed: the reason goes to the log (see `../../health.ts`).
 */
import { Hono } from 'hono';
import { checkReadiness, type Readiness, type ReadinessCheck } from '../../health.js';
import type { AppEnv } from '../context.js';
import { notReady, problemResponse } from '../problem.js';

const noStore = { 'Cache-Control': 'no-store' };

/** 200 with the checks when ready; otherwise a 503 problem document naming what fails. */
export function readinessResponse(readiness: Readiness, instance: string): Response {
  if (readiness.ready)
    return Response.json({ status: 'ready', checks: readiness.checks }, { headers: noStore });
  const failing = (Object.keys(readiness.checks) as ReadinessCheck[]).filter(
    (name) => readiness.checks[name] === 'failing',
  );
  const parts = {
    database: 'the database cannot be reached',
    files: 'the file store cannot be reached',
    disk: 'the data directory cannot be written',
  } as const;
  const said = failing.map((name) => {
    const reason = readiness.reasons[name];
    return reason ? `${parts[name]} (${reason})` : parts[name];
  });
  return problemResponse(
    notReady(`This process cannot serve requests now: ${said.join(' and ')}.`, readiness.checks),
    instance,
  );
}

export const healthRoutes = new Hono<AppEnv>()
  .get('/healthz', () => Response.json({ status: 'alive' }, { headers: noStore }))
  .get('/readyz', async (c) =>
    readinessResponse(await checkReadiness(c.get('services')), c.req.path),
  );
