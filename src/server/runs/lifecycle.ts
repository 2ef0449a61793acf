/**
 * What people and programs do to runs: start one, pause, resume, cancel, edit the results
 * and submit them. Every change is one transaction that updates the run only if it is
 * still in a status the change may start from, appends the run event and queues the
 * webhook; the signals go out after the commit.
 */
import type { Kysely, Transaction } from 'kysely';
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
  signals: RunSignals;
  /** Called after a commit that queued webhook deliveries. */
  onWebhooksQueued(): void;
  /** Stops the work in flight on a run that was cancelled. */
  onCancelled(runId: string): void;
}

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
    if (command === 'cancel') this.deps.onCancelled(run.id);
    if (command === 'resume') this.deps.signals.runQueued();
    return updated;
  }

  /**
   * Updates a run if its status is one of `from`, records the event, and signals after the
   * commit. `undefined` when the run was in another status.
   */
  async change(
    runId: string,
    from: readonly RunStatus[],
    patch: Partial<RunRow>,
    event?: RunEventType,
    extra?: (trx: Transaction<Database>, run: RunRow) => Promise<void>,
  ): Promise<RunRow | undefined> {
    let queuedWebhook = false;
    const updated = await this.deps.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('runs')
        .set(patch)
        .where('id', '=', runId)
        .where('status', 'in', [...from])
        .returningAll()
        .executeTakeFirst();
      if (!row) return undefined;
      if (event) queuedWebhook = await recordRunEvent(trx, row, event);
      await extra?.(trx, row);
      return row;
    });
    if (updated) {
      this.deps.signals.runChanged(runId);
      if (queuedWebhook) this.deps.onWebhooksQueued();
    }
    return updated;
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
    if (queuedWebhook) this.deps.onWebhooksQueued();
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
