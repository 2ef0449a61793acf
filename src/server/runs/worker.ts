/**
 * The worker inside the service process. It claims queued runs (up to `concurrency` at a
 * time) and works through them chunk by chunk. After each chunk it stores the merged
 * partial results and the progress, so:
 *  - a pause takes effect between chunks, and a resume continues from the next chunk;
 *  - when the process dies, the next start puts the runs it left `running` back to
 *    `queued` and they continue from their last stored chunk. A chunk is computed again
 *    only if the process died while computing it, and then its first result was never
 *    stored, so nothing is counted twice.
 * A claim is a lease (owner + expiry, renewed while working): with several processes on
 * one database (PostgreSQL), a run whose worker vanished is picked up when its lease ends.
 */
import { join } from 'node:path';
import type { Logger } from 'pino';
import { evaluateChecks } from '../../contract/checks.js';
import { parseTargetSchema, validateAgainstSchema } from '../../contract/json-schema.js';
import type { ResultMetadata } from '../../contract/resources.js';
import type { Config } from '../config.js';
import {
  createStrategy,
  ExtractionError,
  finaliseResult,
  valuesForReview,
  type ExtractionStrategy,
  type SourceFile,
  type ValueSource,
} from '../engine/index.js';
import { DocumentPool, DocumentWorkerCrash } from '../engine/isolation/pool.js';
import { mergeExtractionsInto } from '../engine/merge.js';
import { checksOf } from '../extractors/extractors.js';
import type { FileStorage } from '../files/storage.js';
import type { Db } from '../store/database.js';
import { newId, nowIso } from '../store/ids.js';
import type { RunLifecycle } from './lifecycle.js';
import type { RunSignals } from './events.js';
import type { RunRow } from './runs.js';

export interface WorkerDeps {
  db: Db;
  config: Config;
  logger: Logger;
  storage: FileStorage;
  signals: RunSignals;
  lifecycle: RunLifecycle;
  /** Whether this process is the only one on the store (SQLite): then every `running` run is its own. */
  soleProcess: boolean;
}

export interface TokenStats {
  chunks: { chunk: number; inputTokens: number; outputTokens: number }[];
  totalInputTokens: number;
  totalOutputTokens: number;
}

const leaseMs = 5 * 60_000;
/**
 * Progress is stored (and announced) as chunks complete, but not more often than this: a
 * run of ten thousand quick chunks would otherwise write its whole growing partial result
 * ten thousand times, which costs the square of its length.
 */
const progressIntervalMs = 200;

/**
 * Stores a run's progress after a chunk: at once when the last store is long enough ago,
 * else a little later (while the next chunk works), so no chunk waits long to be seen.
 * Stores happen one after another, each a snapshot taken when it starts.
 */
class ProgressWriter {
  readonly #store: () => Promise<boolean>;
  #lastStoredAt = -Infinity;
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();
  #dirty = false;
  #running = true;

  /** `store` writes the current progress; false when the run is no longer running. */
  constructor(store: () => Promise<boolean>) {
    this.#store = store;
  }

  /** Notes a completed chunk; false once a store found the run paused or cancelled. */
  async chunkDone(last: boolean): Promise<boolean> {
    this.#dirty = true;
    const wait = this.#lastStoredAt + progressIntervalMs - performance.now();
    if (last || wait <= 0) await this.#write();
    else this.#timer ??= setTimeout(() => void this.#write(), wait);
    return this.#running;
  }

