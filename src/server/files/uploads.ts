/**
 * Receiving an upload: `multipart/form-data` with one or more parts named `file`, each
 * streamed to a temporary file while its size and SHA-256 are counted, so a whole file is
 * never held in memory. Only when every part has arrived within the size limit and is of
 * an accepted type are the files moved into the bucket; otherwise nothing is kept.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { Transform, type TransformCallback } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { acceptedMediaTypes, type AcceptedMediaType } from '../../contract/resources.js';
import { watchBodyPace } from '../body-pace.js';
import {
  InputTooLargeError,
  InsufficientStorageError,
  UnreadableInputError,
  isInsufficientStorage,
  UnsupportedInputError,
  type InputTooSlowError,
} from '../errors.js';
import { sniffMediaType } from '../engine/formats/recognise.js';
import type { FileStore } from './storage.js';

export const maxFilesPerUpload = 20;
/**
 * What each stage of an upload (the form's parser, the file's part, the hash, the file on
 * disk) may hold before it asks the one before it to wait: a megabyte, where Node's 16 KiB
 * handed the disk writes of 16 KiB and woke each stage thousands of times for a large file.
 */
const streamBuffer = 1024 * 1024;
/** Room for the multipart framing around the files when judging Content-Length up front. */
const framingAllowance = 64 * 1024;

export interface ReceivedFile {
  tempPath: string;
  name: string;
  size: number;
  sha256: string;
  mediaType: AcceptedMediaType;
}

/**
 * A file name fit to show and to offer as a download name: the last path segment, no
 * control or reserved characters, no leading dots, at most 200 characters. The controls
 * include the bidirectional ones, with which `invoice\u202Efdp.exe` shows as
 * `invoiceexe.pdf`, and the line and paragraph separators.
 */
export function sanitiseFileName(raw: string | undefined): string {
  const lastSegment = (raw ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = lastSegment
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Bidi_Control}\u2028\u2029<>:"|?*]/gu, '')
    .replace(/\s+/g, ' ')
    .replace(/^[.\s]+/, '')
    .trim();
  const limited = [...cleaned].slice(0, 200).join('');
  return limited || 'file';
}

class SizeLimitError extends Error {}

/** Counts bytes and hashes them on the way through; fails once the limit is passed. */
class CountingHash extends Transform {
  readonly hash = createHash('sha256');
  size = 0;

  constructor(private readonly budget: { remaining: number }) {
    super({ highWaterMark: streamBuffer });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    this.budget.remaining -= chunk.length;
    if (this.budget.remaining < 0) {
      callback(new SizeLimitError());
      return;
    }
    this.hash.update(chunk);
    callback(null, chunk);
  }
}

/** `work`'s outcome, once `file` is closed (pipeline destroys it on failure). */
async function settledAfterClose(work: Promise<void>, file: WriteStream): Promise<void> {
  try {
    await work;
  } finally {
    if (!file.closed) await new Promise<void>((resolve) => file.once('close', () => resolve()));
  }
}

function tooLarge(maxBytes: number) {
  // The rest of the body is not read into anything: `abandoned`, so the connection is closed
  // once the client has sent it (http/lingering-close.ts).
  return new InputTooLargeError(
    `The upload is larger than the limit of ${maxBytes} bytes (${(maxBytes / 1024 / 1024).toFixed(0)} MB). Nothing was kept.`,
    true,
  );
}

function noRoom() {
  // The rest of the body is not read: `abandoned`, so the connection is closed instead.
  return new InsufficientStorageError(
    'The service has no room left to store the upload: its disk is full. Nothing was kept; try again later.',
    true,
  );
}

/**
 * Reads what is left of a body nobody wants any more and drops it, so that the connection
 * the answer keeps open is ready for the client's next request: a body left unread stops
 * the server reading the connection, the client cannot finish sending, and its connection
 * is cut. At most `allowance` bytes more, at the pace any body must keep; past either, the
 * rest is left unread and the server closes the connection.
 */
function discardRest(body: Readable, allowance: number): void {
  let left = allowance;
  const stop = () => {
    pace.stop();
    body.off('data', drop);
    body.pause();
  };
  const pace = watchBodyPace(stop);
  const drop = (chunk: Buffer) => {
    pace.received(chunk.length);
    left -= chunk.length;
    if (left < 0) stop();
  };
  body.once('close', stop);
  body.on('data', drop);
  body.resume();
}

/**
 * Reads the upload in `request`, a `multipart/form-data` body (the route has checked the
 * media type), from `body`, its body as a Node stream (http/body.ts, bodyStream).
 */
