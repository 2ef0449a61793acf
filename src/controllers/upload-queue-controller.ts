/**
 * The files a person is adding to a bucket: checked for type and size before anything is
 * sent (so a wrong file is explained at once, not after a long upload), then uploaded a
 * few at a time, each with its own progress. A failed upload stays in the list with its
 * reason until it is retried or dismissed; one the service refused for what it is (its
 * content, its size) is `rejected`, like a file refused before sending, since sending it
 * again would be refused again. Leaving the page aborts what is in flight.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { msg, str } from '@lit/localize';
import { formatBytes } from '../locales/format.js';
import { ApiError, describeError, isAbortError } from '../client/api-error.js';
import { defaultMaxUploadBytes, type ExtractorClient } from '../client/client.js';
import { acceptedExtensions, acceptedMediaTypes, type BucketFile } from '../contract/resources.js';

/**
 * `failed`: the upload did not get through (the network, the service busy or down) and
 * trying again can work; `rejected`: the file itself was refused, before sending or by the
 * service, and only another file helps.
 */
export type UploadStatus = 'queued' | 'uploading' | 'done' | 'failed' | 'rejected';

export interface UploadItem {
  /** Unique within the queue, stable across retries. */
  readonly key: string;
  readonly file: File;
  status: UploadStatus;
  /** Bytes sent so far. */
  loaded: number;
  /** Why the file was refused or its upload failed, in plain words. */
  message: string | undefined;
  /** What the service made of it, once uploaded. */
  uploaded: BucketFile[] | undefined;
}

export interface UploadTarget {
  client: ExtractorClient;
  bucketId: string;
}

export interface UploadQueueOptions {
  /** Uploads at the same time; more rarely helps and makes each bar slower. */
  concurrency?: number;
  /**
   * Called once nothing is left waiting or on its way, with every file uploaded since the
   * last call. A host that reloads the bucket then never lists a file the service already
   * holds while its own upload still shows as in progress, which per-file calls allowed: a
   * reload after one file could catch another that had arrived but not yet answered.
   */
  onUploaded?: (files: BucketFile[]) => void;
  /** Called when an upload fails or the service refuses the file (`item.status` says which). */
  onFailed?: (item: UploadItem) => void;
}

/** What `<input accept>` offers: the types we read, which on phones includes the camera. */
export const acceptAttribute = [...acceptedMediaTypes, ...acceptedExtensions].join(',');

/**
 * Whether sending the same file again can succeed: when the request did not get through or
 * the service could not take it just then (timeouts, too many requests, its own errors),
 * not when it answered that the file itself is wrong.
 */
export function canRetryUpload(error: unknown): boolean {
  if (isAbortError(error) || !(error instanceof ApiError)) return true;
  return error.status === 0 || [408, 425, 429].includes(error.status) || error.status >= 500;
}

/** Why a file cannot be uploaded, or `undefined` when it can. */
export function checkFile(file: File, maxBytes = defaultMaxUploadBytes): string | undefined {
  const dot = file.name.lastIndexOf('.');
  const extension = dot >= 0 ? file.name.slice(dot).toLowerCase() : '';
  const knownExtension = (acceptedExtensions as readonly string[]).includes(extension);
  const knownType = (acceptedMediaTypes as readonly string[]).includes(file.type);
  const name = file.name || msg('This file', { id: 'upload.this-file' });
  if (!knownExtension && !knownType)
    return msg(
      str`“${name}” is not a kind of file we can read. Use PDF, images (PNG, JPEG, WebP, TIFF), Word, Excel, CSV, Markdown, HTML or plain text.`,
      { id: 'upload.unknown-kind' },
    );
  if (file.size === 0) return msg(str`“${name}” is empty.`, { id: 'upload.empty' });
  if (file.size > maxBytes) {
    const size = formatBytes(file.size);
    const limit = formatBytes(maxBytes);
    // Just over the limit rounds to the limit's own text ("50 MB; at most 50 MB"), which
    // reads as a contradiction; then the size is left out.
    return size === limit
      ? msg(str`“${name}” is larger than the ${limit} a file can be.`, { id: 'upload.too-large' })
      : msg(str`“${name}” is ${size}; a file can be at most ${limit}.`, {
          id: 'upload.too-large-size',
        });
  }
  return undefined;
}

