/**
 * `/api/buckets`: containers of the files a run works over. The query parameters `model`
 * and `output_instructions` that the spec lists on these paths are accepted and have no
 * effect on buckets (a bucket has neither); see docs/api/resources.md, Collections.
 */
import { Hono, type Context } from 'hono';
import * as z from 'zod/mini';
import { bucketInputSchema } from '../../../contract/resources.js';
import {
  bucketToWire,
  bucketViews,
  createBucket,
  deleteBucket,
  findBucket,
  listBuckets,
  type BucketRow,
} from '../../buckets/buckets.js';
import { NotFoundError } from '../../errors.js';
import { bucketViewsFor, canSeeBucket } from '../../access/token-scopes.js';
import { readInput } from '../body.js';
import type { AppEnv } from '../context.js';
import { bucketKind } from '../kinds.js';
import {
  creationOf,
  ignoredParameters,
  listOf,
  operationsOf,
  readingOf,
  type TagObject,
} from '../openapi.js';
import {
  deleteById,
  negotiated,
  pageOnlyQuery,
  pageQuery,
  personalOnly,
  sendCreated,
  sendPage,
  sendResource,
} from '../respond.js';
import { extractorFilters } from './extractors.js';

export const bucketsTag: TagObject = {
  name: 'Buckets',
  description:
    'Containers for the files a run works over. Deleting one is soft: it answers 404 ' +
    'afterwards and leaves every list.',
};

const operation = operationsOf(bucketsTag);

/** The spec lists the extractor filters on the bucket paths too; buckets have neither. */
const ignoredFilters = ignoredParameters(extractorFilters);

/** The bucket named by `:id` in the path, if the caller may see it. */
export async function visibleBucket(c: Context<AppEnv>): Promise<BucketRow> {
  const id = c.req.param('id')!;
  const bucket = canSeeBucket(c.get('principal'), id)
    ? await findBucket(c.get('services').db, id)
    : undefined;
  if (!bucket) throw new NotFoundError();
  return bucket;
}

export const bucketRoutes = new Hono<AppEnv>()
  .get(
    '/',
    operation('listBuckets', 'List buckets', {
      description: 'Newest first. Personal access tokens only.',
      query: z.object({ ...pageOnlyQuery.shape, ...ignoredFilters.shape }),
      ...listOf('bucket'),
    }),
    personalOnly,
    negotiated,
    pageQuery,
    async (c) => {
      const page = c.req.valid('query');
      const { db } = c.get('services');
      const { rows, total } = await listBuckets(db, page);
      return sendPage(c, bucketKind, await bucketViews(db, rows), { window: page, total });
    },
  )
  .post(
    '/',
    operation('createBucket', 'Create a bucket', {
      query: ignoredFilters,
      ...creationOf('bucket'),
    }),
    personalOnly,
    negotiated,
    async (c) => {
      const input = await readInput(c, bucketInputSchema, { kind: bucketKind });
      const bucket = await createBucket(c.get('services').db, input, 'api');
      const wire = bucketToWire(bucket, [], []);
      return sendCreated(c, bucketKind, wire);
    },
  )
  .get(
    '/:id',
    operation('getBucket', 'Retrieve a bucket', {
      query: ignoredFilters,
      ...readingOf('bucket'),
    }),
    negotiated,
    async (c) => {
      const bucket = await visibleBucket(c);
      const [view] = await bucketViewsFor(c.get('principal'), c.get('services').db, [bucket]);
      return sendResource(c, bucketKind, view!);
    },
  )
  .delete(
    '/:id',
    operation('deleteBucket', 'Delete a bucket', {
      query: ignoredFilters,
      answer: { status: 204, description: 'Deleted.' },
      problems: [404],
    }),
    personalOnly,
    deleteById(deleteBucket),
  );
