/**
 * The run worker of a process. It claims queued runs (up to WORKER_CONCURRENCY at a time)
 * and works through each run's documents one after another, each on its own and chunk by
 * chunk. After each chunk it stores the document's merged partial results and progress, so:
 *  - a pause takes effect between chunks, and a resume continues from the next chunk;
 *  - a run whose worker is gone continues from its last stored chunk. A chunk is computed
 *    again only if its worker died while computing it, and then its first result was never
 *    stored, so nothing is counted twice.
 *
 * A claim is a lease: the worker's id and an expiry by the database's clock, renewed every
 * third of its length while the run is worked on. Every write the worker makes to the run
 * holds only while the lease is its own, and a worker that cannot renew its lease stops
 * working the run, so no run is worked by two workers at once. Leases that ran out (their
 * worker died, or lost the database) are put back in the queue by a reaper that every
 * worker runs now and then; on SQLite, where the process is the only one, its start puts
 * back every run a previous process left running. SIGTERM (`stop`) lets the chunks in
 * flight finish for a while, then hands their runs back to the queue at once.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { RunEventType } from '../../contract/events.js';
import { parseTargetSchema, type TargetSchema } from '../../contract/json-schema.js';
import type { DocumentMetadata } from '../../contract/review.js';
import type { RunStatus } from '../../contract/run-status.js';
import type { Config } from '../config.js';
import type { DataDirectory } from '../data-directory.js';
import { isInsufficientStorage } from '../errors.js';
import {
  documentStrategy,
  ExtractionError,
  runDocumentPipeline,
  type DocumentPipelineOutcome,
  type DocumentTokenStats,
  type ExtractionSoFar,
  type ExtractionStrategy,
  type SourceFile,
  type ValueSource,
} from '../engine/index.js';
import { DocumentPool } from '../engine/isolation/pool.js';
import { checksOf, documentLanguagesOf, extractorColumns } from '../extractors/extractors.js';
import { testPatternLinearly } from '../extractors/patterns.js';
import { filesByIds } from '../files/files.js';
import type { FileStore, LocalCopy } from '../files/storage.js';
import { dialectOf } from '../store/clock.js';
import type { Db } from '../store/database.js';
import { nowIso } from '../store/ids.js';
import {
  documentError,
  documentFileIds,
  listDocuments,
  settledOutcome,
  type RunDocumentRow,
} from '../runs/documents.js';
import { contentOptionsOf, type RunRow } from '../runs/runs.js';
import { releaseLease, renewLease, requeueExpiredLeases } from './leases.js';
import type { RunLifecycle, RunPatch } from './lifecycle.js';
import { ProgressWriter } from './progress-writer.js';
import type { RunSignals } from './signals.js';

export interface WorkerDeps {
  db: Db;
  config: Config;
  logger: Logger;
  storage: FileStore;
  /** Its reserve of room lets a document's failure be recorded on a full disk. */
  dataDirectory: DataDirectory;
  signals: RunSignals;
  lifecycle: RunLifecycle;
}

/** What every document of one run is worked with. */
interface DocumentContext {
  run: RunRow;
  schema: TargetSchema;
  pool: DocumentPool;
  strategy: ExtractionStrategy;
  signal: AbortSignal;
}

/** The event that announces each way a run settles. */
const settledEvents: Partial<Record<RunStatus, RunEventType>> = {
  completed: 'extraction_run.completed',
  partially_completed: 'extraction_run.partially_completed',
  failed: 'extraction_run.failed',
};

/** Why a run's work was stopped from outside, as its AbortSignal's reason. */
const stopReasons = {
  cancelled: new Error('The run was cancelled.'),
  leaseLost: new Error('The lease on the run ended; another worker may hold it.'),
  stopping: new Error('The process is stopping.'),
};

interface InFlight {
  controller: AbortController;
  done: Promise<void>;
}

/**
 * What a document or run that failed with `error` says: its own words for a failure a person
 * can act on; `noRoom` for a full disk (no fault of the document, and it passes); else
 * `onOurSide`.
 */
function failureOf(error: unknown, words: { noRoom: string; onOurSide: string }): ExtractionError {
  if (error instanceof ExtractionError) return error;
  return new ExtractionError(
    isInsufficientStorage(error) ? words.noRoom : words.onOurSide,
    'extraction_failed',
  );
}

