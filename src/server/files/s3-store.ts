/**
 * Files in an S3-compatible object store (FILES_URL=s3://bucket/prefix): AWS S3, MinIO,
 * Ceph, R2 and the like, through the AWS SDK. The endpoint, the credentials and the region
 * come from the SDK's usual sources (AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY, AWS_REGION, or the shared config files).
 *
 * No file is ever held whole in memory: a commit streams the temporary file up (a multipart
 * upload once it is larger than one part, so at most `queueSize` parts are in memory), a
 * read streams the object down, and the engine gets a local copy streamed to a temporary
 * file that is removed once the run has read it.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  assertStorageId,
  defaultSweepGraceMs,
  isStorageId,
  resetTemporaryDirectory,
  type FileStore,
  type LocalCopy,
} from './storage.js';

/** S3's smallest part; the most memory one upload holds is this times `queueSize`. */
const partSize = 5 * 1024 * 1024;
const queueSize = 2;

export interface S3FileStoreOptions {
  bucket: string;
  /** Key prefix, without slashes at its ends; empty for the bucket's root. */
  prefix: string;
  tmpDir: string;
  /** Beyond what the SDK reads from the environment (tests name their stand-in here). */
  clientConfig?: S3ClientConfig;
  /** How old an object no row knows must be before a sweep removes it (an hour). */
  sweepGraceMs?: number;
}

export class S3FileStore implements FileStore {
  readonly client: S3Client;
  readonly bucket: string;
  readonly tmpDir: string;
  readonly #prefix: string;
  readonly #sweepGraceMs: number;

  constructor(options: S3FileStoreOptions) {
    const customEndpoint = Boolean(
      options.clientConfig?.endpoint ??
      (process.env.AWS_ENDPOINT_URL_S3 || process.env.AWS_ENDPOINT_URL),
    );
    this.client = new S3Client({
      // An endpoint of one's own (MinIO, Ceph, a stand-in on loopback) is addressed
      // path-style, which every S3-compatible server understands; AWS as AWS prefers.
      forcePathStyle: customEndpoint,
      ...options.clientConfig,
    });
    this.bucket = options.bucket;
    this.#prefix = options.prefix ? `${options.prefix}/` : '';
    this.tmpDir = options.tmpDir;
    this.#sweepGraceMs = options.sweepGraceMs ?? defaultSweepGraceMs;
  }

  keyOf(bucketId: string, fileId: string): string {
    return `${this.#prefix}${assertStorageId(bucketId)}/${assertStorageId(fileId)}`;
  }

  async init(): Promise<void> {
    await resetTemporaryDirectory(this.tmpDir);
  }

  newTempPath(): string {
    return join(this.tmpDir, randomBytes(16).toString('hex'));
  }

  async commit(tempPath: string, bucketId: string, fileId: string): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.bucket,
        Key: this.keyOf(bucketId, fileId),
        Body: createReadStream(tempPath),
      },
      partSize,
      queueSize,
    });
    await upload.done();
    await rm(tempPath, { force: true });
  }

  async discard(tempPath: string): Promise<void> {
    await rm(tempPath, { force: true });
  }

  async remove(bucketId: string, fileId: string): Promise<void> {
    await this.client.send(
      new DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyOf(bucketId, fileId) }),
    );
  }

  read(bucketId: string, fileId: string): Readable {
    const key = this.keyOf(bucketId, fileId);
    const controller = new AbortController();
    // The object is asked for at once; a reader that goes away (a client that hangs up)
    // destroys this stream, and that aborts the download.
    const bytes = new PassThrough({
      destroy(error, callback) {
        controller.abort();
        callback(error);
      },
    });
    this.client
      .send(new GetObjectCommand({ Bucket: this.bucket, Key: key }), {
        abortSignal: controller.signal,
      })
      .then(
        ({ Body }) => pipeline(Body as Readable, bytes),
        (error: unknown) => bytes.destroy(error as Error),
      )
      .catch(() => {
        // pipeline has destroyed `bytes` with the error already; the reader sees it there.
      });
    return bytes;
  }

  async localCopy(bucketId: string, fileId: string, signal?: AbortSignal): Promise<LocalCopy> {
    const path = this.newTempPath();
    const release = () => rm(path, { force: true });
    try {
      const { Body } = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(bucketId, fileId) }),
        { abortSignal: signal },
      );
      await pipeline(Body as Readable, createWriteStream(path), { signal });
    } catch (error) {
      await release();
      throw error;
    }
    return { path, release };
  }

  async sweep(isKnown: (bucketId: string, fileId: string) => boolean): Promise<number> {
    const settledBefore = Date.now() - this.#sweepGraceMs;
    let removed = 0;
    let continuationToken: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: this.#prefix,
          ContinuationToken: continuationToken,
        }),
      );
      for (const object of page.Contents ?? []) {
        const [bucketId, fileId, ...rest] = (object.Key ?? '')
          .slice(this.#prefix.length)
          .split('/');
        if (rest.length > 0 || !bucketId || !fileId) continue;
        if (!isStorageId(bucketId) || !isStorageId(fileId) || isKnown(bucketId, fileId)) continue;
        if ((object.LastModified?.getTime() ?? Date.now()) >= settledBefore) continue;
        await this.remove(bucketId, fileId);
        removed++;
      }
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken);
    return removed;
  }

  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  close(): void {
    this.client.destroy();
  }
}
