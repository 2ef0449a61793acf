/**
 * `/api/buckets/{id}/files`: the files of a bucket. Uploads are `multipart/form-data`
 * streamed to disk (files/uploads.ts); the bytes come back from `…/content`, and each page
 * as a reviewer sees it from `…/pages/{n}` (files/pages.ts).
 */
import { Readable } from 'node:stream';
import { Hono, type Context } from 'hono';
import * as z from 'zod/mini';
import { acceptedMediaTypes } from '../../../contract/resources.js';
import { ConflictError, NotFoundError, UnsupportedInputError } from '../../errors.js';
import {
  addFiles,
  deleteFile,
  fileToWire,
  findFile,
  listFiles,
  type FileRow,
} from '../../files/files.js';
import {
  FilePages,
  pageKindOf,
  pageRequestsPerToken,
  pictureWidths,
  textOnly,
  type PageAnswer,
  type PageAsker,
} from '../../files/pages.js';
import { documentLanguagesOf } from '../../extractors/extractors.js';
import { receiveUpload, type ReceivedFile } from '../../files/uploads.js';
import { activeRunOfBucket, contentOptionsOf, findRun } from '../../runs/runs.js';
import { canSeeRun } from '../../access/token-scopes.js';
import { bodyStream, validateQuery, wholeNumberParameter } from '../body.js';
import { contentDisposition } from '../content-disposition.js';
import type { AppEnv } from '../context.js';
import { fileKind } from '../kinds.js';
import { essence, negotiateOrThrow } from '../negotiation.js';
import {
  contentDispositionHeader,
  operationsOf,
  listOf,
  readingOf,
  type TagObject,
} from '../openapi.js';
import { schemaRef } from '../openapi/objects.js';
import { notAcceptable, unreadableDocument } from '../problem.js';
import {
  negotiated,
  pageOnlyQuery,
  readPage,
  sendCollection,
  sendPage,
  sendResource,
} from '../respond.js';
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
 * The files of an upload to this resource: `multipart/form-data` read from the request's
 * body as it arrives (http/body.ts, bodyStream), streamed to temporary files
 * (files/uploads.ts). `refusal` tells a body of any other type what to send instead.
 */
export async function receivedFiles(c: Context<AppEnv>, refusal: string): Promise<ReceivedFile[]> {
  if (essence(c.req.header('content-type')) !== 'multipart/form-data')
    throw new UnsupportedInputError(refusal, ['multipart/form-data']);
  const { storage, config } = c.get('services');
  return receiveUpload(c.req.raw, bodyStream(c.req.raw, c.env), storage, config.maxUploadBytes);
}

async function visibleFile(c: Context<AppEnv>) {
  const bucket = await visibleBucket(c);
  const file = await findFile(c.get('services').db, bucket.id, c.req.param('fileId')!);
  if (!file) throw new NotFoundError();
  return file;
}

// ---------------------------------------------------------------------------------------
// Pages

/** What a page is answered as: pictures of PDFs and images, the text of other files. */
const pictureTypes = ['image/webp', 'image/png'] as const;
const textTypes = ['text/plain'] as const;
const jsonTypes = ['application/json'] as const;

/** Pictures never change for a file id (its bytes never do); a week in the browser's cache. */
const pictureCacheControl = 'private, max-age=604800, immutable';

/** The query of a page: how wide a picture, and for a text, the run it is read for. */
const pageQuery = z.object({
  width: wholeNumberParameter({
    minimum: pictureWidths.min,
    maximum: pictureWidths.max,
    fallback: pictureWidths.default,
    error: (text) =>
      `must be a whole number of pixels from ${pictureWidths.min} to ${pictureWidths.max}, not ${JSON.stringify(text)}`,
  }).check(
    z.describe(
      `The picture's width in pixels, ${pictureWidths.min} to ${pictureWidths.max} (default ` +
        `${pictureWidths.default}). Pictures are drawn at ${pictureWidths.drawn.join(', ')} ` +
        'pixels only: a width is drawn at the first of them at least as wide (ask for one ' +
        'of them to get what you ask); an image is not drawn wider than it is. Pages that ' +
        'are text take no width.',
    ),
  ),
  run: z
    .optional(z.string())
    .check(
      z.describe(
        'For a page that is text: the id of a run over the bucket, whose content options the ' +
          "text is read with (its markers of embedded pictures count in its sources' offsets). " +
          'Without it, the text alone.',
      ),
    ),
});