/** A file missing from the store fails its run with its name, not with an error on our side. */
function isMissingFile(error: unknown): boolean {
  const { code, name } = error as { code?: string; name?: string };
  return code === 'ENOENT' || name === 'NoSuchKey' || name === 'NotFound';
}

/** Stores a change of one document of the run (worker.ts: #documentStore). */
type DocumentStore = (
  patch: Partial<RunDocumentRow>,
  event?: RunEventType,
  from?: readonly RunStatus[],
) => Promise<RunRow | undefined>;

/** How a run's documents are read: the options of its extractor at its start. */
function readingOptionsOf(run: RunRow) {
  return { ...contentOptionsOf(run), documentLanguages: documentLanguagesOf(run) };
}

/** What a document's stored chunks found, to go on from: nothing for a fresh one. */
function resumedExtraction(document: RunDocumentRow): ExtractionSoFar {
  return {
    chunksCompleted: document.chunks_completed,
    data: document.partial_result_json
      ? (JSON.parse(document.partial_result_json) as Record<string, unknown>)
      : {},
    sources: document.result_metadata
      ? ((JSON.parse(document.result_metadata) as DocumentMetadata).sources as Record<
          string,
          ValueSource
        >)
      : {},
    stats: document.token_stats
      ? (JSON.parse(document.token_stats) as DocumentTokenStats)
      : { chunks: [], totalInputTokens: 0, totalOutputTokens: 0 },
  };
}

export class RunWorker {
  /**
   * What the runs it holds name as their lease's owner: the machine and process, for an
   * operator to tell whose a run is, and a random part, since a process id comes again.
   */
  readonly id = `worker-${hostname().slice(0, 16)}:${process.pid}:${randomBytes(6).toString('hex')}`;
  readonly #deps: WorkerDeps;
  readonly #inFlight = new Map<string, InFlight>();
  readonly #timers: NodeJS.Timeout[] = [];
  readonly #unsubscribe: (() => void)[] = [];
  #stopped = true;
  /** Set by `stop`: runs in flight end after their current chunk and are handed back. */
  #draining = false;
  #claiming = false;
  #pool: DocumentPool | undefined;

  constructor(deps: WorkerDeps) {
    this.#deps = deps;
  }

