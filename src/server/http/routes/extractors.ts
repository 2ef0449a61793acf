/**
 * Saved extractors, served under both `/api/extractors` and `/api/saved_extractors` (one
 * resource, two names: the app mounts these routes twice). Filters of the list: `model`
 * (exact) and `output_instructions` (case-insensitive substring).
 */
import { Hono, type Context } from 'hono';
import * as z from 'zod/mini';
import { extractorInputSchema, strategies } from '../../../contract/resources.js';
import { NotFoundError } from '../../errors.js';
import {
  createExtractor,
  deleteExtractor,
  extractorToWire,
  extractorViews,
  findExtractor,
  listExtractors,
  replaceExtractor,
  rotateWebhookSecret,
  webhookSecretOverlapHours,
  type ExtractorRow,
} from '../../extractors/extractors.js';
import { pageWindow } from '../../store/paging.js';
import { canSeeExtractor, extractorViewsFor } from '../../access/token-scopes.js';
import { absentWhenEmpty, readInput, validateQuery } from '../body.js';
import type { AppEnv } from '../context.js';
import { extractorKind } from '../kinds.js';
import {
  codeList,
  operationsOf,
  creationOf,
  listOf,
  readingOf,
  ignoredParameters,
  type TagObject,
} from '../openapi.js';
import {
  deleteById,
  negotiated,
  pageNumber,
  personalOnly,
  sendCreated,
  sendPage,
  sendResource,
} from '../respond.js';

export const extractorsTag: TagObject = {
  name: 'Saved extractors',
  description:
    'Stored extraction configurations, at /api/extractors and /api/saved_extractors (one ' +
    'resource under two names). ' +
    `Strategies: ${codeList(strategies)}; the \`local\` strategy has the model \`local\`, ` +
    'the `llm` strategy the models the service is configured with. An unknown one answers 422 ' +
    'listing the allowed values.',
};

const operation = operationsOf(extractorsTag);

/** The filters of the list, as query parameters. */
export const extractorFilters = z.object({
  model: absentWhenEmpty(z.optional(z.string())).check(
    z.describe('Only extractors with this model (exact).'),
  ),
  output_instructions: absentWhenEmpty(z.optional(z.string())).check(
    z.describe('Only extractors whose outputInstructions contain this text (case-insensitive).'),
  ),
});

const ignoredFilters = ignoredParameters(extractorFilters);

/** One extractor as the caller may see it. */
async function view(c: Context<AppEnv>, row: ExtractorRow) {
  const { db, config } = c.get('services');
  const [view] = await extractorViewsFor(c.get('principal'), db, [row], config);
  return view!;
}

/** The query of `GET /api/extractors`: the page and the filters. */
const extractorListQuery = z.object({ page: pageNumber, ...extractorFilters.shape });

export const extractorRoutes = new Hono<AppEnv>()
  .get(
    '/',
    operation('listExtractors', 'List saved extractors', {
      description: 'Newest first. Personal access tokens only.',
      query: extractorListQuery,
      ...listOf('extractor'),
    }),
    personalOnly,
    negotiated,
    async (c) => {
      const query = validateQuery(extractorListQuery, c.req.queries());
      const page = pageWindow(query.page);
      const { db, config } = c.get('services');
      const filters = { model: query.model, outputInstructions: query.output_instructions };
      const { rows, total } = await listExtractors(db, filters, page);
      return sendPage(
        c,
        extractorKind,
        await extractorViews(db, rows, config),
        { window: page, total },
        {
          filters: [
            { variable: 'model', property: 'model' },
            { variable: 'output_instructions', property: 'outputInstructions' },
          ],
        },
      );
    },
  )
  .post(
    '/',
    operation('createExtractor', 'Create a saved extractor', {
      description:
        '`label` and `jsonSchema` are required; every other field has a default. The answer ' +
        'carries `webhookSecret`, once.',
      query: ignoredFilters,
      ...creationOf('extractor'),
    }),
    personalOnly,
    negotiated,
    async (c) => {
      const input = await readInput(c, extractorInputSchema, { kind: extractorKind });
      const { db, config } = c.get('services');
      const { row, webhookSecret } = await createExtractor(db, input, config);
      const wire = { ...extractorToWire(row, [], config), webhookSecret };
      return sendCreated(c, extractorKind, wire);
    },
  )
  .get(
    '/:id',
    operation('getExtractor', 'Retrieve a saved extractor', {
      query: ignoredFilters,
      ...readingOf('extractor'),
    }),
    negotiated,
    async (c) => {
      const id = c.req.param('id');
      const row = canSeeExtractor(c.get('principal'), id)
        ? await findExtractor(c.get('services').db, id)
        : undefined;
      if (!row) throw new NotFoundError();
      return sendResource(c, extractorKind, await view(c, row));
    },
  )
  .put(
    '/:id',
    operation('replaceExtractor', 'Replace the writable fields of a saved extractor', {
      description:
        'A field left out takes its default, as on create. Runs already created keep the ' +
        'schema they copied.',
      body: { input: 'extractor' },
      answer: { status: 200, resource: 'extractor' },
      problems: [400, 404, 406, 408, 409, 413, 415, 422],
    }),
    personalOnly,
    negotiated,
    async (c) => {
      const { db, config } = c.get('services');
      const id = c.req.param('id');
      if (!(await findExtractor(db, id))) throw new NotFoundError();
      const input = await readInput(c, extractorInputSchema, { kind: extractorKind, id });
      const row = await replaceExtractor(db, id, input, config);
      if (!row) throw new NotFoundError();
      return sendResource(c, extractorKind, await view(c, row));
    },
  )
  .delete(
    '/:id',
    operation('deleteExtractor', 'Delete a saved extractor', {
      query: ignoredFilters,
      answer: { status: 204, description: 'Deleted.' },
      problems: [404],
    }),
    personalOnly,
    deleteById(deleteExtractor),
  )
  .post(
    '/:id/webhook_secret',
    operation('rotateWebhookSecret', 'Rotate the webhook signing secret', {
      description:
        'The answer carries the new `webhookSecret`, once. The secret it replaces keeps ' +
        `signing beside it for ${webhookSecretOverlapHours} hours: each delivery sent in that ` +
        'time carries both signatures, space-separated in `webhook-signature`, so a receiver ' +
        'on either secret verifies it. Rotating again within that time ends the older overlap.',
      ...readingOf('extractor'),
    }),
    personalOnly,
    negotiated,
    async (c) => {
      const { db } = c.get('services');
      const id = c.req.param('id');
      const webhookSecret = await rotateWebhookSecret(db, id);
      const row = webhookSecret ? await findExtractor(db, id) : undefined;
      if (!row || !webhookSecret) throw new NotFoundError();
      return sendResource(c, extractorKind, { ...(await view(c, row)), webhookSecret });
    },
  );
