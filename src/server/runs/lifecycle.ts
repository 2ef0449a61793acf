/**
 * What people and programs do to runs: start one, pause, resume, cancel, edit the results
 * and submit them. Every change is one transaction that updates the run only if it is
 * still in a status the change may start from, appends the run event and queues the
 * webhook; the signals go out after the commit.
 */
import type { Kysely, RawBuilder, Transaction } from 'kysely';
import type { WebhookEventType } from '../../contract/events.js';
import { idFromReference, iriOf } from '../../contract/iri.js';
import { parseTargetSchema, validateAgainstSchema } from '../../contract/json-schema.js';
import type { RunInput, Submission } from '../../contract/resources.js';
import {
  runCommands,
  runTransitions,
  type RunCommand,
  type RunStatus,
} from '../../contract/run-status.js';
import type { RunEventType } from '../../contract/events.js';
import { findBucket } from '../buckets/buckets.js';
import type { Config } from '../config.js';
import {
  allowedModels,
  checkRunSettings,
  findExtractor,
  type ExtractorRow,
} from '../extractors/extractors.js';
import { listFiles } from '../files/files.js';
import { ConflictError, InvalidInputError, type FieldError } from '../errors.js';
import { databaseTime, dialectOf } from '../store/clock.js';
import type { Db } from '../store/database.js';
import { newId, nowIso } from '../store/ids.js';
import type { Database } from '../store/schema.js';
import { canSeeBucket, canSeeExtractor, checkRunSettingsAllowed } from '../tokens/access.js';
import type { Principal } from '../tokens/tokens.js';
import { enqueueWebhook } from '../webhooks/index.js';
import { appendRunEvent, type RunSignals } from './events.js';
import { untouchedRunColumns, type RunRow } from './runs.js';

type Executor = Kysely<Database> | Transaction<Database>;

export interface LifecycleDeps {
  db: Db;
  config: Config;
  /** Told after each commit: the run changed, was queued or cancelled, webhooks were queued. */
  signals: RunSignals;
}

/** New values for a run's columns; a value may be computed by the database (its clock). */
export type RunPatch = { [Column in keyof RunRow]?: RunRow[Column] | RawBuilder<RunRow[Column]> };

const webhookTypes: ReadonlySet<RunEventType> = new Set<WebhookEventType>([
  'extraction_run.started',
  'extraction_run.progress',
  'extraction_run.paused',
  'extraction_run.completed',
  'extraction_run.failed',
  'extraction_run.cancelled',
  'extraction_run.submitted',
]);

/** Appends the event and, for webhook kinds, queues the delivery — inside the caller's transaction. */
export async function recordRunEvent(
  trx: Executor,
  run: RunRow,
  type: RunEventType,
): Promise<boolean> {
  await appendRunEvent(trx, run, type);
  if (!webhookTypes.has(type)) return false;
  const extractor = await trx
    .selectFrom('extractors')
    .selectAll()
    .where('id', '=', run.extractor_id)
    .executeTakeFirst();
  if (!extractor || extractor.enable_webhook !== 1 || !extractor.webhook_url) return false;
  await enqueueWebhook(trx, { type: type as WebhookEventType, extractor, run });
  return true;
}

const commandVerbs: Record<RunCommand, string> = {
  pause: 'paused',
  resume: 'resumed',
  cancel: 'cancelled',
};
const commandEvents: Record<RunCommand, RunEventType> = {
  pause: 'extraction_run.paused',
  resume: 'extraction_run.resumed',
  cancel: 'extraction_run.cancelled',
};

export class RunLifecycle {
  constructor(private readonly deps: LifecycleDeps) {}

