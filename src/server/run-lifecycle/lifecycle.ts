/**
 * What people and programs do to runs: start one, pause, resume, cancel, edit the results,
 * extract a failed document again, and submit. Every change is one transaction that updates
 * the run only if it is still in a status the change may start from, changes its documents
 * and the run's columns made from them (documents.ts), appends the run event and queues the
 * webhook; the signals go out after the commit.
 */
import type { Kysely, RawBuilder, Transaction } from 'kysely';
import type { WebhookEventType } from '../../contract/events.js';
import { fileIdFromReference, fileIriOf, idFromReference, iriOf } from '../../contract/iri.js';
import { parseTargetSchema } from '../../contract/json-schema.js';
import { validateAgainstSchema } from '../../contract/schema-validation.js';
import { testPatternLinearly } from '../extractors/patterns.js';
import type { ResultsEdit, RunInput, Submission } from '../../contract/resources.js';
import {
  reopenableRunStatuses,
  runCommands,
  runCommandSources,
  runStatusesWithResults,
  type DocumentStatus,
  type RunCommand,
  type RunStatus,
} from '../../contract/run-status.js';
import type { RunEventType } from '../../contract/events.js';
import { findBucket, lockBucket } from '../buckets/buckets.js';
import type { Config } from '../config.js';
import {
  allowedModels,
  checkRunSettings,
  extractorColumns,
  extractorRowOf,
  findExtractor,
  markExtractorRan,
  type ExtractorRow,
} from '../extractors/extractors.js';
import {
  addFiles,
  deleteFile,
  fileById,
  filesByIds,
  listFiles,
  type FileRow,
} from '../files/files.js';
import type { FilePages } from '../files/pages.js';
import type { FileStore } from '../files/storage.js';
import type { ReceivedFile } from '../files/uploads.js';
import { ConflictError, InvalidInputError, NotFoundError, type FieldError } from '../errors.js';
import { databaseTime, dialectOf } from '../store/clock.js';
import type { Db } from '../store/database.js';
import { newId, nowIso } from '../store/ids.js';
import type { Database, RunDocumentRow } from '../store/schema.js';
import { canSeeBucket, canSeeExtractor, checkRunSettingsAllowed } from '../access/token-scopes.js';
import type { Principal } from '../tokens/tokens.js';
import { enqueueWebhook } from '../webhooks/index.js';
import {
  documentFileIds,
  draftsAfter,
  draftsOf,
  listDocuments,
  newDocumentRows,
  runColumnsOf,
  untouchedDocumentColumns,
  type DraftChange,
} from '../runs/documents.js';
import { appendRunEvent } from '../runs/events.js';
import type { RunSignals } from './signals.js';
import { openRunReadingFile, untouchedRunColumns, type RunRow } from '../runs/runs.js';

type Executor = Kysely<Database> | Transaction<Database>;

export interface LifecycleDeps {
  db: Db;
  config: Config;
  /** Told after each commit: the run changed, was queued or cancelled, webhooks were queued. */
  signals: RunSignals;
  /** Where a replacement file goes (POST …/documents/{fileId}/replace), its pages counted. */
  storage: FileStore;
  pages: Pick<FilePages, 'countAtUpload'>;
}

/** New values for a run's columns; a value may be computed by the database (its clock). */
export type RunPatch = { [Column in keyof RunRow]?: RunRow[Column] | RawBuilder<RunRow[Column]> };

const webhookTypes: ReadonlySet<RunEventType> = new Set<WebhookEventType>([
  'extraction_run.started',
  'extraction_run.progress',
  'extraction_run.paused',
  'extraction_run.completed',
  'extraction_run.partially_completed',
  'extraction_run.document_completed',
  'extraction_run.document_failed',
  'extraction_run.failed',
  'extraction_run.cancelled',
  'extraction_run.submitted',
]);

/**
 * Appends the event and, for webhook kinds, queues the delivery — inside the caller's
 * transaction. A document event names its `document`.
 */
export async function recordRunEvent(
  trx: Executor,
  run: RunRow,
  type: RunEventType,
  document?: RunDocumentRow,
): Promise<boolean> {
  await appendRunEvent(trx, run, type, document);
  if (!webhookTypes.has(type)) return false;
  const extractor = await extractorRowOf(trx, run.extractor_id);
  if (!extractor || extractor.enable_webhook !== 1 || !extractor.webhook_url) return false;
  await enqueueWebhook(trx, { type: type as WebhookEventType, extractor, run, document });
  return true;
}