export async function receiveUpload(
  request: Request,
  body: Readable | undefined,
  storage: FileStore,
  maxBytes: number,
): Promise<ReceivedFile[]> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes + framingAllowance) throw tooLarge(maxBytes);
  if (!body) throw new UnreadableInputError('The upload has no body.');

  const received: ReceivedFile[] = [];
  const temporaries: string[] = [];
  const writes: Promise<void>[] = [];
  const budget = { remaining: maxBytes };
  let tooManyFiles = false;

  const parser = multipartParser(request.headers.get('content-type') ?? '');

  const source = body;
  let bodyBytes = 0;
  let tooSlow: InputTooSlowError | undefined;
  const pace = watchBodyPace((error) => {
    tooSlow = error;
    stopReading(error);
  });
  const count = (chunk: Buffer) => {
    bodyBytes += chunk.length;
    pace.received(chunk.length);
  };
  /**
   * Stops reading and fails the parse. The body is paused, not destroyed: behind a port it
   * is the socket's own request stream, and destroying it would end the connection before
   * the answer is out. The rest is then left unread, for a 413 or 408 sent with
   * `Connection: close`, or read and dropped after a 400 (discardRest).
   */
  const stopReading = (error: Error) => {
    pace.stop();
    // Counting would keep the stream flowing, reading on what nobody wants.
    source.off('data', count);
    source.unpipe(parser);
    source.pause();
    parser.destroy(error);
  };
  parser.on('file', (field, stream, info) => {
    if (field !== 'file') {
      // A body cut short fails this stream too; without a listener that error would be
      // uncaught and end the process. The parser reports the same error to the request.
      stream.on('error', () => {});
      stream.resume();
      return;
    }
    const tempPath = storage.newTempPath();
    temporaries.push(tempPath);
    const counter = new CountingHash(budget);
    const file = createWriteStream(tempPath, { flush: true, highWaterMark: streamBuffer });
    // pipeline settles at the first error, possibly while the file is still being opened:
    // waiting for it to close keeps a clean-up from running before the file exists.
    const write = settledAfterClose(pipeline(stream, counter, file), file).then(() => {
      received.push({
        tempPath,
        name: sanitiseFileName(info.filename),
        size: counter.size,
        sha256: counter.hash.digest('hex'),
        mediaType: 'text/plain', // set once sniffed, below
      });
    });
    // A file over the limit, or one the disk has no room for, stops the whole upload at
    // once: there is no reason to read on (busboy would wait for the failed part's stream).
    write.catch((error: unknown) => {
      if (error instanceof SizeLimitError || isInsufficientStorage(error))
        stopReading(error as Error);
    });
    writes.push(write);
  });
  parser.on('filesLimit', () => {
    tooManyFiles = true;
  });

  const cleanUp = () => Promise.all(temporaries.map((path) => storage.discard(path)));
  try {
    // pipe(), not pipeline(): pipeline would destroy the body on a parse error (stopReading).
    source.on('data', count);
    source.on('error', stopReading);
    source.once('close', () => {
      if (!source.readableEnded)
        stopReading(new Error('the body ended before the end of the form'));
    });
    source.pipe(parser);
    await finished(parser);
    const outcomes = await Promise.allSettled(writes);
    const failure = outcomes.find(
      (outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected',
    );
    if (failure) throw failure.reason;
  } catch (error) {
    // Busboy reports some faults (a malformed part header) without stopping, and may go on
    // to open another part whose stream would then never end: stop it here.
    stopReading(error as Error);
    const failures = (await Promise.allSettled(writes)).flatMap((outcome) =>
      outcome.status === 'rejected' ? [outcome.reason as unknown] : [],
    );
    await cleanUp();
    if (tooSlow) throw tooSlow;
    if (error instanceof SizeLimitError || budget.remaining < 0) throw tooLarge(maxBytes);
    if ([error, ...failures].some(isInsufficientStorage)) throw noRoom();
    // A form the parser gave up on: the connection stays open, past the rest of the body.
    if (!source.destroyed) discardRest(source, maxBytes + framingAllowance - bodyBytes);
    throw new UnreadableInputError(
      `The multipart body cannot be read: ${(error as Error).message}.`,
    );
  } finally {
    pace.stop();
    source.off('data', count);
  }

  try {
    if (tooManyFiles)
      throw new UnreadableInputError(`Send at most ${maxFilesPerUpload} files in one upload.`);
    if (received.length === 0)
      throw new UnreadableInputError('The upload has no part named "file".');
    // Keep the order the parts arrived in.
    received.sort((a, b) => temporaries.indexOf(a.tempPath) - temporaries.indexOf(b.tempPath));
    await sniffMediaTypes(received);
  } catch (error) {
    await cleanUp();
    throw error;
  }
  return received;
}

/** The parser of a `multipart/form-data` body of media type `contentType`. */
function multipartParser(contentType: string): busboy.Busboy {
  try {
    return busboy({
      headers: { 'content-type': contentType },
      defParamCharset: 'utf8',
      highWaterMark: streamBuffer,
      fileHwm: streamBuffer,
      limits: { files: maxFilesPerUpload, fields: 50, parts: 100, fieldSize: 64 * 1024 },
    });
  } catch (error) {
    throw new UnreadableInputError(
      `The multipart body cannot be read: ${(error as Error).message}.`,
    );
  }
}

/** Sets each file's media type from its first bytes; one the service does not read fails. */
async function sniffMediaTypes(received: ReceivedFile[]): Promise<void> {
  for (const file of received) {
    const mediaType = file.size === 0 ? undefined : await sniffMediaType(file.tempPath);
    if (!mediaType) {
      throw new UnsupportedInputError(
        file.size === 0
          ? `${file.name} is empty. Nothing was kept.`
          : `${file.name} is not a PDF, image (PNG, JPEG, WebP, TIFF), text, CSV, Markdown, HTML, Word (DOCX) or Excel (XLSX) file. Nothing was kept.`,
        acceptedMediaTypes,
      );
    }
    file.mediaType = mediaType;
  }
}
