/**
 * The typed REST client of the interface. It speaks only with an embed session token:
 * a personal access token can do everything and must never reach a browser, so the client
 * refuses one. Every answer is checked against the contract schemas before anyone reads it,
 * and every call takes an AbortSignal so a view that goes away stops what it started.
 */
import * as z from 'zod/mini';
import { idFromReference, iriOf } from '../contract/iri.js';
import {
  bucketFileSchema,
  bucketSchema,
  currentSessionSchema,
  extractorSchema,
  runSchema,
  submissionSchema,
  type Bucket,
  type BucketFile,
  type CurrentSession,
  type Extractor,
  type ResultsEdit,
  type Run,
  type Submission,
} from '../contract/resources.js';
import type { RunCommand } from '../contract/run-status.js';
import {
  ApiError,
  errorFromAnswer,
  networkErrorMessage,
  unexpectedAnswerMessage,
} from './api-error.js';

export const sessionTokenPrefix = 'xses_';
export const personalTokenPrefix = 'xpat_';

/** The service's default MAX_UPLOAD_BYTES; the service's own 413 stays the final word. */
export const defaultMaxUploadBytes = 50 * 1024 * 1024;

export const resultFormats = ['json', 'xml', 'csv'] as const;
export type ResultFormat = (typeof resultFormats)[number];

export class TokenKindError extends Error {
  constructor() {
    super(
      'This page was given a personal access token. Personal access tokens must stay on your ' +
        'server: mint an embed session (POST /api/embed_sessions) and pass its token instead.',
    );
    this.name = 'TokenKindError';
  }
}

export interface ClientOptions {
  /** Where the service lives, such as `https://extractor.example`; no trailing slash needed. */
  baseUrl: string;
  /** An embed session token (`xses_…`). */
  token: string;
}

export interface UploadOptions {
  signal?: AbortSignal;
  /** Bytes sent so far and the total, as the browser reports them. */
  onProgress?: (loaded: number, total: number) => void;
}

export interface Download {
  blob: Blob;
  filename: string;
}

const fileListSchema = z.array(bucketFileSchema);

/** What the client needs of a renewed session: its token and when that expires. */
const renewedSessionSchema = z.object({ token: z.string(), expiresAt: z.string() });

export class ExtractorClient {
  readonly baseUrl: string;
  readonly token: string;

  constructor(options: ClientOptions) {
    if (options.token.startsWith(personalTokenPrefix)) throw new TokenKindError();
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.token = options.token;
  }

  getCurrentSession(signal?: AbortSignal): Promise<CurrentSession> {
    return this.#json('GET', '/api/embed_sessions/current', currentSessionSchema, { signal });
  }

  /**
   * A new token for the session in use (`POST /api/embed_sessions/renew`), while the
   * session's maximum lifetime allows. The caller goes on with the new token.
   */
  renewSession(signal?: AbortSignal): Promise<{ token: string; expiresAt: string }> {
    return this.#json('POST', '/api/embed_sessions/renew', renewedSessionSchema, { signal });
  }

  getExtractor(id: string, signal?: AbortSignal): Promise<Extractor> {
    return this.#json('GET', iriOf('extractor', id), extractorSchema, { signal });
  }

  getBucket(id: string, signal?: AbortSignal): Promise<Bucket> {
    return this.#json('GET', iriOf('bucket', id), bucketSchema, { signal });
  }

  /** Adds one file to a bucket. */
  uploadFile(bucketId: string, file: File, options: UploadOptions = {}): Promise<BucketFile[]> {
    return this.#sendFile(`${iriOf('bucket', bucketId)}/files`, file, 201, fileListSchema, options);
  }