  stop(): void {
    clearTimeout(this.#timer);
  }

  #write(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#writing = this.#writing.then(async () => {
      if (!this.#dirty || !this.#running) return;
      this.#dirty = false;
      this.#lastStoredAt = performance.now();
      if (!(await this.#store())) this.#running = false;
    });
    return this.#writing;
  }
}

/**
 * A worker process may die of something other than the document (the system's OOM killer
 * choosing it, say), so a crash is tried once more; a document that ends a worker twice
 * fails the run instead of being queued again and again.
 */
async function twiceOnCrash<T>(work: () => Promise<T>): Promise<T> {
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

export class RunWorker {
  readonly id = `worker-${newId()}`;
  readonly #deps: WorkerDeps;
  readonly #inFlight = new Map<string, { controller: AbortController; done: Promise<void> }>();
  #timer: NodeJS.Timeout | undefined;
  #unsubscribe: (() => void) | undefined;
  #stopped = true;
  #claiming = false;
  #pool: DocumentPool | undefined;

  constructor(deps: WorkerDeps) {
    this.#deps = deps;
  }

  /** Puts back the runs a dead process left behind, then starts claiming. */
  async start(): Promise<void> {
    const { db, config, soleProcess } = this.#deps;
    const now = nowIso();
    let requeue = db
      .updateTable('runs')
      .set({ status: 'queued', lease_owner: null, lease_expires_at: null, updated_at: now })
      .where('status', '=', 'running');
    if (!soleProcess) requeue = requeue.where('lease_expires_at', '<', now);
    const result = await requeue.executeTakeFirst();
    const recovered = Number(result.numUpdatedRows);
    if (recovered > 0)
      this.#deps.logger.warn({ recovered }, 'requeued runs left running by a previous process');
    if (config.workerConcurrency === 0) return;
    this.#stopped = false;
    this.#unsubscribe = this.#deps.signals.onQueued(() => this.kick());
    this.#timer = setInterval(() => this.kick(), config.workerPollMs);
    this.#timer.unref();
    this.kick();
  }

  /** Stops claiming, aborts the work in flight (it stays stored up to its last chunk) and waits. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    this.#unsubscribe?.();
    for (const { controller } of this.#inFlight.values()) controller.abort();
    await Promise.allSettled([...this.#inFlight.values()].map((entry) => entry.done));
    await this.#pool?.close();
    this.#pool = undefined;
  }

  /** The document workers, started with the first run (an API-only process has none). */
  #documentPool(): DocumentPool {
    const { config } = this.#deps;
    this.#pool ??= new DocumentPool({
      size: config.workerConcurrency,
      limits: config.documents,
    });
    return this.#pool;
  }

  /** Stops a cancelled run's chunk at once instead of after it. */
  abort(runId: string): void {
    this.#inFlight.get(runId)?.controller.abort();
  }

  kick(): void {
    if (this.#stopped || this.#claiming) return;
    this.#claiming = true;
    void this.#claimWhileFree()
      .catch((error: unknown) => this.#deps.logger.error({ err: error }, 'claiming runs failed'))
      .finally(() => {
        this.#claiming = false;
      });
  }

  async #claimWhileFree(): Promise<void> {
    while (!this.#stopped && this.#inFlight.size < this.#deps.config.workerConcurrency) {
      const run = await this.#claim();
      if (!run) return;
      const controller = new AbortController();
      const done = this.#process(run, controller.signal).finally(() => {
        this.#inFlight.delete(run.id);
        this.kick();
      });
      this.#inFlight.set(run.id, { controller, done });
    }
  }

  async #claim(): Promise<RunRow | undefined> {
    const { db } = this.#deps;
    for (let attempt = 0; attempt < 5; attempt++) {
      const candidate = await db
        .selectFrom('runs')
        .select(['id', 'started_at'])
        .where('status', '=', 'queued')
        .orderBy('created_at')
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      if (!candidate) return undefined;
      const now = nowIso();
      const first = candidate.started_at === null;
      // Only one claimer wins the conditional update; a loser looks again.
      const claimed = await this.#deps.lifecycle.change(
        candidate.id,
        ['queued'],
        {
          status: 'running',
          lease_owner: this.id,
          lease_expires_at: new Date(Date.now() + leaseMs).toISOString(),
          started_at: candidate.started_at ?? now,
          updated_at: now,
        },
        first ? 'extraction_run.started' : undefined,
      );
      if (claimed) return claimed;
    }
    return undefined;
  }

  async #process(run: RunRow, signal: AbortSignal): Promise<void> {
    const { logger } = this.#deps;
    const renew = setInterval(() => void this.#renewLease(run.id), leaseMs / 3);
    renew.unref();
    try {
      await this.#work(run, signal);
    } catch (error) {
      if (signal.aborted) return; // cancelled, or the service is stopping: the stored state stands
      const message =
        error instanceof ExtractionError
          ? error.message
          : 'The extraction stopped because of an error on our side. Start the run again; if it keeps failing, contact support.';
      if (!(error instanceof ExtractionError))
        logger.error({ err: error, run: run.id }, 'run failed unexpectedly');
      await this.#finish(run.id, { status: 'failed', error: message }, 'extraction_run.failed');
    } finally {
      clearInterval(renew);
    }
  }

  async #renewLease(runId: string): Promise<void> {
    await this.#deps.db
      .updateTable('runs')
      .set({ lease_expires_at: new Date(Date.now() + leaseMs).toISOString() })
      .where('id', '=', runId)
      .where('lease_owner', '=', this.id)
      .execute();
  }

  async #work(run: RunRow, signal: AbortSignal): Promise<void> {
    const { db, config, storage } = this.#deps;
    const parsed = parseTargetSchema(run.target_schema);
    if (!parsed.ok) throw new ExtractionError(`The extractor's schema ${parsed.message}.`);
    const schema = parsed.schema;

    const fileIds = JSON.parse(run.file_ids) as string[];
    const rows =
      fileIds.length === 0
        ? []
        : await db.selectFrom('files').selectAll().where('id', 'in', fileIds).execute();
    const files: SourceFile[] = fileIds.flatMap((id) => {
      const row = rows.find((candidate) => candidate.id === id);
      return row
        ? [
            {
              id: row.id,
              name: row.name,
              path: storage.pathOf(row.bucket_id, row.id),
              mediaType: row.media_type,
              sha256: row.sha256,
            },
          ]
        : [];
    });
    if (files.length === 0)
      throw new ExtractionError('The files of this run have been removed from the bucket.');

    const options = {
      includeText: run.include_text === 1,
      includeEmbeddedImages: run.include_embedded_images === 1,
      markEmbeddedImages: run.mark_embedded_images === 1,
      includePageImages: run.include_page_images === 1,
      markPageImages: run.mark_page_images === 1,
    };
    const pool = this.#documentPool();
    // Reading and the local rules happen in the document workers; this thread only
    // orchestrates and stores, so the API keeps answering while documents are worked on.
    const chunks = await twiceOnCrash(() =>
      pool.prepare(
        { files, options, cacheDir: join(config.dataDir, 'cache'), chunkSize: run.chunk_size },
        signal,
      ),
    );
    if (chunks.length === 0)
      throw new ExtractionError('No text could be read from the files of this run.');

    const strategy: ExtractionStrategy =
      run.strategy === 'llm'
        ? createStrategy('llm', config.llm)
        : {
            extractChunk: (chunk, context) =>
              twiceOnCrash(() => pool.extract({ chunk, schema: context.schema }, context.signal)),
          };
    const merged: { data: Record<string, unknown>; sources: Record<string, ValueSource> } = {
      data: run.partial_result_json
        ? (JSON.parse(run.partial_result_json) as Record<string, unknown>)
        : {},
      sources: run.result_metadata
        ? ((JSON.parse(run.result_metadata) as ResultMetadata).sources as Record<
            string,
            ValueSource
          >)
        : {},
    };
    const stats: TokenStats = run.token_stats
      ? (JSON.parse(run.token_stats) as TokenStats)
      : { chunks: [], totalInputTokens: 0, totalOutputTokens: 0 };
    let completed = run.chunks_completed;
    const progress = new ProgressWriter(async () => {
      const metadata: ResultMetadata = { sources: merged.sources, violations: [] };
      // Progress is kept while the run is running or was paused during this chunk; a
      // cancelled run keeps what it had.
      const stored = await this.#deps.lifecycle.change(
        run.id,
        ['running', 'paused'],
        {
          partial_result_json: JSON.stringify(merged.data),
          result_metadata: JSON.stringify(metadata),
          token_stats: JSON.stringify(stats),
          total_input_tokens: stats.totalInputTokens,
          total_output_tokens: stats.totalOutputTokens,
          chunks_completed: completed,
          chunks_total: chunks.length,
          updated_at: nowIso(),
        },
        'extraction_run.progress',
      );
      return stored?.status === 'running';
    });

    try {
      for (let index = run.chunks_completed; index < chunks.length; index++) {
        signal.throwIfAborted();
        const extraction = await strategy.extractChunk(chunks[index]!, {
          schema,
          outputInstructions: run.output_instructions,
          model: run.model,
          merged: merged.data,
          signal,
        });
        mergeExtractionsInto(schema, merged, extraction);
        stats.chunks.push({
          chunk: index,
          inputTokens: extraction.usage.inputTokens,
          outputTokens: extraction.usage.outputTokens,
        });
        stats.totalInputTokens += extraction.usage.inputTokens;
        stats.totalOutputTokens += extraction.usage.outputTokens;
        completed = index + 1;
        if (!(await progress.chunkDone(index + 1 === chunks.length))) {
          await this.#release(run.id);
          return;
        }
      }
    } finally {
      progress.stop();
    }

    const data = finaliseResult(schema, merged.data);
    // The extractor's checks as they are now (a deleted extractor keeps its row).
    const extractor = await db
      .selectFrom('extractors')
      .select('checks')
      .where('id', '=', run.extractor_id)
      .executeTakeFirst();
    const checks = extractor ? evaluateChecks(checksOf(extractor), data, schema) : [];
    const metadata: ResultMetadata = {
      sources: merged.sources,
      violations: validateAgainstSchema(schema, data),
      checks,
      review: valuesForReview(merged.sources, checks),
    };
    await this.#finish(
      run.id,
      {
        status: 'completed',
        result_json: JSON.stringify(data),
        partial_result_json: JSON.stringify(data),
        result_metadata: JSON.stringify(metadata),
        evaluation_type: 'json-schema',
      },
      'extraction_run.completed',
    );
  }

  async #release(runId: string): Promise<void> {
    await this.#deps.db
      .updateTable('runs')
      .set({ lease_owner: null, lease_expires_at: null })
      .where('id', '=', runId)
      .where('lease_owner', '=', this.id)
      .execute();
  }

  async #finish(
    runId: string,
    patch: Partial<RunRow>,
    event: 'extraction_run.completed' | 'extraction_run.failed',
  ): Promise<void> {
    const now = nowIso();
    await this.#deps.lifecycle.change(
      runId,
      ['running'],
      { ...patch, finished_at: now, updated_at: now, lease_owner: null, lease_expires_at: null },
      event,
    );
    await this.#release(runId);
  }
}
