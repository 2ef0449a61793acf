/**
 * Saved extractors, served under both `/api/extractors` and `/api/saved_extractors` (one
 * resource, two names). Filters of the list: `model` (exact) and `output_instructions`
 * (case-insensitive substring).
 */
import type { Context, Hono } from 'hono';
import { extractorInputSchema } from '../../../contract/resources.js';
import {
  createExtractor,
  deleteExtractor,
  extractorToWire,
  extractorView,
  extractorViews,
  findExtractor,
  listExtractors,
  replaceExtractor,
  rotateWebhookSecret,
  type ExtractorRow,
} from '../../extractors/extractors.js';
import { canSeeExtractor, requirePersonal } from '../../tokens/access.js';
import { readInput } from '../body.js';
import type { AppEnv } from '../context.js';
import { extractorKind } from '../kinds.js';
import { notFound } from '../problem.js';
import {
  chooseRepresentation,
  queryWithoutPage,
  readPage,
  sendCollection,
  sendResource,
} from '../respond.js';

export const extractorCollections = ['/api/extractors', '/api/saved_extractors'] as const;

function extractorWire(c: Context<AppEnv>, row: ExtractorRow) {
  const { db, config } = c.get('services');
  return extractorView(db, row, config);
}

export function registerExtractorRoutes(app: Hono<AppEnv>): void {
  for (const base of extractorCollections) {
    app.get(base, async (c) => {
      requirePersonal(c.get('principal'));
      const mediaType = chooseRepresentation(c);
      const page = readPage(c);
      const { db, config } = c.get('services');
      const filters = {
        model: c.req.query('model'),
        outputInstructions: c.req.query('output_instructions'),
      };
      const { rows, total } = await listExtractors(db, filters, page);
      return sendCollection(extractorKind, await extractorViews(db, rows, config), mediaType, {
        path: c.req.path,
        query: queryWithoutPage(c),
        page: page.page,
        itemsPerPage: page.limit,
        totalItems: total,
        filters: [
          { variable: 'model', property: 'model' },
          { variable: 'output_instructions', property: 'outputInstructions' },
        ],
      });
    });

    app.post(base, async (c) => {
      requirePersonal(c.get('principal'));
      const mediaType = chooseRepresentation(c);
      const input = await readInput(c.req.raw, extractorInputSchema);
      const { db, config } = c.get('services');
      const { row, webhookSecret } = await createExtractor(db, input, config);
      const wire = { ...extractorToWire(row, [], config), webhookSecret };
      return sendResource(extractorKind, wire, mediaType, {
        status: 201,
        headers: { Location: extractorKind.iri(wire) },
      });
    });

    app.get(`${base}/:id`, async (c) => {
      const mediaType = chooseRepresentation(c);
      const id = c.req.param('id');
      if (!canSeeExtractor(c.get('principal'), id)) throw notFound();
      const row = await findExtractor(c.get('services').db, id);
      if (!row) throw notFound();
      return sendResource(extractorKind, await extractorWire(c, row), mediaType);
    });

    app.put(`${base}/:id`, async (c) => {
      requirePersonal(c.get('principal'));
      const mediaType = chooseRepresentation(c);
      const { db, config } = c.get('services');
      const id = c.req.param('id');
      if (!(await findExtractor(db, id))) throw notFound();
      const input = await readInput(c.req.raw, extractorInputSchema);
      const row = await replaceExtractor(db, id, input, config);
      if (!row) throw notFound();
      return sendResource(extractorKind, await extractorWire(c, row), mediaType);
    });

    app.delete(`${base}/:id`, async (c) => {
      requirePersonal(c.get('principal'));
      const deleted = await deleteExtractor(c.get('services').db, c.req.param('id'));
      if (!deleted) throw notFound();
      return c.body(null, 204);
    });

    /** A new webhook signing secret; the old one stops working at once. */
    app.post(`${base}/:id/webhook_secret`, async (c) => {
      requirePersonal(c.get('principal'));
      const mediaType = chooseRepresentation(c);
      const { db } = c.get('services');
      const id = c.req.param('id');
      const webhookSecret = await rotateWebhookSecret(db, id);
      const row = webhookSecret ? await findExtractor(db, id) : undefined;
      if (!row || !webhookSecret) throw notFound();
      return sendResource(
        extractorKind,
        { ...(await extractorWire(c, row)), webhookSecret },
        mediaType,
      );
    });
  }
}