  /** Puts back the runs whose worker is gone, then starts claiming. */
  async start(): Promise<void> {
    const { config, signals } = this.#deps;
    // On SQLite this process is the only one: whatever is running belongs to one that died.
    // A store that cannot be written now (a full disk) must not keep the process from
    // starting: the reaper puts those runs back once their leases have run out.
    await this.requeueAbandoned(dialectOf(this.#deps.db) === 'sqlite').catch((error: unknown) =>
      this.#deps.logger.error({ err: error }, 'putting back abandoned runs failed'),
    );
    if (config.workerConcurrency === 0) return;
    this.#stopped = false;
    this.#unsubscribe.push(
      signals.onQueued(() => this.kick()),
      signals.onCancelled((runId) => this.#abort(runId, stopReasons.cancelled)),
    );
    const poll = setInterval(() => this.kick(), config.workerPollMs);
    // A lease is renewed every third of its length, so one that has run out is a worker gone.
    const reap = setInterval(
      () =>
        void this.requeueAbandoned(false).catch((error: unknown) =>
          this.#deps.logger.error({ err: error }, 'putting back abandoned runs failed'),
        ),
      Math.max(config.workerLeaseMs / 2, 250),
    );
    for (const timer of [poll, reap]) {
      timer.unref();
      this.#timers.push(timer);
    }
    this.kick();
  }

  /**
   * Puts runs whose lease ran out back in the queue (by the database's clock), or, with
   * `all`, every running run. Returns how many; wakes the workers when there were some.
   */
  async requeueAbandoned(all: boolean): Promise<number> {
    const { db, logger, signals } = this.#deps;
    // Not those it works on: they are alive, and renewed unless the database is out of
    // reach, in which case this statement fails as well. A slow renewal must not requeue
    // them. Its own that it no longer works on are abandoned too: their failure could not
    // be recorded (a full disk).
    const requeued = await requeueExpiredLeases(db, all, [...this.#inFlight.keys()]);
    if (requeued > 0) {
      logger.warn({ requeued }, 'put back runs whose worker is gone');
      signals.runQueued();
    }
    return requeued;
  }

  /**
   * Stops claiming; lets the chunks in flight finish for up to `graceMs` (their progress is
   * stored), stops the rest, and hands every run it held back to the queue, so another
   * worker continues it at once rather than when its lease runs out.
   */
  async stop(graceMs = 0): Promise<void> {
    this.#stopped = true;
    this.#draining = true;
    for (const timer of this.#timers.splice(0)) clearInterval(timer);
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
    const held = [...this.#inFlight.keys()];
    const settled = Promise.allSettled([...this.#inFlight.values()].map((entry) => entry.done));
    let grace: NodeJS.Timeout | undefined;
    const graceOver = new Promise<void>((resolve) => (grace = setTimeout(resolve, graceMs)));
    await Promise.race([settled, graceOver]);
    clearTimeout(grace);
    for (const runId of this.#inFlight.keys()) this.#abort(runId, stopReasons.stopping);
    await settled;
    await this.#pool?.close();
    this.#pool = undefined;
    await this.#handBack(held);
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

  #abort(runId: string, reason: Error): void {
    this.#inFlight.get(runId)?.controller.abort(reason);
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
    const { config, lifecycle } = this.#deps;
    while (!this.#stopped && this.#inFlight.size < config.workerConcurrency) {
      // Not a run still winding down here (paused and resumed before its chunk ended): the
      // lease is this worker's either way, and the two would not tell each other apart.
      const run = await lifecycle.claimNext(this.id, config.workerLeaseMs, [
        ...this.#inFlight.keys(),
      ]);
      if (!run || this.#stopped) {
        if (run) await this.#handBack([run.id]);
        return;
      }
      const controller = new AbortController();
      const done = this.#process(run, controller).finally(() => {
        this.#inFlight.delete(run.id);
        this.kick();
      });
      this.#inFlight.set(run.id, { controller, done });
    }
  }

  async #process(run: RunRow, controller: AbortController): Promise<void> {
    const { logger } = this.#deps;
    const { signal } = controller;
    const stopRenewing = this.#keepLease(run.id, controller);
    try {
      await this.#work(run, signal);
    } catch (error) {
      // Cancelled, the lease lost, or the process stopping: what is stored stands.
      if (signal.aborted) return;
      if (!(error instanceof ExtractionError) && !isInsufficientStorage(error))
        logger.error({ err: error, run: run.id }, 'run failed unexpectedly');
      else if (error instanceof ExtractionError && error.detail)
        logger.warn({ run: run.id, detail: error.detail }, 'run failed');
      try {
        await this.#failRun(
          run,
          failureOf(error, {
            noRoom:
              "The extraction stopped: the service's disk is full. Start the run again once there is room.",
            onOurSide:
              'The extraction stopped because of an error on our side. Start the run again; if it keeps failing, contact support.',
          }),
        );
      } catch (unrecorded) {
        // The store cannot be written (a full disk, the database gone): this run alone is
        // affected. It stays claimed until its lease runs out, and the reaper then puts it
        // back in the queue, to be worked again once it can be.
        logger.error({ err: unrecorded, run: run.id }, "could not record a run's failure");
      }
    } finally {
      stopRenewing();
    }
  }

  /**
   * Renews the lease every third of its length while the run is worked on. When the run is
   * no longer this worker's (the reaper gave it away, a cancel took it), or the lease could
   * not be renewed for as long as it lasts, the work stops: another worker may hold the run.
   */
  #keepLease(runId: string, controller: AbortController): () => void {
    const { db, config, logger } = this.#deps;
    let renewedAt = performance.now();
    const renew = async () => {
      try {
        if (await renewLease(db, runId, this.id, config.workerLeaseMs))
          renewedAt = performance.now();
        else controller.abort(stopReasons.leaseLost);
      } catch (error) {
        logger.warn({ err: error, run: runId }, 'could not renew the lease on a run');
        if (performance.now() - renewedAt >= config.workerLeaseMs)
          controller.abort(stopReasons.leaseLost);
      }
    };
    const timer = setInterval(() => void renew(), config.workerLeaseMs / 3);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Local copies of a document's files, in its order (an object store's are downloaded). */
  async #localCopies(
    fileIds: readonly string[],
    signal: AbortSignal,
  ): Promise<{ files: SourceFile[]; copies: LocalCopy[] }> {
    const { db, storage } = this.#deps;
    const rows = await filesByIds(db, fileIds);
    const files: SourceFile[] = [];
    const copies: LocalCopy[] = [];
    try {
      for (const id of fileIds) {
        const row = rows.find((candidate) => candidate.id === id);
        if (!row) continue;
        let copy: LocalCopy;
        try {
          copy = await storage.localCopy(row.bucket_id, row.id, signal);
        } catch (error) {
          if (isMissingFile(error))
            throw new ExtractionError(
              `${row.name} is missing from the file store.`,
              'file_missing',
            );
          throw error;
        }
        copies.push(copy);
        files.push({
          id: row.id,
          name: row.name,
          path: copy.path,
          mediaType: row.media_type,
          sha256: row.sha256,
        });
      }
    } catch (error) {
      await Promise.all(copies.map((copy) => copy.release()));
      throw error;
    }
    return { files, copies };
  }

  /**
   * Works the documents of the run that are not done yet, one after another, each on its
   * own: a document that fails is marked failed and the next one goes on. At the end the
   * run settles by what its documents came to (documents.ts: settledOutcome).
   */
  async #work(run: RunRow, signal: AbortSignal): Promise<void> {
    const { db } = this.#deps;
    const parsed = parseTargetSchema(run.target_schema);
    if (!parsed.ok)
      throw new ExtractionError(`The extractor's schema ${parsed.message}.`, 'misconfigured');

    const documents = await listDocuments(db, run.id);
    const fileIds = documents.flatMap(documentFileIds);
    const rows = await filesByIds(db, fileIds);
    const namesOf = (document: RunDocumentRow) =>
      documentFileIds(document).map(
        (id) => rows.find((row) => row.id === id)?.name ?? document.name,
      );

    const pool = this.#documentPool();
    const context: DocumentContext = {
      run,
      schema: parsed.schema,
      pool,
      strategy: documentStrategy(
        run.strategy === 'llm' ? 'llm' : 'local',
        pool,
        this.#deps.config.llm,
      ),
      signal,
    };
    const open = (document: RunDocumentRow) =>
      document.status !== 'completed' && document.status !== 'failed';
    // First every document is read and counted (a document that cannot be read fails now),
    // so the run's progress has its total from the start; then each is extracted, its text
    // read again from the cache.
    for (const mode of ['count', 'extract'] as const) {
      const current = mode === 'count' ? documents : await listDocuments(db, run.id);
      for (const document of current) {
        if (!open(document) || (mode === 'count' && document.chunks_total !== null)) continue;
        // Stopping: what is done is stored, and `stop` hands the run back.
        if (this.#draining) return;
        signal.throwIfAborted();
        if (!(await this.#workDocument(context, document, namesOf(document), mode))) {
          // Paused or no longer this worker's; a run stopped mid-document is handed back.
          if (!this.#draining) await this.#release(run.id);
          return;
        }
      }
    }
    const outcome = settledOutcome(await listDocuments(db, run.id));
    // Every completed document's record was validated against the target schema.
    const evaluation_type = outcome.status === 'failed' ? null : 'json-schema';
    await this.#finish(run.id, { ...outcome, evaluation_type }, settledEvents[outcome.status]!);
  }

  /**
   * One document, read and counted (`count`), or read and extracted chunk by chunk
   * (`extract`) by the engine's pipeline, with what it does stored as it goes; false when
   * the run was paused, cancelled or is no longer this worker's, or the process is stopping.
   */
  async #workDocument(
    context: DocumentContext,
    document: RunDocumentRow,
    names: string[],
    mode: 'count' | 'extract',
  ): Promise<boolean> {
    const { run, signal } = context;
    const store = this.#documentStore(run.id, document.file_id);
    if (
      mode === 'extract' &&
      !(await store({ status: 'running', started_at: document.started_at ?? nowIso() }))
    )
      return false;
    try {
      const outcome = await this.#runPipeline(context, document, mode, store);
      if (outcome.kind !== 'completed') return outcome.kind === 'counted';
      return Boolean(
        await store(
          {
            status: 'completed',
            result_json: JSON.stringify(outcome.data),
            partial_result_json: null,
            result_metadata: JSON.stringify(outcome.metadata),
            finished_at: nowIso(),
          },
          'extraction_run.document_completed',
        ),
      );
    } catch (error) {
      if (signal.aborted) throw error;
      return this.#failDocument(run, document, names, error, store);
    }
  }

  /**
   * Stores a change of one document of a run (with the run's `updated_at`), while the run is
   * in one of `from` and its lease is this worker's; the run as it then is, else undefined.
   */
  #documentStore(runId: string, fileId: string): DocumentStore {
    return (patch, event, from = ['running']) =>
      this.#deps.lifecycle.change(runId, from, { updated_at: nowIso() }, event, {
        leaseOwner: this.id,
        documents: [{ fileId, patch: { ...patch, updated_at: nowIso() } }],
        document: fileId,
      });
  }

