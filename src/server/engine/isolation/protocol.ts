/**
 * The messages between the service and a document worker process (./document-worker.ts).
 * They travel over Node's IPC channel with the structured-clone serialisation, so pages,
 * chunks and extractions cross as they are.
 */
import type { TargetSchema } from '../../../contract/json-schema.js';
import type { DocumentErrorCode } from '../../../contract/resources.js';
import type { PictureFormat } from '../pages.js';
import type { Chunk, ChunkExtraction, ContentOptions, SourceFile, TextBox } from '../types.js';
import type { DocumentLimits } from '../limits.js';

/** Read the files of a run (through the cache) and cut them into chunks. */
export interface PrepareTask {
  kind: 'prepare';
  files: SourceFile[];
  options: ContentOptions;
  cacheDir: string;
  chunkSize: number;
  limits: DocumentLimits;
}

/** The `local` strategy's rules (and OCR of the chunk's pictures) over one chunk. */
export interface ExtractTask {
  kind: 'extract';
  chunk: Chunk;
  schema: TargetSchema;
  limits: DocumentLimits;
}

/** Count the pages the engine makes of a file. */
export interface CountTask {
  kind: 'count';
  file: SourceFile;
  cacheDir: string;
  limits: DocumentLimits;
}

/**
 * Draw a page of a PDF or an image and write the picture to `output` (through the file
 * `temporary`, so that a reader never sees half of it; the service names it, so that it
 * can remove what a worker ended mid-write left): pictures stay off the channel.
 */
export interface RenderTask {
  kind: 'render';
  file: SourceFile;
  page: number;
  width: number;
  format: PictureFormat;
  output: string;
  temporary: string;
  limits: DocumentLimits;
}

/** The text of a page as a run with these options reads it (through the cache). */
export interface PageTextTask {
  kind: 'text';
  file: SourceFile;
  page: number;
  options: ContentOptions;
  cacheDir: string;
  limits: DocumentLimits;
}

export type WorkerTask = PrepareTask | ExtractTask | CountTask | RenderTask | PageTextTask;

export interface TaskResults {
  prepare: { chunksTotal: number };
  extract: ChunkExtraction;
  count: { pageCount: number };
  /** `written` is false when the file has fewer pages than the one asked for. */
  render: { pageCount: number; written: boolean };
  /** `boxes`: where the text is printed, on a page that is a picture. */
  text: { pageCount: number; text?: string; boxes?: TextBox[] };
}

export type ToWorker =
  { id: number; type: 'task'; task: WorkerTask } | { id: number; type: 'abort' };

export type FromWorker =
  /** The task now works on this file: a limit passed from here on is this file's. */
  | { id: number; type: 'file'; name: string }
  /** How many pages of a prepare task's files are read, of how many (see ReadIo.onPage). */
  | { id: number; type: 'pages'; pagesRead: number; pagesTotal: number }
  /** Chunks of a prepare task, sent in batches so that no one message is large. */
  | { id: number; type: 'chunks'; chunks: Chunk[] }
  | { id: number; type: 'done'; value: unknown }
  | FailedTask;

/**
 * A task that threw. An `ExtractionError` (a limit passed, a damaged file) comes with its
 * `code`, which the service's error takes again (pool.ts: revive); anything else without,
 * but with the system's code where it has one.
 */
export interface FailedTask {
  id: number;
  type: 'failed';
  error: {
    name: string;
    message: string;
    stack?: string;
    code?: DocumentErrorCode;
    /** The system's code of an error that had one (ENOSPC: the disk is full). */
    systemCode?: string;
  };
}
