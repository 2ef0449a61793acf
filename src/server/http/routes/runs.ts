/**
 * Extraction runs, served under both `/api/runs` and `/api/extraction_runs`. The filter
 * parameters the spec lists on the single-run path have no effect there (it names one run).
 */
import type { Context, Hono } from 'hono';
import { idFromReference } from '../../../contract/iri.js';
import { strategies } from '../../../contract/resources.js';
import { runStatuses, type RunStatus } from '../../../contract/run-status.js';
import { findRun, listRuns, runToWire, type RunFilters, type RunRow } from '../../runs/runs.js';
import { canSeeRun, requirePersonal } from '../../tokens/access.js';
import type { AppEnv } from '../context.js';
import { runKind } from '../kinds.js';
import { badQuery, notFound } from '../problem.js';
import {
  chooseRepresentation,
  queryWithoutPage,
  readPage,
  sendCollection,
  sendResource,
} from '../respond.js';

export const runCollections = ['/api/runs', '/api/extraction_runs'] as const;

export const runFilterParameters = [
  { variable: 'result_json', property: 'resultJson' },
  { variable: 'partial_result_json', property: 'partialResultJson' },
  { variable: 'error', property: 'error' },
  { variable: 'model', property: 'model' },
  { variable: 'saved_extractor_id', property: 'savedExtractor' },
  { variable: 'strategy', property: 'strategy' },
  { variable: 'status', property: 'status' },
] as const;

function readRunFilters(c: Context<AppEnv>): RunFilters {
  const query = (name: string) => c.req.query(name) || undefined;
  const status = query('status');
  if (status && !runStatuses.includes(status as RunStatus)) {
    throw badQuery('status', `must be one of ${runStatuses.join(', ')}`);
  }
  const strategy = query('strategy');
  if (strategy && !strategies.includes(strategy as (typeof strategies)[number])) {
    throw badQuery('strategy', `must be one of ${strategies.join(', ')}`);
  }
  const extractor = query('saved_extractor_id');
  const savedExtractorId =
    extractor === undefined ? undefined : idFromReference('extractor', extractor);
  if (extractor !== undefined && !savedExtractorId) {
    throw badQuery('saved_extractor_id', 'must be an extractor id or IRI');
  }
  return {
    resultJson: query('result_json'),
    partialResultJson: query('partial_result_json'),
    error: query('error'),
    model: query('model'),
    savedExtractorId,
    strategy,
    status: status as RunStatus | undefined,
  };
}

/** The run named in the path, if the caller may see it; a 404 otherwise. */
export async function visibleRun(c: Context<AppEnv>): Promise<RunRow> {
  const run = await findRun(c.get('services').db, c.req.param('id')!);
  if (!run || !canSeeRun(c.get('principal'), run)) throw notFound();
  return run;
}

export function registerRunReadRoutes(app: Hono<AppEnv>): void {
  for (const base of runCollections) {
    app.get(base, async (c) => {
      requirePersonal(c.get('principal'));
      const mediaType = chooseRepresentation(c);
      const page = readPage(c);
      const filters = readRunFilters(c);
      const { rows, total } = await listRuns(c.get('services').db, filters, page);
      return sendCollection(runKind, rows.map(runToWire), mediaType, {
        path: c.req.path,
        query: queryWithoutPage(c),
        page: page.page,
        itemsPerPage: page.limit,
        totalItems: total,
        filters: runFilterParameters,
        plainJsonApiArray: true,
      });
    });

    app.get(`${base}/:id`, async (c) => {
      const mediaType = chooseRepresentation(c);
      const run = await visibleRun(c);
      return sendResource(runKind, runToWire(run), mediaType);
    });
  }
}