  async deleteFile(bucketId: string, fileId: string, signal?: AbortSignal): Promise<void> {
    await this.#send('DELETE', `${iriOf('bucket', bucketId)}/files/${encodeURIComponent(fileId)}`, {
      signal,
    });
  }

  getRun(id: string, signal?: AbortSignal): Promise<Run> {
    return this.#json('GET', runPath(id), runSchema, { signal });
  }

  /** A new run of the session's extractor over its bucket; it starts `queued`. */
  startRun(bucketId: string, extractorId: string, signal?: AbortSignal): Promise<Run> {
    const body = {
      bucket: iriOf('bucket', bucketId),
      savedExtractor: iriOf('extractor', extractorId),
    };
    return this.#json('POST', '/api/extraction_runs', runSchema, { signal, body });
  }

  runCommand(id: string, command: RunCommand, signal?: AbortSignal): Promise<Run> {
    return this.#json('POST', `${runPath(id)}/${command}`, runSchema, { signal });
  }

  /** Replaces records of the run's documents with a person's edits; a 422 names the fields at fault. */
  saveResults(id: string, edit: ResultsEdit, signal?: AbortSignal): Promise<Run> {
    return this.#json('PUT', `${runPath(id)}/results`, runSchema, { signal, body: edit });
  }

  /** Replaces one document's record with a person's edits; a 422 names the fields at fault. */
  saveDocumentResults(
    id: string,
    fileId: string,
    record: unknown,
    signal?: AbortSignal,
  ): Promise<Run> {
    return this.#json('PUT', `${documentPath(id, fileId)}/results`, runSchema, {
      signal,
      body: record,
    });
  }

  /**
   * Puts another file in the place of a document that could not be read, and extracts just
   * that document again; the other documents and their edits stay as they are.
   */
  replaceDocumentFile(
    id: string,
    fileId: string,
    file: File,
    options: UploadOptions = {},
  ): Promise<Run> {
    return this.#sendFile(`${documentPath(id, fileId)}/replace`, file, 202, runSchema, options);
  }

  submitResults(id: string, signal?: AbortSignal): Promise<Submission> {
    return this.#json('POST', `${runPath(id)}/submit`, submissionSchema, { signal });
  }

  /** The results as a file, fetched with the token (a plain link could not carry it). */
  async downloadResults(id: string, format: ResultFormat, signal?: AbortSignal): Promise<Download> {
    const response = await this.#send('GET', `${runPath(id)}/results?format=${format}`, {
      signal,
      accept: '*/*',
    });
    const blob = await response.blob();
    const filename =
      filenameFromDisposition(response.headers.get('content-disposition')) ?? `results.${format}`;
    return { blob, filename };
  }

  /**
   * A GET with the token, answered as it comes (after a problem is thrown as an ApiError):
   * for reads whose answers are not JSON resources, such as a page's picture (pages.ts).
   */
  get(
    path: string,
    options: { accept: string; cache?: RequestCache; signal?: AbortSignal | undefined },
  ): Promise<Response> {
    return this.#send('GET', path, options);
  }

  /**
   * The address of a run's event stream. EventSource cannot send headers, so the token
   * rides in the query (the service accepts it there for this path only and never logs
   * queries); `lastEventId` resumes after a reconnect.
   */
  runEventsUrl(id: string, lastEventId?: string): string {
    const query = new URLSearchParams({ access_token: this.token });
    if (lastEventId) query.set('lastEventId', lastEventId);
    return this.#url(`${runPath(id)}/events?${query}`);
  }

  /**
   * Sends one file as the `file` part of a multipart form. XMLHttpRequest because fetch
   * cannot report upload progress yet.
   */
  #sendFile<T>(
    path: string,
    file: File,
    expectedStatus: number,
    schema: z.ZodMiniType<T>,
    options: UploadOptions,
  ): Promise<T> {
    const { signal, onProgress } = options;
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new DOMException('The upload was stopped.', 'AbortError'));
      const request = new XMLHttpRequest();
      request.open('POST', this.#url(path));
      request.setRequestHeader('Authorization', `Bearer ${this.token}`);
      request.setRequestHeader('Accept', 'application/json');
      request.upload.addEventListener('progress', (event) => {
        onProgress?.(event.loaded, event.lengthComputable ? event.total : file.size);
      });
      request.addEventListener('load', () => {
        if (request.status !== expectedStatus) {
          reject(
            errorFromAnswer(
              request.status,
              request.getResponseHeader('content-type'),
              request.responseText,
            ),
          );
          return;
        }
        try {
          resolve(checked(schema, JSON.parse(request.responseText)));
        } catch (error) {
          reject(
            error instanceof ApiError
              ? error
              : new ApiError(request.status, unexpectedAnswerMessage),
          );
        }
      });
      request.addEventListener('error', () => reject(new ApiError(0, networkErrorMessage)));
      request.addEventListener('abort', () =>
        reject(new DOMException('The upload was stopped.', 'AbortError')),
      );
      signal?.addEventListener('abort', () => request.abort(), { once: true });
      const form = new FormData();
      form.append('file', file, file.name);
      request.send(form);
    });
  }

  #url(path: string): string {
    return `${this.baseUrl}${path}`;
  }

  async #send(
    method: string,
    path: string,
    options: {
      signal?: AbortSignal | undefined;
      body?: unknown;
      accept?: string;
      cache?: RequestCache;
    } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.token}`,
      Accept: options.accept ?? 'application/json',
    };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(this.#url(path), {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: options.signal,
        // Bearer tokens only: cookies of the service's origin must play no part.
        credentials: 'omit',
        // Answers change with every edit, so none is kept, but a page's picture (its ETag
        // names it for good).
        cache: options.cache ?? 'no-store',
      });
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason ?? error;
      throw new ApiError(0, networkErrorMessage);
    }
    if (!response.ok) {
      throw errorFromAnswer(
        response.status,
        response.headers.get('content-type'),
        await response.text(),
      );
    }
    return response;
  }

  async #json<T>(
    method: string,
    path: string,
    schema: z.ZodMiniType<T>,
    options: { signal?: AbortSignal; body?: unknown } = {},
  ): Promise<T> {
    const response = await this.#send(method, path, options);
    let value: unknown;
    try {
      value = await response.json();
    } catch {
      throw new ApiError(response.status, unexpectedAnswerMessage);
    }
    return checked(schema, value);
  }
}

function runPath(id: string): string {
  return `/api/extraction_runs/${encodeURIComponent(id)}`;
}

function documentPath(id: string, fileId: string): string {
  return `${runPath(id)}/documents/${encodeURIComponent(fileId)}`;
}

export function checked<T>(schema: z.ZodMiniType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new ApiError(200, unexpectedAnswerMessage);
  return result.data;
}

/** RFC 6266: prefer the exact `filename*` (RFC 8187), fall back to the ASCII `filename`. */
export function filenameFromDisposition(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // A malformed encoding: the plain name below will do.
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"/i.exec(header) ?? /filename\s*=\s*([^;]+)/i.exec(header);
  return plain?.[1]?.trim() || undefined;
}

const bucketFiles = new WeakMap<Bucket, BucketFile[]>();

/** The files of a bucket, read from its `artifacts` JSON text (and remembered per bucket). */
export function filesOfBucket(bucket: Bucket | undefined): BucketFile[] {
  if (!bucket?.artifacts) return [];
  let files = bucketFiles.get(bucket);
  if (!files) {
    try {
      const parsed = fileListSchema.safeParse(JSON.parse(bucket.artifacts));
      files = parsed.success ? parsed.data : [];
    } catch {
      files = [];
    }
    bucketFiles.set(bucket, files);
  }
  return files;
}

/** The id of a run, bucket or extractor named by an IRI from the service. */
export function idOf(resource: 'run' | 'bucket' | 'extractor', reference: string): string {
  const id = idFromReference(resource, reference);
  if (!id) throw new ApiError(200, unexpectedAnswerMessage);
  return id;
}