  /** Starts a run of an extractor over a bucket: a `queued` run the worker will pick up. */
  async create(input: RunInput, principal: Principal): Promise<RunRow> {
    checkRunSettingsAllowed(principal, input);
    const { db, config } = this.deps;
    const errors: FieldError[] = [];
    const bucketId = idFromReference('bucket', input.bucket);
    const extractorId = idFromReference('extractor', input.savedExtractor);
    // A session token's view of the world ends at its bucket and extractor: anything else
    // is reported exactly as a reference to nothing would be.
    const bucket =
      bucketId && canSeeBucket(principal, bucketId) ? await findBucket(db, bucketId) : undefined;
    const extractor =
      extractorId && canSeeExtractor(principal, extractorId)
        ? await findExtractor(db, extractorId)
        : undefined;
    if (!bucket) errors.push({ pointer: '/bucket', detail: 'bucket names no bucket' });
    if (!extractor)
      errors.push({ pointer: '/savedExtractor', detail: 'savedExtractor names no extractor' });
    if (!bucket || !extractor) throw new InvalidInputError(errors);

    const files = await listFiles(db, bucket.id);
    if (files.length === 0) {
      throw new InvalidInputError([
        {
          pointer: '/bucket',
          detail: 'the bucket has no files; upload at least one before starting a run',
        },
      ]);
    }
    const strategy = input.strategy ?? extractor.strategy;
    // Switching strategy without naming a model takes that strategy's first model.
    const model =
      input.model ??
      (strategy === extractor.strategy
        ? extractor.model
        : (allowedModels(strategy, config)[0] ?? ''));
    const settingErrors = checkRunSettings({ strategy, model }, config);
    if (settingErrors.length > 0) throw new InvalidInputError(settingErrors);

    const now = nowIso();
    const run: RunRow = {
      id: newId(),
      bucket_id: bucket.id,
      extractor_id: extractor.id,
      status: 'queued',
      strategy,
      model,
      target_schema: extractor.json_schema,
      output_instructions: extractor.output_instructions,
      include_text: Number(input.includeText ?? extractor.include_text === 1),
      include_embedded_images: Number(
        input.includeEmbeddedImages ?? extractor.include_embedded_images === 1,
      ),
      mark_embedded_images: Number(
        input.markEmbeddedImages ?? extractor.mark_embedded_images === 1,
      ),
      include_page_images: Number(input.includePageImages ?? extractor.include_page_images === 1),
      mark_page_images: Number(input.markPageImages ?? extractor.mark_page_images === 1),
      chunk_size: input.chunkSize ?? extractor.chunk_size,
      file_ids: JSON.stringify(files.map((file) => file.id)),
      ...untouchedRunColumns(now),
    };
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('runs').values(run).execute();
      await trx
        .updateTable('extractors')
        .set({ last_ran_at: now })
        .where('id', '=', extractor.id)
        .execute();
    });
    this.deps.signals.runQueued();
    return run;
  }

  /** Pause, resume or cancel; a 409 naming the current status when the run cannot. */
  async command(run: RunRow, command: RunCommand): Promise<RunRow> {
    const target = runCommands[command];
    const from = (Object.keys(runTransitions) as RunStatus[]).filter((status) =>
      runTransitions[status].includes(target),
    );
    const now = nowIso();
    const patch: Partial<RunRow> = { status: target, updated_at: now };
    if (command === 'cancel')
      Object.assign(patch, { finished_at: now, lease_owner: null, lease_expires_at: null });
    const updated = await this.change(run.id, from, patch, commandEvents[command]);
    if (!updated) {
      const current = await this.deps.db
        .selectFrom('runs')
        .select('status')
        .where('id', '=', run.id)
        .executeTakeFirst();
      const status = current?.status ?? run.status;
      throw new ConflictError(
        `The run is ${status}; it cannot be ${commandVerbs[command]}.`,
        status,
      );
    }
    if (command === 'cancel') this.deps.signals.runCancelled(run.id);
    if (command === 'resume') this.deps.signals.runQueued();
    return updated;
  }

  /**
   * Updates a run if its status is one of `from` (and, with `leaseOwner`, only while that
   * worker holds it), records the event, and signals after the commit. `undefined` when the
   * run was in another status or held by another worker.
   */
  async change(
    runId: string,
    from: readonly RunStatus[],
    patch: RunPatch,
    event?: RunEventType,
    options: { leaseOwner?: string } = {},
  ): Promise<RunRow | undefined> {
    return this.#changeInTransaction(async (trx) =>
      this.#update(trx, runId, from, patch, event, options.leaseOwner),
    );
  }

  /**
   * Gives the oldest queued run to the worker `owner`, leased for `leaseMs` by the database's
   * clock, and records `extraction_run.started` the first time. On PostgreSQL the candidate
   * is locked with SKIP LOCKED, so workers claiming at once each take a different run
   * instead of queueing behind one row; SQLite has one writer at a time and needs no lock.
   * `skip` names runs the caller must not be given (its own, still winding down).
   */
  async claimNext(
    owner: string,
    leaseMs: number,
    skip: readonly string[] = [],
  ): Promise<RunRow | undefined> {
    return this.#changeInTransaction(async (trx) => {
      let candidates = trx
        .selectFrom('runs')
        .select(['id', 'started_at'])
        .where('status', '=', 'queued')
        .orderBy('created_at')
        .orderBy('id')
        .limit(1);
      if (skip.length > 0) candidates = candidates.where('id', 'not in', [...skip]);
      if (dialectOf(trx) === 'postgres') candidates = candidates.forUpdate().skipLocked();
      const candidate = await candidates.executeTakeFirst();
      if (!candidate) return { row: undefined, queuedWebhook: false };
      const now = nowIso();
      return this.#update(
        trx,
        candidate.id,
        ['queued'],
        {
          status: 'running',
          lease_owner: owner,
          lease_expires_at: databaseTime(trx, leaseMs),
          started_at: candidate.started_at ?? now,
          updated_at: now,
        },
        candidate.started_at === null ? 'extraction_run.started' : undefined,
      );
    });
  }

  /**
   * The run's update, its event and its webhook, in the caller's transaction. The run row
   * is updated first: that locks it, so the events of one run are numbered in the order
   * their transactions commit (any other writer of run events must do the same).
   */
  async #update(
    trx: Transaction<Database>,
    runId: string,
    from: readonly RunStatus[],
    patch: RunPatch,
    event: RunEventType | undefined,
    leaseOwner?: string,
  ): Promise<{ row: RunRow | undefined; queuedWebhook: boolean }> {
    let update = trx
      .updateTable('runs')
      .set(patch)
      .where('id', '=', runId)
      .where('status', 'in', [...from]);
    if (leaseOwner !== undefined) update = update.where('lease_owner', '=', leaseOwner);
    const row = await update.returningAll().executeTakeFirst();
    if (!row || !event) return { row, queuedWebhook: false };
    return { row, queuedWebhook: await recordRunEvent(trx, row, event) };
  }

  /** Runs `work` in a transaction and sends the signals its outcome calls for after the commit. */
  async #changeInTransaction(
    work: (
      trx: Transaction<Database>,
    ) => Promise<{ row: RunRow | undefined; queuedWebhook: boolean }>,
  ): Promise<RunRow | undefined> {
    const { row, queuedWebhook } = await this.deps.db.transaction().execute(work);
    if (row) {
      this.deps.signals.runChanged(row.id);
      if (queuedWebhook) this.deps.signals.webhooksQueued();
    }
    return row;
  }

  /** Saves results a person edited; the machine's `resultJson` stays as it was. */
  async saveEdits(run: RunRow, data: unknown): Promise<RunRow> {
    if (run.status !== 'completed') {
      throw new ConflictError(
        `The run is ${run.status}; its results can be edited once it has completed.`,
        run.status,
      );
    }
    if (run.submitted_at)
      throw new ConflictError(
        'The results have been submitted and can no longer be changed.',
        run.status,
      );
    const parsed = parseTargetSchema(run.target_schema);
    if (parsed.ok) {
      const violations = validateAgainstSchema(parsed.schema, data);
      if (violations.length > 0)
        throw new InvalidInputError(
          violations.map(({ pointer, message }) => ({ pointer, detail: message })),
        );
    }
    const updated = await this.deps.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('runs')
        .set({ edited_result_json: JSON.stringify(data), updated_at: nowIso() })
        .where('id', '=', run.id)
        .where('status', '=', 'completed')
        .where('submitted_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
      if (row) await recordRunEvent(trx, row, 'extraction_run.results_changed');
      return row;
    });
    if (!updated)
      throw new ConflictError(
        'The results changed status while saving; reload the run and try again.',
      );
    this.deps.signals.runChanged(run.id);
    return updated;
  }

  /** Marks the results submitted, once, and tells the webhook. */
  async submit(run: RunRow): Promise<Submission> {
    if (run.status !== 'completed') {
      throw new ConflictError(
        `The run is ${run.status}; only the results of a completed run can be submitted.`,
        run.status,
      );
    }
    const now = nowIso();
    let queuedWebhook = false;
    const updated = await this.deps.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('runs')
        .set({ submitted_at: now, updated_at: now })
        .where('id', '=', run.id)
        .where('status', '=', 'completed')
        .where('submitted_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
      if (row) queuedWebhook = await recordRunEvent(trx, row, 'extraction_run.submitted');
      return row;
    });
    if (!updated) throw new ConflictError('The results have already been submitted.', run.status);
    this.deps.signals.runChanged(run.id);
    if (queuedWebhook) this.deps.signals.webhooksQueued();
    const extractor = await this.deps.db
      .selectFrom('extractors')
      .select('redirect_url')
      .where('id', '=', run.extractor_id)
      .executeTakeFirst();
    return {
      id: run.id,
      run: iriOf('run', run.id),
      submittedAt: now,
      redirectUrl: extractor?.redirect_url || null,
    };
  }
}

export type { ExtractorRow };
