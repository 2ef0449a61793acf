/**
 * `/api/buckets/{id}/files`: the files of a bucket. Uploads are `multipart/form-data`
 * streamed to disk (files/uploads.ts); the bytes come back from `…/content`.
 */
import { Readable } from 'node:stream';
import type { HttpBindings } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import { acceptedMediaTypes } from '../../../contract/resources.js';
import { ConflictError, NotFoundError, UnsupportedInputError } from '../../errors.js';
import { addFiles, deleteFile, fileToWire, findFile, listFiles } from '../../files/files.js';
import { receiveUpload } from '../../files/uploads.js';
import { activeRunOfBucket } from '../../runs/runs.js';
import type { AppEnv } from '../context.js';
import { fileKind } from '../kinds.js';
import { essence } from '../negotiation.js';
import {
  contentDispositionHeader,
  operationsOf,
  listOf,
  readingOf,
  pageParameter,
  type TagObject,
} from '../openapi.js';
import { negotiated, readPage, sendCollection, sendPage, sendResource } from '../respond.js';
import { visibleBucket } from './buckets.js';

export const filesTag: TagObject = {
  name: 'Files',
  description:
    'The files of a bucket (the specification shows no upload; this is ours). Uploads stream ' +
    'to disk; the media ' +
    `type is judged from the bytes. Accepted: ${acceptedMediaTypes.join(', ')}.`,
};

const operation = operationsOf(filesTag);

/**
 * The request body as the Node stream @hono/node-server received, when the app runs on a
 * port; in-process (tests) there is none and the web body is read instead.
 */
function nodeBody(c: Context<AppEnv>): Readable | undefined {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  return incoming instanceof Readable ? incoming : undefined;
}

async function visibleFile(c: Context<AppEnv>) {
  const bucket = await visibleBucket(c);
  const file = await findFile(c.get('services').db, bucket.id, c.req.param('fileId')!);
  if (!file) throw new NotFoundError();
  return file;
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

export const fileRoutes = new Hono<AppEnv>()
  .post(
    '/',
    operation('uploadFiles', 'Upload files to a bucket', {
      description:
        'One or more `file` parts. Each is streamed to disk; when one is refused, none of the ' +
        'request is kept.',
      body: {
        description: 'multipart/form-data with one or more `file` parts.',
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              properties: {
                file: {
                  type: 'array',
                  items: { type: 'string', contentMediaType: 'application/octet-stream' },
                },
              },
              required: ['file'],
            },
            encoding: { file: { contentType: acceptedMediaTypes.join(', ') } },
          },
        },
      },
      answer: {
        status: 201,
        collection: 'file',
        description: 'The files as stored, in the order they were sent.',
      },
      problems: [400, 404, 406, 408, 413, 415],
    }),
    negotiated,
    async (c) => {
      const bucket = await visibleBucket(c);
      if (essence(c.req.header('content-type')) !== 'multipart/form-data') {
        throw new UnsupportedInputError(
          'Upload files as multipart/form-data with one or more parts named "file".',
          ['multipart/form-data'],
        );
      }
      const { db, storage, config } = c.get('services');
      const received = await receiveUpload(c.req.raw, storage, config.maxUploadBytes, nodeBody(c));
      const wires = (await addFiles(db, storage, bucket.id, received)).map(fileToWire);
      const response = sendCollection(fileKind, wires, c.var.mediaType, {
        path: c.req.path,
        query: new URLSearchParams(),
        page: 1,
        itemsPerPage: Math.max(wires.length, 1),
        totalItems: wires.length,
        filters: [],
      });
      return new Response(response.body, { status: 201, headers: response.headers });
    },
  )
  .get(
    '/',
    operation('listFiles', 'List the files of a bucket', {
      query: [pageParameter],
      ...listOf('file'),
    }),
    negotiated,
    async (c) => {
      const bucket = await visibleBucket(c);
      // Read after the bucket, not by a validator before it: a 404 comes before a bad page.
      const page = readPage(c.req.query('page'));
      const files = await listFiles(c.get('services').db, bucket.id);
      const shown = files.slice(page.offset, page.offset + page.limit).map(fileToWire);
      return sendPage(c, fileKind, shown, { window: page, total: files.length });
    },
  )
  .get(
    '/:fileId',
    operation('getFile', 'Retrieve a file resource', {
      ...readingOf('file'),
    }),
    negotiated,
    async (c) => sendResource(fileKind, fileToWire(await visibleFile(c)), c.var.mediaType),
  )
  .delete(
    '/:fileId',
    operation('deleteFile', 'Remove a file from a bucket', {
      answer: { status: 204, description: 'Removed, with its bytes.' },
      problems: [404, 409],
    }),
    async (c) => {
      const file = await visibleFile(c);
      const { db, storage } = c.get('services');
      const active = await activeRunOfBucket(db, file.bucket_id);
      if (active) {
        throw new ConflictError(
          `A run over this bucket is ${active.status}; cancel it or wait for it to finish before removing files.`,
          active.status,
        );
      }
      await deleteFile(db, storage, file);
      return c.body(null, 204);
    },
  )
  .get(
    '/:fileId/content',
    operation('getFileContent', 'Download the bytes of a file', {
      answer: {
        status: 200,
        description: 'The bytes as uploaded, with the media type detected at upload.',
        content: Object.fromEntries(
          acceptedMediaTypes.map((type) => [type, { schema: { description: 'The file.' } }]),
        ),
        headers: { 'Content-Disposition': contentDispositionHeader },
      },
      problems: [404],
    }),
    async (c) => {
      const file = await visibleFile(c);
      const body = Readable.toWeb(
        c.get('services').storage.read(file.bucket_id, file.id),
      ) as ReadableStream<Uint8Array>;
      return new Response(body, {
        headers: {
          'Content-Type': file.media_type,
          'Content-Length': String(file.size),
          'Content-Disposition': contentDisposition(file.name),
          // Uploaded HTML must never run as a page of this origin.
          'Content-Security-Policy': "sandbox; default-src 'none'",
        },
      });
    },
  );