function pageNumberOf(raw: string | undefined, file: FileRow): number {
  // Anything but a page number names no page of the file: the address does not exist.
  const page = /^[1-9]\d{0,8}$/.test(raw ?? '') ? Number(raw) : undefined;
  if (page === undefined) throw new NotFoundError(`${file.name} has no page "${raw}".`);
  if (file.page_count !== null && page > file.page_count) throw beyond(file, file.page_count, page);
  return page;
}

function beyond(file: FileRow, pageCount: number, page: number): NotFoundError {
  return new NotFoundError(
    `${file.name} has ${pageCount} page${pageCount === 1 ? '' : 's'}; there is no page ${page}.`,
  );
}

/** The content options of the run a text page is asked for, which must be over this bucket. */
async function textOptionsOf(c: Context<AppEnv>, file: FileRow, runId: string | undefined) {
  if (runId === undefined) return textOnly;
  const run = await findRun(c.get('services').db, runId);
  if (!run || run.bucket_id !== file.bucket_id || !canSeeRun(c.get('principal'), run))
    throw new NotFoundError(`There is no run ${JSON.stringify(runId)} over this bucket.`);
  // Read as the run read it: OCR in other languages gives other text, and other offsets.
  return { ...contentOptionsOf(run), documentLanguages: documentLanguagesOf(run) };
}

function settled(answer: PageAnswer, file: FileRow, page: number): PageAnswer {
  if (answer.kind === 'beyond') throw beyond(file, answer.pageCount, page);
  if (answer.kind === 'unreadable') throw unreadableDocument(answer.message);
  return answer;
}

/** Who asks for a page, for the page workers' turns and the limit per token. */
function pageAsker(c: Context<AppEnv>): PageAsker {
  return { tokenId: c.get('principal').tokenId, signal: c.req.raw.signal };
}

function pictureHeaders(mediaType: string, etag: string): Record<string, string> {
  return {
    'Content-Type': mediaType,
    'Cache-Control': pictureCacheControl,
    ETag: etag,
    Vary: 'Accept',
    'X-Content-Type-Options': 'nosniff',
  };
}