  /**
   * Hands the document to the engine's pipeline: its files as local copies (released once
   * read), where it was left, and hooks that store its pages read, its chunks counted and
   * its progress as they come.
   */
  async #runPipeline(
    context: DocumentContext,
    document: RunDocumentRow,
    mode: 'count' | 'extract',
    store: DocumentStore,
  ): Promise<DocumentPipelineOutcome> {
    const { config } = this.#deps;
    const { run, schema, pool, strategy, signal } = context;
    const found = resumedExtraction(document);
    const { files, copies } = await this.#localCopies(documentFileIds(document), signal);
    // Reading (OCR above all) is told page by page when a document is first read; its
    // second reading, for extraction, comes from the cache at once.
    const pages = { read: document.pages_read, total: document.pages_total };
    const pageProgress = new ProgressWriter(async () =>
      Boolean(
        await store(
          { pages_read: pages.read, pages_total: pages.total },
          'extraction_run.progress',
        ),
      ),
    );
    let chunksTotal = document.chunks_total ?? 0;
    // Progress is kept while the run is running or was paused during this chunk; a
    // cancelled run keeps what it had.
    const progress = new ProgressWriter(async () => {
      const metadata: DocumentMetadata = { sources: found.sources, violations: [] };
      const stored = await store(
        {
          partial_result_json: JSON.stringify(found.data),
          result_metadata: JSON.stringify(metadata),
          token_stats: JSON.stringify(found.stats),
          total_input_tokens: found.stats.totalInputTokens,
          total_output_tokens: found.stats.totalOutputTokens,
          chunks_completed: found.chunksCompleted,
          chunks_total: chunksTotal,
        },
        'extraction_run.progress',
        ['running', 'paused'],
      );
      return stored?.status === 'running';
    });
    try {
      return await runDocumentPipeline(
        {
          mode,
          name: document.name,
          files,
          options: readingOptionsOf(run),
          cacheDir: join(config.dataDir, 'cache'),
          chunkSize: run.chunk_size,
          pool,
          schema,
          strategy,
          outputInstructions: run.output_instructions,
          model: run.model,
          resume: found,
          testPattern: testPatternLinearly,
          signal,
        },
        {
          onPage:
            mode === 'count'
              ? (read, total) => {
                  pages.read = read;
                  pages.total = total;
                  // A store that fails is thrown again by `settled` below.
                  pageProgress.stepDone(false).catch(() => undefined);
                }
              : undefined,
          afterReading: async () => {
            // The last pages are stored with the count below.
            pageProgress.stop();
            await pageProgress.settled();
            await Promise.all(copies.map((copy) => copy.release()));
          },
          onCounted: async (total) => {
            chunksTotal = total;
            const unchanged =
              document.chunks_total === total &&
              document.pages_read === pages.read &&
              document.pages_total === pages.total;
            return (
              unchanged ||
              Boolean(
                await store({
                  chunks_total: total,
                  pages_read: pages.read,
                  pages_total: pages.total,
                }),
              )
            );
          },
          onChunk: async (_found, _total, last) => {
            if (!(await progress.stepDone(last))) return false;
            if (this.#draining && !last) {
              // Stopping: what is done is stored, and `stop` hands the run back.
              await progress.flush();
              return false;
            }
            return true;
          },
          // The extractor's checks as they are now (a deleted extractor keeps its row).
          checks: async () => {
            const extractor = await extractorColumns(this.#deps.db, run.extractor_id, ['checks']);
            return extractor ? checksOf(extractor) : [];
          },
        },
      );
    } finally {
      progress.stop();
    }
  }

  /** Records why a document failed, even on a full disk (where it most likely failed). */
  async #failDocument(
    run: RunRow,
    document: RunDocumentRow,
    names: string[],
    error: unknown,
    store: DocumentStore,
  ): Promise<boolean> {
    const { logger } = this.#deps;
    const fileId = document.file_id;
    if (!(error instanceof ExtractionError) && !isInsufficientStorage(error))
      logger.error({ err: error, run: run.id, file: fileId }, 'document failed unexpectedly');
    // What only whoever runs the service can act on goes to the log alone.
    else if (error instanceof ExtractionError && error.detail)
      logger.warn({ run: run.id, file: fileId, detail: error.detail }, 'document failed');
    const failure = failureOf(error, {
      noRoom: `${document.name} could not be extracted: the service's disk is full. Extract it again once there is room.`,
      onOurSide: `${document.name} could not be extracted because of an error on our side. Extract it again; if it keeps failing, contact support.`,
    });
    const stored = await this.#deps.dataDirectory.withReserve(
      "record why a run's document failed",
      () =>
        store(
          {
            status: 'failed',
            error: documentError(document, names, failure.message),
            error_code: failure.code,
            finished_at: nowIso(),
          },
          'extraction_run.document_failed',
        ),
    );
    return Boolean(stored);
  }

  /**
   * The run could not be worked at all (its schema cannot be read, say): each document not
   * done fails with the reason, and the run settles by what its documents came to.
   */
  async #failRun(run: RunRow, failure: ExtractionError): Promise<void> {
    const { message, code } = failure;
    const documents = await listDocuments(this.#deps.db, run.id);
    const open = documents.filter(
      (document) => document.status !== 'completed' && document.status !== 'failed',
    );
    const failed = documents.map((document) =>
      open.includes(document) ? { ...document, status: 'failed' as const } : document,
    );
    const outcome = settledOutcome(failed);
    const now = nowIso();
    await this.#deps.dataDirectory.withReserve('record why a run failed', () =>
      this.#deps.lifecycle.change(
        run.id,
        ['running'],
        {
          status: outcome.status,
          error: outcome.status === 'failed' ? message : outcome.error,
          finished_at: now,
          updated_at: now,
          lease_owner: null,
          lease_expires_at: null,
        },
        settledEvents[outcome.status],
        {
          leaseOwner: this.id,
          documents: open.map((document) => ({
            fileId: document.file_id,
            patch: {
              status: 'failed',
              error: documentError(document, [], message),
              error_code: code,
              finished_at: now,
            },
          })),
        },
      ),
    );
    await this.#release(run.id);
  }

  /** Lets go of a run this worker no longer works on (paused, or no longer its own). */
  async #release(runId: string): Promise<void> {
    await releaseLease(this.#deps.db, runId, this.id);
  }

  /**
   * Puts the runs this worker still holds back in the queue, to be continued by whichever
   * worker claims them next from their last stored chunk; paused ones are only let go.
   */
  async #handBack(runIds: readonly string[]): Promise<void> {
    if (runIds.length === 0) return;
    const { lifecycle, logger, signals } = this.#deps;
    let handedBack = 0;
    for (const runId of runIds) {
      try {
        const requeued = await lifecycle.change(
          runId,
          ['running'],
          { status: 'queued', lease_owner: null, lease_expires_at: null, updated_at: nowIso() },
          undefined,
          { leaseOwner: this.id },
        );
        if (requeued) handedBack++;
        else await this.#release(runId);
      } catch (error) {
        // Its lease runs out in time and the reaper puts it back then.
        logger.warn({ err: error, run: runId }, 'could not hand a run back');
      }
    }
    if (handedBack > 0) {
      logger.info({ runs: handedBack }, 'handed runs back to the queue');
      signals.runQueued();
    }
  }

  async #finish(runId: string, patch: RunPatch, event: RunEventType): Promise<void> {
    const now = nowIso();
    await this.#deps.lifecycle.change(
      runId,
      ['running'],
      { ...patch, finished_at: now, updated_at: now, lease_owner: null, lease_expires_at: null },
      event,
      { leaseOwner: this.id },
    );
    await this.#release(runId);
  }
}
