/**
 * The messages between the service and a document worker process (./document-worker.ts).
 * They travel over Node's IPC channel with the structured-clone serialisation, so pages,
 * chunks and extractions cross as they are.
 */
import type { TargetSchema } from '../../../contract/json-schema.js';
import type { Chunk, ChunkExtraction, ContentOptions, SourceFile } from '../types.js';
import type { DocumentLimits } from './limits.js';

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

export type WorkerTask = PrepareTask | ExtractTask;

export interface TaskResults {
  prepare: { chunksTotal: number };
  extract: ChunkExtraction;
}

export type ToWorker =
  { id: number; type: 'task'; task: WorkerTask } | { id: number; type: 'abort' };

export type FromWorker =
  /** The task now works on this file: a limit passed from here on is this file's. */
  | { id: number; type: 'file'; name: string }
  /** Chunks of a prepare task, sent in batches so that no one message is large. */
  | { id: number; type: 'chunks'; chunks: Chunk[] }
  | { id: number; type: 'done'; value: unknown }
  | { id: number; type: 'failed'; error: { name: string; message: string; stack?: string } };
