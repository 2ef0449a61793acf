/**
 * What the routes say about themselves, read back from an app: each route that carries
 * an operation (openapi.ts, `operation(…)`) with its method, path and who may call it. The
 * 405s with `Allow`, the paths that need no token and the paths that also take the token
 * as `?access_token=` all come from here, so a new route needs nothing but its own
 * declaration.
 */
import type { Hono } from 'hono';
import type { AppEnv } from './context.js';
import { accessOf, operationOfHandler } from './openapi.js';
import type { OperationObject } from './openapi/objects.js';

export interface DescribedRoute {
  method: string;
  /** Hono's form: `/api/buckets/:id`. */
  path: string;
  operation: OperationObject;
  access: ReturnType<typeof accessOf>;
  pattern: RegExp;
  /** How many segments are parameters: the fewer, the more specific the route. */
  parameters: number;
}

export function describedRoutes(app: Hono<AppEnv>): DescribedRoute[] {
  const routes: DescribedRoute[] = [];
  for (const route of app.routes) {
    const operation = operationOfHandler(route.handler);
    if (!operation || route.method === 'ALL') continue;
    const segments = route.path.split('/');
    routes.push({
      method: route.method,
      path: route.path,
      operation,
      access: accessOf(operation),
      pattern: new RegExp(`^${segments.map(segmentPattern).join('/')}$`),
      parameters: segments.filter((segment) => segment.startsWith(':')).length,
    });
  }
  return routes;
}

/** A segment as a regular expression: a parameter (`:id`) or text. */
function segmentPattern(segment: string): string {
  return segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The methods `path` answers, from the most specific of `routes` that match it (a fixed
 * segment beats a parameter: `/embed_sessions/current` is not `/embed_sessions/{id}`);
 * `undefined` when none does.
 */
export function allowedMethods(
  routes: readonly DescribedRoute[],
  path: string,
): string[] | undefined {
  const matching = routes.filter((route) => route.pattern.test(path));
  if (matching.length === 0) return undefined;
  const fewest = Math.min(...matching.map((route) => route.parameters));
  const methods = new Set(
    matching.filter((route) => route.parameters === fewest).map((route) => route.method),
  );
  return methodOrder.filter((method) => methods.has(method));
}

/** The order `Allow` lists methods in, whatever order the routes were declared in. */
const methodOrder = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
