/**
 * Saved extractors: the configuration a run executes. Stored in `extractors`; deleted ones
 * keep their row (runs still point at them) but answer 404 and leave every list.
 */
import { randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import { labelNames, type LabelName } from '../../contract/labels.js';
import { checkProblems, type Check } from '../../contract/checks.js';
import { parseTargetSchema } from '../../contract/json-schema.js';
import type {
  DocumentLanguage,
  Extractor,
  ExtractorInput,
  Strategy,
} from '../../contract/resources.js';
import type { Config } from '../config.js';
import { InvalidInputError, type FieldError } from '../errors.js';
import type { Db } from '../store/database.js';
import { containsText } from '../store/filters.js';
import { newId, nowIso } from '../store/ids.js';
import { newestFirst, type PageOfRows, type PageWindow } from '../store/paging.js';
import type { Database, ExtractorRow } from '../store/schema.js';
import { findLive, notDeleted, softDelete } from '../store/soft-delete.js';
import { contentOptionsOf, runIris, runsOf, type RunScope } from '../runs/runs.js';
import { webhookUrlProblem } from '../webhooks/address-policy.js';
import { patternProblem, patternsOf } from './patterns.js';
import { typeNameFor, typeScriptFromSchema } from './typed-schema.js';

export type { ExtractorRow };

/** The models each strategy can use: `local` runs offline; `llm` takes the configured list. */
export function allowedModels(strategy: Strategy | string, config: Config): string[] {
  return strategy === 'llm' ? config.llm.models : ['local'];
}

/** Checks that need the configuration, beyond what the contract schema checks. */
export function checkRunSettings(
  settings: { strategy: string; model: string },
  config: Config,
  pointerPrefix = '',
): FieldError[] {
  const models = allowedModels(settings.strategy, config);
  if (models.includes(settings.model)) return [];
  return [
    {
      pointer: `${pointerPrefix}/model`,
      detail: `model "${settings.model}" is not available for strategy "${settings.strategy}"; use one of ${models.map((m) => `"${m}"`).join(', ')}`,
    },
  ];
}

function checkExtractorInput(input: ExtractorInput, config: Config): void {
  const errors = checkRunSettings(input, config);
  if (input.webhookUrl) {
    const problem = webhookUrlProblem(input.webhookUrl, config.webhooks.allowPrivate);
    if (problem) errors.push({ pointer: '/webhookUrl', detail: `webhookUrl ${problem}` });
  } else if (input.enableWebhook) {
    errors.push({
      pointer: '/webhookUrl',
      detail: 'webhookUrl is required when enableWebhook is true',
    });
  }
  // The checks must fit the schema they check (the contract has checked their shape).
  const schema = parseTargetSchema(input.jsonSchema);
  if (schema.ok) {
    for (const { pointer, pattern } of patternsOf(schema.schema)) {
      const problem = patternProblem(pattern);
      if (problem)
        errors.push({ pointer: '/jsonSchema', detail: `jsonSchema ${pointer}.pattern ${problem}` });
    }
    for (const problem of checkProblems(input.checks, schema.schema))
      errors.push({
        pointer: `/checks${problem.pointer}`,
        detail: `check ${problem.pointer.split('/')[1]}: ${problem.message}`,
      });
  }
  if (input.redirectUrl) {
    let protocol = '';
    try {
      protocol = new URL(input.redirectUrl).protocol;
    } catch {
      // handled below
    }
    if (protocol !== 'http:' && protocol !== 'https:') {
      errors.push({
        pointer: '/redirectUrl',
        detail: 'redirectUrl must be an absolute http or https address',
      });
    }
  }
  if (errors.length > 0) throw new InvalidInputError(errors);
}

export function newWebhookSecret(): string {
  // Standard Webhooks: "whsec_" then the base64 of 24 to 64 random bytes.
  return `whsec_${randomBytes(32).toString('base64')}`;
}

function columnsFrom(input: ExtractorInput) {
  const labels = Object.fromEntries(labelNames.map((name) => [name, input[name]]));
  return {
    label: input.label,
    strategy: input.strategy,
    model: input.model,
    json_schema: input.jsonSchema,
    output_instructions: input.outputInstructions,
    labels: JSON.stringify(labels),
    allow_download: Number(input.allowDownload),
    enable_webhook: Number(input.enableWebhook),
    webhook_url: input.webhookUrl,
    redirect_url: input.redirectUrl,
    include_text: Number(input.includeText),
    include_embedded_images: Number(input.includeEmbeddedImages),
    mark_embedded_images: Number(input.markEmbeddedImages),
    include_page_images: Number(input.includePageImages),
    mark_page_images: Number(input.markPageImages),
    chunk_size: input.chunkSize,
    combine_files: Number(input.combineFiles),
    allow_resubmission: Number(input.allowResubmission),
    checks: JSON.stringify(input.checks),
    document_languages: JSON.stringify([...new Set(input.documentLanguages)]),
  };
}

export async function createExtractor(
  db: Db,
  input: ExtractorInput,
  config: Config,
): Promise<{ row: ExtractorRow; webhookSecret: string }> {
  checkExtractorInput(input, config);
  const now = nowIso();
  const webhookSecret = newWebhookSecret();
  const row: ExtractorRow = {
    id: newId(),
    ...columnsFrom(input),
    webhook_secret: webhookSecret,
    previous_webhook_secret: null,
    previous_webhook_secret_until: null,
    created_at: now,
    updated_at: now,
    deleted_at: null,
    last_ran_at: null,
  };
  await db.insertInto('extractors').values(row).execute();
  return { row, webhookSecret };
}

export async function replaceExtractor(
  db: Db,
  id: string,
  input: ExtractorInput,
  config: Config,
): Promise<ExtractorRow | undefined> {
  checkExtractorInput(input, config);
  return db
    .updateTable('extractors')
    .set({ ...columnsFrom(input), updated_at: nowIso() })
    .where('id', '=', id)
    .where(notDeleted)
    .returningAll()
    .executeTakeFirst();
}

/**
 * How long a rotated webhook secret keeps signing beside the new one (docs/api/webhooks.md): a
 * day to deploy the new secret at the receiver, during which every delivery carries both
 * signatures, as Standard Webhooks allows, so none fails verification on either side.
 */
export const webhookSecretOverlapHours = 24;

/**
 * A new signing secret; the one it replaces keeps signing for `webhookSecretOverlapHours`.
 * A second rotation within the window replaces that one: only the secret just replaced
 * overlaps.
 */
export async function rotateWebhookSecret(db: Db, id: string): Promise<string | undefined> {
  const secret = newWebhookSecret();
  const now = Date.now();
  const result = await db
    .updateTable('extractors')
    // On both SQLite and PostgreSQL the right-hand side of SET reads the row as it was.
    .set((eb) => ({
      previous_webhook_secret: eb.ref('webhook_secret'),
      previous_webhook_secret_until: new Date(
        now + webhookSecretOverlapHours * 3_600_000,
      ).toISOString(),
      webhook_secret: secret,
      updated_at: new Date(now).toISOString(),
    }))
    .where('id', '=', id)
    .where(notDeleted)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0 ? secret : undefined;
}

export function findExtractor(db: Db, id: string): Promise<ExtractorRow | undefined> {
  return findLive(db, 'extractors', id);
}

/**
 * The named columns of an extractor's row, deleted or not: a run keeps the row of the
 * extractor it was started from, and reads it as it is now (its checks, its webhook, its
 * download setting). Inside the caller's transaction when `db` is one.
 */
export function extractorColumns<Column extends keyof ExtractorRow & string>(
  db: Db | Transaction<Database>,
  id: string,
  columns: readonly Column[],
): Promise<Pick<ExtractorRow, Column> | undefined> {
  return db
    .selectFrom('extractors')
    .select(columns as readonly (keyof ExtractorRow & string)[])
    .where('id', '=', id)
    .executeTakeFirst() as Promise<Pick<ExtractorRow, Column> | undefined>;
}

/** The whole row of an extractor, deleted or not (see extractorColumns). */
export function extractorRowOf(
  db: Db | Transaction<Database>,
  id: string,
): Promise<ExtractorRow | undefined> {
  return db.selectFrom('extractors').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Whether the store holds any extractor at all, deleted ones included (a first start seeds one). */
export async function hasAnyExtractor(db: Db): Promise<boolean> {
  return Boolean(await db.selectFrom('extractors').select('id').limit(1).executeTakeFirst());
}

/** Notes when a run was last started from the extractor, in the run's transaction. */
export async function markExtractorRan(
  trx: Transaction<Database>,
  id: string,
  now: string,
): Promise<void> {
  await trx.updateTable('extractors').set({ last_ran_at: now }).where('id', '=', id).execute();
}

export interface ExtractorFilters {
  /** Exact match on the model. */
  model?: string;
  /** Substring of the output instructions. */
  outputInstructions?: string;
}

export function listExtractors(
  db: Db,
  filters: ExtractorFilters,
  window: PageWindow,
): Promise<PageOfRows<ExtractorRow>> {
  let query = db.selectFrom('extractors').where(notDeleted);
  if (filters.model) query = query.where('model', '=', filters.model);
  if (filters.outputInstructions) {
    query = query.where(containsText('output_instructions', filters.outputInstructions));
  }
  return newestFirst(query, window);
}

export function deleteExtractor(db: Db, id: string): Promise<boolean> {
  return softDelete(db, 'extractors', id);
}

/**
 * Extractors as the APIs show them, with their runs, in one query for all. With a `scope`,
 * only the runs within it are listed, and `lastRanAt` is the start of the last of those
 * (what an embed session may see).
 */
export async function extractorViews(
  db: Db,
  rows: readonly ExtractorRow[],
  config: Config,
  scope?: RunScope,
): Promise<Extractor[]> {
  const runs = await runsOf(
    db,
    'extractor_id',
    rows.map((row) => row.id),
    scope,
  );
  return rows.map((row) => {
    const listed = runs.get(row.id) ?? [];
    const wire = extractorToWire(row, runIris(listed), config);
    return scope ? { ...wire, lastRanAt: listed.at(-1)?.createdAt ?? null } : wire;
  });
}

export function extractorLabels(row: ExtractorRow): Record<LabelName, string> {
  const stored = JSON.parse(row.labels) as Partial<Record<LabelName, string>>;
  return Object.fromEntries(labelNames.map((name) => [name, stored[name] ?? ''])) as Record<
    LabelName,
    string
  >;
}

/** An extractor's checks over its results; see src/contract/checks.ts. */
export function checksOf(row: Pick<ExtractorRow, 'checks'>): Check[] {
  return JSON.parse(row.checks) as Check[];
}

export function documentLanguagesOf(
  row: Pick<ExtractorRow, 'document_languages'>,
): DocumentLanguage[] {
  return JSON.parse(row.document_languages) as DocumentLanguage[];
}

export function typedSchemaOf(row: Pick<ExtractorRow, 'json_schema' | 'label'>): string {
  const parsed = parseTargetSchema(row.json_schema);
  return parsed.ok ? typeScriptFromSchema(parsed.schema, typeNameFor(row.label)) : '';
}

export function extractorToWire(row: ExtractorRow, runs: string[], config: Config): Extractor {
  return {
    id: row.id,
    label: row.label,
    jsonSchema: row.json_schema,
    strategy: row.strategy,
    model: row.model,
    outputInstructions: row.output_instructions,
    ...extractorLabels(row),
    allowDownload: row.allow_download === 1,
    enableWebhook: row.enable_webhook === 1,
    webhookUrl: row.webhook_url,
    redirectUrl: row.redirect_url,
    ...contentOptionsOf(row),
    chunkSize: row.chunk_size,
    combineFiles: row.combine_files === 1,
    allowResubmission: row.allow_resubmission === 1,
    checks: checksOf(row),
    documentLanguages: documentLanguagesOf(row),
    runs,
    deletedAt: row.deleted_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastRanAt: row.last_ran_at,
    typedSchema: typedSchemaOf(row),
    embeddedUrl: `${config.publicBaseUrl}/embed/${encodeURIComponent(row.id)}`,
    fullPageUrl: `${config.publicBaseUrl}/x/${encodeURIComponent(row.id)}`,
  };
}
