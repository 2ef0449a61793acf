/**
 * What each token may see. A personal access token sees everything; an embed session
 * sees its extractor, its bucket and that bucket's runs of its extractor, and nothing
 * else. Whatever lies outside is reported exactly as a missing thing is (NotFoundError),
 * so ids cannot be probed. The views of an extractor and a bucket that REST and GraphQL
 * share are built here, for the token that asks.
 */
import type { Bucket, Extractor, RunInput } from '../../contract/resources.js';
import { bucketViews, type BucketRow } from '../buckets/buckets.js';
import type { Config } from '../config.js';
import { ForbiddenInputError, NotAllowedError, NotFoundError } from '../errors.js';
import { extractorViews, type ExtractorRow } from '../extractors/extractors.js';
import type { RunFilters, RunScope } from '../runs/runs.js';
import type { Db } from '../store/database.js';
import type { Principal } from '../tokens/tokens.js';

export type PersonalPrincipal = Extract<Principal, { kind: 'personal' }>;

export function isPersonal(principal: Principal): principal is PersonalPrincipal {
  return principal.kind === 'personal';
}

/** Only personal access tokens get past; a session token is told there is nothing here. */
export function requirePersonal(principal: Principal): asserts principal is PersonalPrincipal {
  if (!isPersonal(principal)) throw new NotFoundError();
}

export function canSeeBucket(principal: Principal, bucketId: string): boolean {
  return principal.kind === 'personal' || principal.bucketId === bucketId;
}

export function canSeeExtractor(principal: Principal, extractorId: string): boolean {
  return principal.kind === 'personal' || principal.extractorId === extractorId;
}

export function canSeeRun(
  principal: Principal,
  run: { bucket_id: string; extractor_id: string },
): boolean {
  return canSeeBucket(principal, run.bucket_id) && canSeeExtractor(principal, run.extractor_id);
}

/** The runs a token sees listed in a bucket or an extractor; `undefined`: all of them. */
export function runScopeOf(principal: Principal): RunScope | undefined {
  return isPersonal(principal)
    ? undefined
    : { bucketId: principal.bucketId, extractorId: principal.extractorId };
}

/**
 * A search of runs narrowed to what the token sees: a session sees the runs of its extractor
 * over its bucket; asking for another extractor finds none (`undefined`).
 */
export function runFiltersFor(principal: Principal, filters: RunFilters): RunFilters | undefined {
  if (isPersonal(principal)) return filters;
  if (filters.savedExtractorId && filters.savedExtractorId !== principal.extractorId)
    return undefined;
  return { ...filters, savedExtractorId: principal.extractorId, bucketId: principal.bucketId };
}

/**
 * The settings of an extractor that concern the partner's server, not the person in the
 * browser: where its webhooks go and what signs them, and the instructions its model
 * gets. A session's views leave them out (absent, not null: in every representation the
 * field is simply not there; GraphQL, which answers every field asked for, gives null).
 */
export const fieldsHiddenFromSessions = [
  'webhookUrl',
  'webhookSecret',
  'outputInstructions',
] as const satisfies readonly (keyof Extractor)[];

/** Extractors as `principal` may see them. */
export async function extractorViewsFor(
  principal: Principal,
  db: Db,
  rows: readonly ExtractorRow[],
  config: Config,
): Promise<Extractor[]> {
  const views = await extractorViews(db, rows, config, runScopeOf(principal));
  if (isPersonal(principal)) return views;
  return views.map((view) => {
    const visible: Partial<Extractor> = { ...view };
    for (const field of fieldsHiddenFromSessions) delete visible[field];
    return visible as Extractor;
  });
}

/** Buckets as `principal` may see them. */
export function bucketViewsFor(
  principal: Principal,
  db: Db,
  rows: readonly BucketRow[],
): Promise<Bucket[]> {
  return bucketViews(db, rows, runScopeOf(principal));
}

/**
 * What a run may set beyond its bucket and extractor. A personal token may choose each;
 * an embed session's runs take the extractor's, since the strategy, the model, the chunk
 * size and the page images decide what a run costs and how long it works, and
 * `combineFiles` what its documents are.
 */
export const runSettings = [
  'strategy',
  'model',
  'chunkSize',
  'includeText',
  'includeEmbeddedImages',
  'markEmbeddedImages',
  'includePageImages',
  'markPageImages',
  'combineFiles',
] as const satisfies readonly (keyof RunInput)[];

/** Refuses a run input that sets what `principal` may not set. */
export function checkRunSettingsAllowed(principal: Principal, input: RunInput): void {
  if (isPersonal(principal)) return;
  const set = runSettings.filter((field) => input[field] !== undefined);
  if (set.length === 0) return;
  throw new ForbiddenInputError(
    `An embed session runs with the extractor's settings; it may not set ${set.join(', ')}.`,
    set.map((field) => ({
      pointer: `/${field}`,
      detail: `${field} is the extractor's to choose; leave it out`,
    })),
  );
}

/**
 * Refuses an embed session the download of results that its extractor does not allow
 * (`allowDownload: false`): hiding the buttons is the interface's part, this the service's.
 */
export function checkDownloadAllowed(
  principal: Principal,
  extractor: Pick<ExtractorRow, 'allow_download'> | undefined,
): void {
  if (isPersonal(principal) || extractor?.allow_download === 1) return;
  throw new NotAllowedError(
    "This extractor's results cannot be downloaded in an embed session (allowDownload is off).",
  );
}
