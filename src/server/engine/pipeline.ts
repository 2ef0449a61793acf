/**
 * One document through the engine, as the run worker (../run-lifecycle/worker.ts) drives it:
 * its files are read into pages and cut into chunks (prepare, in a document worker), each
 * chunk goes to the run's strategy and what it found is merged into what earlier chunks
 * found; the record is finalised, the extractor's checks are evaluated over it, it is
 * validated against the target schema, and the values to review are marked.
 *
 * The pipeline stores nothing: it says what it has done through the hooks of its caller,
 * which records it and answers whether to go on (false when the run was paused, cancelled
 * or is no longer the caller's). A document can be resumed from its last stored chunk: the
 * caller hands back what was merged so far.
 */
import { englishWording, evaluateChecks, type Check } from '../../contract/checks.js';
import type { TargetSchema } from '../../contract/json-schema.js';
import type { DocumentMetadata } from '../../contract/review.js';
import { validateAgainstSchema, type PatternTest } from '../../contract/schema-validation.js';
import type { Strategy } from '../../contract/resources.js';
import type { Config } from '../config.js';
import { createLlmStrategy } from './llm/llm-strategy.js';
import { DocumentWorkerCrash, type DocumentPool } from './isolation/pool.js';
import { finaliseResult, mergeExtractionsInto, valuesForReview } from './merge.js';
import {
  ExtractionError,
  type ExtractionStrategy,
  type SourceFile,
  type ValueSource,
} from './types.js';

/** The tokens of one document's chunks, as the run's document keeps them. */
export interface DocumentTokenStats {
  chunks: { chunk: number; inputTokens: number; outputTokens: number }[];
  totalInputTokens: number;
  totalOutputTokens: number;
}

/** What a document's chunks have found so far: its merged record, sources and tokens. */
export interface ExtractionSoFar {
  chunksCompleted: number;
  data: Record<string, unknown>;
  sources: Record<string, ValueSource>;
  stats: DocumentTokenStats;
}

export interface DocumentPipelineRequest {
  /** `count` reads the document and counts its chunks; `extract` goes on to its record. */
  mode: 'count' | 'extract';
  /** The document's name, for what its failures say. */
  name: string;
  /** Its files, in order, as local copies. */
  files: SourceFile[];
  options: Parameters<DocumentPool['prepare']>[0]['options'];
  cacheDir: string;
  chunkSize: number;
  pool: DocumentPool;
  schema: TargetSchema;
  strategy: ExtractionStrategy;
  outputInstructions: string;
  model: string;
  /** Where the document was left: nothing found and no chunk done, for a fresh one. */
  resume: ExtractionSoFar;
  /** How a schema's `pattern` is tested (in linear time, on the service). */
  testPattern: PatternTest;
  signal: AbortSignal;
}

export interface DocumentPipelineHooks {
  /** Pages read so far, while the document is read (for its first reading, OCR above all). */
  onPage?: (read: number, total: number) => void;
  /** Once reading ends, well or not: the chunks hold what the document needs of its files. */
  afterReading(): Promise<void>;
  /** How many chunks the document has; false stops. */
  onCounted(chunksTotal: number): Promise<boolean>;
  /** After each chunk, with everything found so far; false stops. */
  onChunk(progress: ExtractionSoFar, chunksTotal: number, last: boolean): Promise<boolean>;
  /** The extractor's checks as they are when the record is final; none when it is gone. */
  checks(): Promise<readonly Check[]>;
}

export type DocumentPipelineOutcome =
  | { kind: 'stopped' }
  | { kind: 'counted' }
  | { kind: 'completed'; data: unknown; metadata: DocumentMetadata };

/**
 * A worker process may die of something other than the document (the system's OOM killer
 * choosing it, say), so a crash is tried once more; a document that ends a worker twice
 * fails instead of being queued again and again.
 */
export async function twiceOnCrash<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof DocumentWorkerCrash)) throw error;
    try {
      return await work();
    } catch (again) {
      if (again instanceof DocumentWorkerCrash)
        throw new DocumentWorkerCrash(again.fileName, again.how, 2);
      throw again;
    }
  }
}

/**
 * The strategy a run's documents are extracted with. Reading and the local rules happen in
 * the document workers; the service's thread only orchestrates and stores, so the API keeps
 * answering while documents are worked on.
 */
export function documentStrategy(
  name: Strategy,
  pool: DocumentPool,
  llm: Config['llm'],
): ExtractionStrategy {
  if (name === 'llm') return createLlmStrategy(llm);
  return {
    extractChunk: (chunk, context) =>
      twiceOnCrash(() => pool.extract({ chunk, schema: context.schema }, context.signal)),
  };
}

/** One document, read and counted, or read and extracted chunk by chunk to its record. */
export async function runDocumentPipeline(
  request: DocumentPipelineRequest,
  hooks: DocumentPipelineHooks,
): Promise<DocumentPipelineOutcome> {
  const { files, pool, schema, signal } = request;
  let chunks;
  try {
    if (files.length === 0)
      throw new ExtractionError(
        `${request.name} has been removed from the bucket.`,
        'file_missing',
      );
    chunks = await twiceOnCrash(() =>
      pool.prepare(
        {
          files,
          options: request.options,
          cacheDir: request.cacheDir,
          chunkSize: request.chunkSize,
        },
        signal,
        hooks.onPage,
      ),
    );
  } finally {
    await hooks.afterReading();
  }
  if (chunks.length === 0)
    throw new ExtractionError(`No text could be read from ${request.name}.`, 'no_text');
  if (!(await hooks.onCounted(chunks.length))) return { kind: 'stopped' };
  if (request.mode === 'count') return { kind: 'counted' };

  const found = request.resume;
  for (let index = found.chunksCompleted; index < chunks.length; index++) {
    signal.throwIfAborted();
    const extraction = await request.strategy.extractChunk(chunks[index]!, {
      schema,
      outputInstructions: request.outputInstructions,
      model: request.model,
      merged: found.data,
      signal,
    });
    mergeExtractionsInto(schema, found, extraction);
    found.stats.chunks.push({
      chunk: index,
      inputTokens: extraction.usage.inputTokens,
      outputTokens: extraction.usage.outputTokens,
    });
    found.stats.totalInputTokens += extraction.usage.inputTokens;
    found.stats.totalOutputTokens += extraction.usage.outputTokens;
    found.chunksCompleted = index + 1;
    if (!(await hooks.onChunk(found, chunks.length, index + 1 === chunks.length)))
      return { kind: 'stopped' };
  }

  const data = finaliseResult(schema, found.data);
  const checks = evaluateChecks(await hooks.checks(), data, schema, englishWording);
  const metadata: DocumentMetadata = {
    sources: found.sources,
    violations: validateAgainstSchema(schema, data, request.testPattern),
    checks,
    review: valuesForReview(found.sources, checks),
  };
  return { kind: 'completed', data, metadata };
}