function pictureResponse(
  answer: Extract<PageAnswer, { kind: 'picture' }>,
  mediaType: string,
  etag: string,
): Response {
  const { handle, size } = answer.picture;
  // The stream closes the file when it ends, or when the client goes away.
  const body = Readable.toWeb(handle.createReadStream()) as ReadableStream<Uint8Array>;
  return new Response(body, {
    headers: { ...pictureHeaders(mediaType, etag), 'Content-Length': String(size) },
  });
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
      const received = await receivedFiles(
        c,
        'Upload files as multipart/form-data with one or more parts named "file".',
      );
      const { db, storage, pages } = c.get('services');
      const wires = (await addFiles(db, storage, pages, bucket.id, received)).map(fileToWire);
      return sendCollection(
        c,
        fileKind,
        wires,
        {
          path: c.req.path,
          query: new URLSearchParams(),
          page: 1,
          itemsPerPage: Math.max(wires.length, 1),
          totalItems: wires.length,
          filters: [],
        },
        201,
      );
    },
  )
  .get(
    '/',
    operation('listFiles', 'List the files of a bucket', {
      query: pageOnlyQuery,
      ...listOf('file'),
    }),
    negotiated,
    async (c) => {
      const bucket = await visibleBucket(c);
      // Read after the bucket, not by a validator before it: a 404 comes before a bad page.
      const page = readPage(c.req.queries());
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
    async (c) => sendResource(c, fileKind, fileToWire(await visibleFile(c))),
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
      // A deletion frees room: on a full disk it is the one write that must still happen.
      await c
        .get('services')
        .dataDirectory.withReserve('delete a file', () => deleteFile(db, storage, file));
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
  )
  .get(
    '/:fileId/pages/:n',
    operation('getFilePage', 'Show a page of a file', {
      description:
        'A page as a reviewer sees it beside the data read from it. PDFs and images (the ' +
        "file's `pageKind` is `image`) answer a picture of the page, WebP or PNG as Accept " +
        'says (WebP when it says neither), drawn on the server under the limits of one ' +
        "document and kept for the next request; the boxes of the run's sources are " +
        'fractions of it. Other files (`pageKind` `text`) answer the text of the page as the ' +
        "service read it, where the sources' `offset` and `text` point; asking them for a " +
        'picture is a 406 naming text/plain. Embed session tokens see the pages of their ' +
        'bucket; `access_token` may carry the token, for an `<img>`. Pages are drawn and read ' +
        'only while someone waits (a request given up is dropped from the line), in turns ' +
        `shared between tokens; one token may have ${pageRequestsPerToken} page requests under ` +
        'way at once, and a 429 with Retry-After answers one more. Pictures are kept within ' +
        'a disk budget, those used least recently going first.',
      query: pageQuery,
      answer: {
        status: 200,
        description: 'The page.',
        content: {
          'image/webp': { schema: { type: 'string', description: 'A page of a PDF or an image.' } },
          'image/png': { schema: { type: 'string', description: 'A page of a PDF or an image.' } },
          'text/plain': {
            schema: { type: 'string', description: 'A page of a text document, UTF-8.' },
          },
        },
        headers: {
          ETag: {
            description: 'A picture is answered 304 to an If-None-Match that names it.',
            schema: { type: 'string' },
          },
        },
      },
      problems: [400, 404, 406, 'unreadable-document', 429, 507],
      access: 'bearer-or-query',
    }),
    async (c) => {
      const file = await visibleFile(c);
      const pages = c.get('services').pages;
      if (pageKindOf(file.media_type) === 'text') {
        negotiateOrThrow(c, textTypes);
        const { run } = validateQuery(pageQuery, c.req.queries());
        const page = pageNumberOf(c.req.param('n'), file);
        const options = await textOptionsOf(c, file, run);
        const answer = settled(await pages.text(file, page, options, pageAsker(c)), file, page);
        return new Response(answer.kind === 'text' ? answer.text : '', {
          headers: {
            'Content-Type': 'text/plain; charset=utf-8',
            Vary: 'Accept',
            'X-Content-Type-Options': 'nosniff',
            'Content-Security-Policy': "sandbox; default-src 'none'",
          },
        });
      }
      const mediaType = negotiateOrThrow(c, pictureTypes);
      const { width } = validateQuery(pageQuery, c.req.queries());
      const page = pageNumberOf(c.req.param('n'), file);
      const format = mediaType === 'image/png' ? 'png' : 'webp';
      const etag = `"${file.sha256.slice(0, 32)}-${page}-${FilePages.pictureWidth(width)}-${format}"`;
      // A client that has the picture needs nothing drawn: the tag names content, page,
      // width and format, which never change for a file.
      if (
        c.req
          .header('if-none-match')
          ?.split(/\s*,\s*/)
          .includes(etag)
      )
        return new Response(null, { status: 304, headers: pictureHeaders(mediaType, etag) });
      const answer = settled(
        await pages.picture(file, page, width, format, pageAsker(c)),
        file,
        page,
      );
      if (answer.kind !== 'picture') throw new Error('A picture page answered otherwise.');
      return pictureResponse(answer, mediaType, etag);
    },
  )
  .get(
    '/:fileId/pages/:n/words',
    operation('getFilePageWords', 'List the words printed on a page', {
      description:
        'The words of a page that is a picture (a PDF page or an image), each with its box in ' +
        "fractions of the page, as the run's sources' boxes are: from the PDF's text layer, " +
        'or from OCR for a scan. A reviewer picks words on the page with them. Read under the ' +
        'limits of one document and kept for the next request. Pages that are text (the ' +
        "file's `pageKind` is `text`) have no boxes: their words are their text (…/pages/{n}), " +
        'and asking for them is a 406 naming text/plain. Embed session tokens see the pages ' +
        'of their bucket. They count among the page requests of the token (429 beyond them).',
      answer: {
        status: 200,
        description: 'The words, in reading order.',
        content: { 'application/json': { schema: schemaRef('PageWords') } },
      },
      problems: [404, 406, 'unreadable-document', 429, 507],
      access: 'bearer-or-query',
    }),
    async (c) => {
      const file = await visibleFile(c);
      // A text page's words are its text: that is what it offers.
      if (pageKindOf(file.media_type) === 'text') throw notAcceptable(textTypes);
      negotiateOrThrow(c, jsonTypes);
      const page = pageNumberOf(c.req.param('n'), file);
      const answer = settled(
        await c.get('services').pages.words(file, page, pageAsker(c)),
        file,
        page,
      );
      if (answer.kind !== 'words') throw new Error("A page's words answered otherwise.");
      return c.json({ page, words: answer.words }, 200, { 'Cache-Control': pictureCacheControl });
    },
  );