/** A change to one document of a run, made with the run's (see RunLifecycle.change). */
export interface DocumentChange {
  fileId: string;
  patch: Partial<RunDocumentRow>;
  /** The change holds only while the document is in one of these statuses. */
  onlyIf?: readonly DocumentStatus[];
}

/** A document was not in a status its change allows; the transaction is rolled back. */
class DocumentMoved extends Error {}

/** What RunLifecycle.change does beyond the run's own columns. */
export interface ChangeOptions {
  /** Only while this worker holds the run's lease. */
  leaseOwner?: string;
  documents?: readonly DocumentChange[];
  /** The file of the document the event is about. */
  document?: string;
  /** Only while the results have not been submitted. */
  unsubmitted?: boolean;
  /** A change to every document in one of `from` statuses, whichever they are. */
  documentsIn?: { from: readonly DocumentStatus[]; patch: Partial<RunDocumentRow> };
  /** Changes to a person's drafts (with `documents`, which checks the documents' statuses). */
  drafts?: readonly DraftChange[];
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
    const id = newId();
    const combine = input.combineFiles ?? extractor.combine_files === 1;
    const documents = newDocumentRows(id, files, combine, now);
    const run: RunRow = {
      id,
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
      combine_files: Number(combine),
      document_languages: extractor.document_languages,
      ...untouchedRunColumns(now),
      ...runColumnsOf(bucket.id, documents),
    };
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('runs').values(run).execute();
      await trx.insertInto('run_documents').values(documents).execute();
      await markExtractorRan(trx, extractor.id, now);
    });
    this.deps.signals.runQueued();
    return run;
  }

  /** Pause, resume or cancel; a 409 naming the current status when the run cannot. */
  async command(run: RunRow, command: RunCommand): Promise<RunRow> {
    const target = runCommands[command];
    const from = runCommandSources[command];
    const now = nowIso();
    const patch: Partial<RunRow> = { status: target, updated_at: now };
    if (command === 'cancel')
      Object.assign(patch, { finished_at: now, lease_owner: null, lease_expires_at: null });
    // A cancelled run's document at work is no longer at work: it never ran to an end.
    const updated = await this.change(run.id, from, patch, commandEvents[command], {
      ...(command === 'cancel'
        ? { documentsIn: { from: ['running'], patch: { status: 'queued', updated_at: now } } }
        : {}),
    });
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
   * worker holds it), changes its documents (and rewrites the run's columns made from them),
   * records the event, and signals after the commit. `undefined` when the run was in another
   * status or held by another worker, or a document in a status its change does not allow;
   * then nothing changed.
   */
  async change(
    runId: string,
    from: readonly RunStatus[],
    patch: RunPatch,
    event?: RunEventType,
    options: ChangeOptions = {},
  ): Promise<RunRow | undefined> {
    return this.#changeInTransaction(async (trx) =>
      this.#update(trx, runId, from, patch, event, options),
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
    options: ChangeOptions = {},
  ): Promise<{ row: RunRow | undefined; queuedWebhook: boolean }> {
    let update = trx
      .updateTable('runs')
      .set(patch)
      .where('id', '=', runId)
      .where('status', 'in', [...from]);
    if (options.leaseOwner !== undefined)
      update = update.where('lease_owner', '=', options.leaseOwner);
    if (options.unsubmitted) update = update.where('submitted_at', 'is', null);
    let row = await update.returningAll().executeTakeFirst();
    if (!row) return { row, queuedWebhook: false };
    let subject: RunDocumentRow | undefined;
    if (options.documentsIn) {
      await trx
        .updateTable('run_documents')
        .set(options.documentsIn.patch)
        .where('run_id', '=', runId)
        .where('status', 'in', [...options.documentsIn.from])
        .execute();
    }
    if (options.documents || options.document || options.documentsIn) {
      for (const { fileId, patch: documentPatch, onlyIf } of options.documents ?? []) {
        let change = trx
          .updateTable('run_documents')
          .set(documentPatch)
          .where('run_id', '=', runId)
          .where('file_id', '=', fileId);
        if (onlyIf) change = change.where('status', 'in', [...onlyIf]);
        const { numUpdatedRows } = await change.executeTakeFirst();
        if (numUpdatedRows === 0n) throw new DocumentMoved();
      }
      const documents = await listDocuments(trx, runId);
      subject = documents.find((document) => document.file_id === options.document);
      // The run row is locked by the update above, so its drafts are read as they are.
      const drafts = options.drafts && {
        draft_result_json: draftsAfter(
          row.bucket_id,
          documents,
          row.draft_result_json,
          options.drafts,
        ),
      };
      row = await trx
        .updateTable('runs')
        .set({ ...runColumnsOf(row.bucket_id, documents), ...drafts })
        .where('id', '=', runId)
        .returningAll()
        .executeTakeFirstOrThrow();
    }
    if (!event) return { row, queuedWebhook: false };
    return { row, queuedWebhook: await recordRunEvent(trx, row, event, subject) };
  }

  /**
   * Runs `work` in a transaction and sends the signals its outcome calls for after the
   * commit. A document not in a status its change allows rolls the whole change back.
   */
  async #changeInTransaction(
    work: (
      trx: Transaction<Database>,
    ) => Promise<{ row: RunRow | undefined; queuedWebhook: boolean }>,
  ): Promise<RunRow | undefined> {
    const { row, queuedWebhook } = await this.deps.db
      .transaction()
      .execute(work)
      .catch((error: unknown) => {
        if (error instanceof DocumentMoved) return { row: undefined, queuedWebhook: false };
        throw error;
      });
    if (row) {
      this.deps.signals.runChanged(row.id);
      if (queuedWebhook) this.deps.signals.webhooksQueued();
    }
    return row;
  }

  /** A 409 unless a person may change the results of `run` now. */
  #assertEditable(run: RunRow): void {
    if (!runStatusesWithResults.includes(run.status)) {
      throw new ConflictError(
        `The run is ${run.status}; its results can be edited once it has completed or partially completed.`,
        run.status,
      );
    }
    if (run.submitted_at)
      throw new ConflictError(
        'The results have been submitted and can no longer be changed.',
        run.status,
      );
  }

  /**
   * Saves records a person edited: `{"documents": [{file, data}]}`, matched to the run's
   * completed documents by `file` (IRI or id); a document left out keeps its data. Each
   * record is checked against the target schema. The machine's records stay as they were.
   */
  async saveEdits(run: RunRow, edit: ResultsEdit): Promise<RunRow> {
    this.#assertEditable(run);
    const documents = await listDocuments(this.deps.db, run.id);
    const errors: FieldError[] = [];
    const changes: DocumentChange[] = [];
    const seen = new Set<string>();
    for (const [index, { file, data }] of edit.documents.entries()) {
      const fileId = fileIdFromReference(run.bucket_id, file);
      const document = documents.find((candidate) => candidate.file_id === fileId);
      if (!document || document.status !== 'completed') {
        errors.push({
          pointer: `/documents/${index}/file`,
          detail: document
            ? `${document.name} is ${document.status}; only a completed document's record can be edited`
            : 'file names no document of this run',
        });
        continue;
      }
      if (seen.has(document.file_id)) {
        errors.push({ pointer: `/documents/${index}/file`, detail: 'file is named twice' });
        continue;
      }
      seen.add(document.file_id);
      errors.push(...this.#violations(run, data, `/documents/${index}/data`));
      changes.push({
        fileId: document.file_id,
        patch: this.#editedColumns(data),
        onlyIf: ['completed'],
      });
    }
    if (errors.length > 0) throw new InvalidInputError(errors);
    // A record the schema accepts replaces any draft of its document.
    return this.#saveEditChanges(
      run,
      changes,
      changes.map(({ fileId }) => ({ fileId })),
    );
  }

  /**
   * Saves the record of one document a person edited (`PUT …/documents/{fileId}/results`).
   * A record the schema accepts becomes the document's record; one it does not accept yet
   * (a value half typed) is kept as the person's draft, apart from the records, so that
   * work in progress survives a reload while results, `data` and `editedResultJson` keep
   * the last record the schema accepts. Submission refuses a run with a draft.
   */
  async saveDocumentEdit(run: RunRow, fileId: string, data: unknown): Promise<RunRow> {
    const document = (await listDocuments(this.deps.db, run.id)).find(
      (candidate) => candidate.file_id === fileId,
    );
    if (!document) throw new NotFoundError();
    this.#assertEditable(run);
    if (document.status !== 'completed')
      throw new ConflictError(
        `${document.name} is ${document.status}; only a completed document's record can be edited.`,
        run.status,
      );
    const accepted = this.#violations(run, data, '').length === 0;
    const patch = accepted ? this.#editedColumns(data) : { updated_at: nowIso() };
    return this.#saveEditChanges(
      run,
      [{ fileId, patch, onlyIf: ['completed'] }],
      [accepted ? { fileId } : { fileId, draft: data }],
    );
  }

  #violations(run: RunRow, data: unknown, prefix: string): FieldError[] {
    const parsed = parseTargetSchema(run.target_schema);
    if (!parsed.ok) return [];
    return validateAgainstSchema(parsed.schema, data, testPatternLinearly).map(
      ({ pointer, message }) => ({
        pointer: `${prefix}${pointer}`,
        detail: message,
      }),
    );
  }

  #editedColumns(data: unknown): Partial<RunDocumentRow> {
    return { edited_result_json: JSON.stringify(data), updated_at: nowIso() };
  }

  async #saveEditChanges(
    run: RunRow,
    changes: DocumentChange[],
    drafts: DraftChange[],
  ): Promise<RunRow> {
    // The submission check is part of the update: a submit that lands first wins.
    const updated = await this.change(
      run.id,
      runStatusesWithResults,
      { updated_at: nowIso() },
      'extraction_run.results_changed',
      { documents: changes, drafts, unsubmitted: true },
    );
    if (!updated)
      throw new ConflictError(
        'The results changed status while saving; reload the run and try again.',
      );
    return updated;
  }

  /**
   * Extracts a failed document again, as it is (`retry`) or with another file in its place
   * (`replace`: the new file is stored in the bucket, the old one removed, and the document
   * keeps its place). The run goes back to `queued` and the worker works just the documents
   * that are not completed; the others' records and a person's edits stay as they are.
   * 404 for a file that is not a document of the run; 409 unless the run is
   * partially_completed or failed, not submitted, and the document failed.
   */
  async extractAgain(run: RunRow, fileId: string, replacement?: ReceivedFile): Promise<RunRow> {
    const { db, storage, pages } = this.deps;
    const discard = () => (replacement ? storage.discard(replacement.tempPath) : undefined);
    const documents = await listDocuments(db, run.id);
    const document = documents.find((candidate) => documentFileIds(candidate).includes(fileId));
    try {
      if (!document) throw new NotFoundError();
      this.#assertReopenable(run, document);
      // The old file leaves the bucket with a replacement, as a removal does, and is refused
      // as a removal is while another open run of the bucket is to read it: that run's
      // document would fail as missing.
      const reader = replacement && (await openRunReadingFile(db, run.bucket_id, fileId, run.id));
      if (reader)
        throw new ConflictError(
          `Another run over this bucket (${iriOf('run', reader.id)}) is ${reader.status} and reads ${document.name}; cancel it or wait for it to finish before replacing the file.`,
          run.status,
        );
    } catch (error) {
      await discard();
      throw error;
    }

    let added: FileRow | undefined;
    const patch: Partial<RunDocumentRow> = untouchedDocumentColumns(nowIso());
    let fileIds = JSON.parse(run.file_ids) as string[];
    if (replacement) {
      [added] = await addFiles(db, storage, pages, run.bucket_id, [replacement]);
      const swap = (ids: string[]) => ids.map((id) => (id === fileId ? added!.id : id));
      const documentIds = swap(documentFileIds(document));
      fileIds = swap(fileIds);
      const files = await filesByIds(db, documentIds);
      Object.assign(patch, {
        file_id: documentIds[0],
        file_ids: JSON.stringify(documentIds),
        name: documentIds.map((id) => files.find((file) => file.id === id)?.name ?? '').join(', '),
      });
    }
    const now = nowIso();
    const updated = await this.change(
      run.id,
      reopenableRunStatuses,
      {
        status: 'queued',
        error: null,
        finished_at: null,
        file_ids: JSON.stringify(fileIds),
        lease_owner: null,
        lease_expires_at: null,
        updated_at: now,
      },
      'extraction_run.document_queued',
      {
        documents: [{ fileId: document.file_id, patch, onlyIf: ['failed'] }],
        document: (patch.file_id as string | undefined) ?? document.file_id,
        unsubmitted: true,
      },
    );
    if (!updated) {
      if (added) await deleteFile(db, storage, added);
      const current = await db
        .selectFrom('runs')
        .select('status')
        .where('id', '=', run.id)
        .executeTakeFirst();
      throw new ConflictError(
        'The run changed while this was asked; reload it and try again.',
        current?.status ?? run.status,
      );
    }
    if (added) {
      const old = await fileById(db, fileId);
      // A run started over the bucket meanwhile keeps the old file it is to read.
      if (old && !(await openRunReadingFile(db, run.bucket_id, fileId, run.id)))
        await deleteFile(db, storage, old);
    }
    this.deps.signals.runQueued();
    return updated;
  }

  #assertReopenable(run: RunRow, document: RunDocumentRow): void {
    if (run.submitted_at)
      throw new ConflictError(
        'The results have been submitted; the run can no longer change.',
        run.status,
      );
    if (!reopenableRunStatuses.includes(run.status))
      throw new ConflictError(
        `The run is ${run.status}; a document can be extracted again once the run has partially completed or failed.`,
        run.status,
      );
    if (document.status !== 'failed')
      throw new ConflictError(
        `${document.name} is ${document.status}; only a failed document can be extracted again.`,
        run.status,
      );
  }

  /**
   * Marks the results submitted, once, and tells the webhook. A person's drafts are saved
   * whether or not the schema accepts them, so submission is where they must: a draft the
   * schema refuses answers 422 with a pointer into it (`/documents/{i}/data/...`).
   */
  async submit(run: RunRow): Promise<Submission> {
    if (!runStatusesWithResults.includes(run.status)) {
      throw new ConflictError(
        `The run is ${run.status}; only the results of a completed or partially completed run can be submitted.`,
        run.status,
      );
    }
    const documents = await listDocuments(this.deps.db, run.id);
    const drafts = draftsOf(run);
    const errors = documents.flatMap((document, index) => {
      const file = fileIriOf(run.bucket_id, document.file_id);
      return document.status === 'completed' && drafts.has(file)
        ? this.#violations(run, drafts.get(file), `/documents/${index}/data`).map((error) => ({
            ...error,
            detail: `${document.name}: ${error.detail}`,
          }))
        : [];
    });
    if (errors.length > 0) throw new InvalidInputError(errors);
    const extractor = await extractorColumns(this.deps.db, run.extractor_id, [
      'redirect_url',
      'allow_resubmission',
    ]);
    const now = nowIso();
    let queuedWebhook = false;
    const updated = await this.deps.db.transaction().execute(async (trx) => {
      if (extractor?.allow_resubmission !== 1) {
        // One submission per bucket: Back, Run again and Submit must not send a second
        // record of the same papers. The bucket's row is locked so two runs submitted at
        // once cannot both pass.
        await lockBucket(trx, run.bucket_id);
        const earlier = await trx
          .selectFrom('runs')
          .select('id')
          .where('bucket_id', '=', run.bucket_id)
          .where('submitted_at', 'is not', null)
          .executeTakeFirst();
        if (earlier)
          throw new ConflictError(
            earlier.id === run.id
              ? 'The results have already been submitted.'
              : 'The results of these files have already been submitted, from another run; the extractor allows one submission per bucket.',
            run.status,
          );
      }
      const row = await trx
        .updateTable('runs')
        .set({ submitted_at: now, updated_at: now })
        .where('id', '=', run.id)
        .where('status', 'in', [...runStatusesWithResults])
        .where('submitted_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
      if (row) queuedWebhook = await recordRunEvent(trx, row, 'extraction_run.submitted');
      return row;
    });
    if (!updated) throw new ConflictError('The results have already been submitted.', run.status);
    this.deps.signals.runChanged(run.id);
    if (queuedWebhook) this.deps.signals.webhooksQueued();
    return {
      id: run.id,
      run: iriOf('run', run.id),
      submittedAt: now,
      redirectUrl: extractor?.redirect_url || null,
    };
  }
}

export type { ExtractorRow };
