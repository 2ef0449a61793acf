/**
 * `/api/buckets` and the files in them. The query parameters `model` and
 * `output_instructions` that the spec lists on these paths are accepted and have no effect
 * on buckets (a bucket has neither); see the README.
 */
import { Readable } from 'node:stream';
import type { HttpBindings } from '@hono/node-server';
import type { Context, Hono } from 'hono';
import { bucketInputSchema } from '../../../contract/resources.js';
import {
  bucketToWire,
  createBucket,
  deleteBucket,
  findBucket,
  listBuckets,
  runIrisByBucket,
} from '../../buckets/buckets.js';
import {
  addFiles,
  deleteFile,
  fileToWire,
  findFile,
  listFiles,
  listFilesOfBuckets,
} from '../../files/files.js';
import { receiveUpload } from '../../files/uploads.js';
import { activeRunOfBucket } from '../../runs/runs.js';
import { canSeeBucket, requirePersonal } from '../auth.js';
import { readInput } from '../body.js';
import type { AppEnv } from '../context.js';
import { bucketKind, fileKind } from '../kinds.js';
import { conflict, notFound } from '../problem.js';
import {
  chooseRepresentation,
  queryWithoutPage,
  readPage,
  sendCollection,
  sendResource,
} from '../respond.js';
import type { BucketRow } from '../../buckets/buckets.js';

async function visibleBucket(c: Context<AppEnv>): Promise<BucketRow> {
  const id = c.req.param('id')!;
  if (!canSeeBucket(c.get('principal'), id)) throw notFound();
  const bucket = await findBucket(c.get('services').db, id);
  if (!bucket) throw notFound();
  return bucket;
}

/**
 * The request body as the Node stream @hono/node-server received, when the app runs on a
 * port; in-process (tests) there is none and the web body is read instead.
 */
function nodeBody(c: Context<AppEnv>): Readable | undefined {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  return incoming instanceof Readable ? incoming : undefined;
}

async function bucketWire(c: Context<AppEnv>, bucket: BucketRow) {
  const { db } = c.get('services');
  const [runs, files] = await Promise.all([
    runIrisByBucket(db, [bucket.id]),
    listFiles(db, bucket.id),
  ]);
  return bucketToWire(bucket, runs.get(bucket.id) ?? [], files);
}

export function registerBucketRoutes(app: Hono<AppEnv>): void {
  app.get('/api/buckets', async (c) => {
    requirePersonal(c);
    const mediaType = chooseRepresentation(c);
    const page = readPage(c);
    const { db } = c.get('services');
    const { rows, total } = await listBuckets(db, page);
    const ids = rows.map((row) => row.id);
    const [runs, files] = await Promise.all([
      runIrisByBucket(db, ids),
      listFilesOfBuckets(db, ids),
    ]);
    const wires = rows.map((row) =>
      bucketToWire(row, runs.get(row.id) ?? [], files.get(row.id) ?? []),
    );
    return sendCollection(bucketKind, wires, mediaType, {
      path: c.req.path,
      query: queryWithoutPage(c),
      page: page.page,
      itemsPerPage: page.limit,
      totalItems: total,
      filters: [],
    });
  });

  app.post('/api/buckets', async (c) => {
    requirePersonal(c);
    const mediaType = chooseRepresentation(c);
    const input = await readInput(c.req.raw, bucketInputSchema);
    const bucket = await createBucket(c.get('services').db, input, 'api');
    const wire = bucketToWire(bucket, [], []);
    return sendResource(bucketKind, wire, mediaType, {
      status: 201,
      headers: { Location: bucketKind.iri(wire) },
    });
  });

  app.get('/api/buckets/:id', async (c) => {
    const mediaType = chooseRepresentation(c);
    const bucket = await visibleBucket(c);
    return sendResource(bucketKind, await bucketWire(c, bucket), mediaType);
  });

  app.delete('/api/buckets/:id', async (c) => {
    requirePersonal(c);
    const deleted = await deleteBucket(c.get('services').db, c.req.param('id'));
    if (!deleted) throw notFound();
    return c.body(null, 204);
  });

  // Files -------------------------------------------------------------------------------

  app.post('/api/buckets/:id/files', async (c) => {
    const mediaType = chooseRepresentation(c);
    const bucket = await visibleBucket(c);
    const { db, storage, config } = c.get('services');
    const received = await receiveUpload(c.req.raw, storage, config.maxUploadBytes, nodeBody(c));
    const rows = await addFiles(db, storage, c.get('services').pages, bucket.id, received);
    const wires = rows.map(fileToWire);
    const response = sendCollection(fileKind, wires, mediaType, {
      path: c.req.path,
      query: new URLSearchParams(),
      page: 1,
      itemsPerPage: Math.max(wires.length, 1),
      totalItems: wires.length,
      filters: [],
    });
    return new Response(response.body, { status: 201, headers: response.headers });
  });

  app.get('/api/buckets/:id/files', async (c) => {
    const mediaType = chooseRepresentation(c);
    const bucket = await visibleBucket(c);
    const page = readPage(c);
    const files = await listFiles(c.get('services').db, bucket.id);
    return sendCollection(
      fileKind,
      files.slice(page.offset, page.offset + page.limit).map(fileToWire),
      mediaType,
      {
        path: c.req.path,
        query: queryWithoutPage(c),
        page: page.page,
        itemsPerPage: page.limit,
        totalItems: files.length,
        filters: [],
      },
    );
  });

  app.get('/api/buckets/:id/files/:fileId', async (c) => {
    const mediaType = chooseRepresentation(c);
    const bucket = await visibleBucket(c);
    const file = await findFile(c.get('services').db, bucket.id, c.req.param('fileId'));
    if (!file) throw notFound();
    return sendResource(fileKind, fileToWire(file), mediaType);
  });

  app.get('/api/buckets/:id/files/:fileId/content', async (c) => {
    const bucket = await visibleBucket(c);
    const { db, storage } = c.get('services');
    const file = await findFile(db, bucket.id, c.req.param('fileId'));
    if (!file) throw notFound();
    const body = Readable.toWeb(storage.read(bucket.id, file.id)) as ReadableStream<Uint8Array>;
    return new Response(body, {
      headers: {
        'Content-Type': file.media_type,
        'Content-Length': String(file.size),
        'Content-Disposition': contentDisposition(file.name),
        'X-Content-Type-Options': 'nosniff',
        // Uploaded HTML must never run as a page of this origin.
        'Content-Security-Policy': "sandbox; default-src 'none'",
      },
    });
  });

  app.delete('/api/buckets/:id/files/:fileId', async (c) => {
    const bucket = await visibleBucket(c);
    const { db, storage } = c.get('services');
    const file = await findFile(db, bucket.id, c.req.param('fileId'));
    if (!file) throw notFound();
    const active = await activeRunOfBucket(db, bucket.id);
    if (active) {
      throw conflict(
        `A run over this bucket is ${active.status}; cancel it or wait for it to finish before removing files.`,
        {
          currentStatus: active.status,
        },
      );
    }
    await deleteFile(db, storage, file);
    return c.body(null, 204);
  });
}

/** RFC 6266: an ASCII fallback name and the exact name in RFC 8187 encoding. */
export function contentDisposition(
  name: string,
  disposition: 'attachment' | 'inline' = 'attachment',
): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