let nextKey = 0;

export class UploadQueueController implements ReactiveController {
  /** The largest file accepted; larger ones are refused before upload. */
  maxBytes = defaultMaxUploadBytes;

  readonly #host: ReactiveControllerHost;
  readonly #options: UploadQueueOptions;
  #items: UploadItem[] = [];
  readonly #inFlight = new Map<string, AbortController>();
  #uploadedSinceSettled: BucketFile[] = [];
  #target: UploadTarget | undefined;

  constructor(host: ReactiveControllerHost, options: UploadQueueOptions = {}) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  /** Where uploads go; files added before it is known wait for it. */
  get target(): UploadTarget | undefined {
    return this.#target;
  }

  set target(target: UploadTarget | undefined) {
    this.#target = target;
    this.#pump();
  }

  /** The files in the queue, in the order they were added. */
  get value(): readonly UploadItem[] {
    return this.#items;
  }

  /** True while any file waits or is on its way. */
  get busy(): boolean {
    return this.#items.some((item) => item.status === 'queued' || item.status === 'uploading');
  }

  hostConnected(): void {
    this.#pump();
  }

  hostDisconnected(): void {
    for (const controller of this.#inFlight.values()) controller.abort();
  }

  /** Checks the files and queues those that pass; returns the new items. */
  add(files: Iterable<File>): UploadItem[] {
    const added = [...files].map((file): UploadItem => {
      const message = checkFile(file, this.maxBytes);
      return {
        key: `upload-${++nextKey}`,
        file,
        status: message ? 'rejected' : 'queued',
        loaded: 0,
        message,
        uploaded: undefined,
      };
    });
    this.#items = [...this.#items, ...added];
    this.#changed();
    this.#pump();
    return added;
  }

  retry(key: string): void {
    const item = this.#find(key);
    if (!item || item.status !== 'failed') return;
    item.status = 'queued';
    item.loaded = 0;
    item.message = undefined;
    this.#changed();
    this.#pump();
  }

  /** Takes an item off the list, stopping its upload if it is on its way. */
  dismiss(key: string): void {
    this.#inFlight.get(key)?.abort();
    this.#items = this.#items.filter((item) => item.key !== key);
    this.#changed();
  }

  #find(key: string): UploadItem | undefined {
    return this.#items.find((item) => item.key === key);
  }

  #pump(): void {
    const target = this.#target;
    if (!target) return;
    const limit = this.#options.concurrency ?? 2;
    for (const item of this.#items) {
      if (this.#inFlight.size >= limit) break;
      if (item.status === 'queued') void this.#upload(item, target);
    }
  }

  async #upload(item: UploadItem, target: UploadTarget): Promise<void> {
    const controller = new AbortController();
    this.#inFlight.set(item.key, controller);
    item.status = 'uploading';
    item.loaded = 0;
    this.#changed();
    try {
      const uploaded = await target.client.uploadFile(target.bucketId, item.file, {
        signal: controller.signal,
        onProgress: (loaded) => {
          item.loaded = loaded;
          this.#changed();
        },
      });
      item.status = 'done';
      item.loaded = item.file.size;
      item.uploaded = uploaded;
      this.#uploadedSinceSettled.push(...uploaded);
    } catch (error) {
      item.status = canRetryUpload(error) ? 'failed' : 'rejected';
      item.message = isAbortError(error)
        ? msg('The upload was stopped.', { id: 'upload.stopped' })
        : describeError(error);
      // A dismissed item was aborted on purpose: nobody needs to hear about it.
      if (this.#items.includes(item)) this.#options.onFailed?.(item);
    } finally {
      this.#inFlight.delete(item.key);
      this.#changed();
      this.#pump();
      this.#reportIfSettled();
    }
  }

  #reportIfSettled(): void {
    if (this.busy || this.#uploadedSinceSettled.length === 0) return;
    const files = this.#uploadedSinceSettled;
    this.#uploadedSinceSettled = [];
    this.#options.onUploaded?.(files);
  }

  #changed(): void {
    // Items are changed in place; a new array tells Lit's `repeat` and change checks.
    this.#items = [...this.#items];
    this.#host.requestUpdate();
  }
}
