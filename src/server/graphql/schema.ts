/**
 * The GraphQL schema of `/api/graphql`: a read-only view of saved extractors, buckets and
 * runs. Its object types are generated from the contract's wire schemas, so every field of
 * the `application/json` representation is selectable, with the contract's descriptions;
 * the resolvers call the same domain functions and scope rules as the REST routes, so both
 * APIs show the same data to the same token.
 *
 * The schema is built from SDL with graphql-yoga's `createSchema` rather than with
 * graphql-js classes imported here: graphql 16 ships CommonJS and ESM copies, and a test
 * runner that resolves one for our code and the other for Yoga's would see two GraphQL
 * realms. Going through Yoga keeps a single copy.
 */
import { createGraphQLError, createSchema } from 'graphql-yoga';
import type { SavedCheck } from '../../contract/check-schemas.js';
import { idFromReference } from '../../contract/iri.js';
import type { DocumentSummary, Run, RunResults } from '../../contract/resources.js';
import type { RunStatus } from '../../contract/run-status.js';
import { findBucket, listBuckets } from '../buckets/buckets.js';
import { findExtractor, listExtractors } from '../extractors/extractors.js';
import type { Services } from '../http/context.js';
import { findRun, listRuns, runToWire, type RunFilters } from '../runs/runs.js';
import { itemsPerPage, pageWindow as windowOfPage, type PageWindow } from '../store/paging.js';
import {
  bucketViewsFor,
  canSeeBucket,
  canSeeExtractor,
  canSeeRun,
  extractorViewsFor,
  runFiltersFor,
} from '../access/token-scopes.js';
import type { Principal } from '../tokens/tokens.js';
import { graphqlTypeDefs } from './type-defs.js';

/** What every resolver gets: who asks (from the REST bearer middleware) and the services. */
export interface GraphqlContext {
  principal: Principal;
  services: Services;
}

// ---------------------------------------------------------------------------------------
// Resolvers

interface Page<T> {
  items: T[];
  totalItems: number;
  itemsPerPage: number;
  currentPage: number;
}

function badInput(message: string) {
  return createGraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });
}

function pageWindow(page: number | null): PageWindow {
  if (page === null || !Number.isInteger(page) || page < 1) {
    throw badInput(`page must be a whole number of 1 or more, not ${page}.`);
  }
  return windowOfPage(page);
}

function pageOf<T>(items: T[], totalItems: number, page: number): Page<T> {
  return { items, totalItems, itemsPerPage, currentPage: page };
}

/** A session token's lists hold the one resource it may see, on the first page. */
function sessionPage<T>(visible: T | undefined, page: number): Page<T> {
  return pageOf(visible && page === 1 ? [visible] : [], visible ? 1 : 0, page);
}

interface RunArguments {
  page: number | null;
  resultJson?: string | null;
  partialResultJson?: string | null;
  error?: string | null;
  model?: string | null;
  savedExtractorId?: string | null;
  strategy?: string | null;
  status?: RunStatus | null;
}

/** The filters of `GET /api/extraction_runs`; `undefined` when the token can see no such run. */
function runFilters(args: RunArguments, principal: Principal): RunFilters | undefined {
  let savedExtractorId: string | undefined;
  if (args.savedExtractorId) {
    savedExtractorId = idFromReference('extractor', args.savedExtractorId);
    if (!savedExtractorId) throw badInput('savedExtractorId must be an extractor id or IRI.');
  }
  const filters: RunFilters = {
    resultJson: args.resultJson || undefined,
    partialResultJson: args.partialResultJson || undefined,
    error: args.error || undefined,
    model: args.model || undefined,
    savedExtractorId,
    strategy: args.strategy || undefined,
    status: args.status || undefined,
  };
  return runFiltersFor(principal, filters);
}

type Resolver<Args> = (source: unknown, args: Args, context: GraphqlContext) => Promise<unknown>;

const queryResolvers: Record<string, Resolver<never>> = {
  savedExtractors: (async (_source, args, { principal, services }) => {
    const window = pageWindow(args.page);
    if (principal.kind === 'session') {
      const row = await findExtractor(services.db, principal.extractorId);
      const [wire] = row
        ? await extractorViewsFor(principal, services.db, [row], services.config)
        : [];
      return sessionPage(wire, window.page);
    }
    const { rows, total } = await listExtractors(services.db, {}, window);
    const views = await extractorViewsFor(principal, services.db, rows, services.config);
    return pageOf(views, total, window.page);
  }) satisfies Resolver<{ page: number | null }>,

  savedExtractor: (async (_source, args, { principal, services }) => {
    if (!canSeeExtractor(principal, args.id)) return null;
    const row = await findExtractor(services.db, args.id);
    return row
      ? (await extractorViewsFor(principal, services.db, [row], services.config))[0]
      : null;
  }) satisfies Resolver<{ id: string }>,

  buckets: (async (_source, args, { principal, services }) => {
    const window = pageWindow(args.page);
    if (principal.kind === 'session') {
      const row = await findBucket(services.db, principal.bucketId);
      const [wire] = row ? await bucketViewsFor(principal, services.db, [row]) : [];
      return sessionPage(wire, window.page);
    }
    const { rows, total } = await listBuckets(services.db, window);
    return pageOf(await bucketViewsFor(principal, services.db, rows), total, window.page);
  }) satisfies Resolver<{ page: number | null }>,

  bucket: (async (_source, args, { principal, services }) => {
    if (!canSeeBucket(principal, args.id)) return null;
    const row = await findBucket(services.db, args.id);
    return row ? (await bucketViewsFor(principal, services.db, [row]))[0] : null;
  }) satisfies Resolver<{ id: string }>,

  runs: (async (_source, args, { principal, services }) => {
    const window = pageWindow(args.page);
    const filters = runFilters(args, principal);
    if (!filters) return pageOf([], 0, window.page);
    const { rows, total } = await listRuns(services.db, filters, window);
    return pageOf(rows.map(runToWire), total, window.page);
  }) satisfies Resolver<RunArguments>,

  run: (async (_source, args, { principal, services }) => {
    const row = await findRun(services.db, args.id);
    return row && canSeeRun(principal, row) ? runToWire(row) : null;
  }) satisfies Resolver<{ id: string }>,
};

/**
 * A run's documents with their records, from the run's results so far (`partialData`: the
 * results with a person's edits once settled, what the chunks found while working).
 */
function runDocuments(run: Run): (DocumentSummary & { data: string | null })[] {
  const results =
    run.partialData === null ? undefined : (JSON.parse(run.partialData) as RunResults);
  return run.documents.map((document, index) => {
    const data = results?.documents[index]?.data;
    return { ...document, data: data === undefined || data === null ? null : JSON.stringify(data) };
  });
}

/** A check's operands as JSON text (type-defs.ts says why). */
const checkResolvers = {
  left: (check: SavedCheck) => JSON.stringify(check.left),
  right: (check: SavedCheck) => JSON.stringify(check.right),
};

export const graphqlSchema = createSchema<GraphqlContext>({
  typeDefs: graphqlTypeDefs,
  resolvers: {
    Query: queryResolvers,
    ExtractionRun: { documents: runDocuments },
    Check: checkResolvers,
  },
});
