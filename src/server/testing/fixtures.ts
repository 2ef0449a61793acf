/**
 * Fixtures for in-process tests: resources made through the API the way a client makes
 * them, run rows written straight into the store (runs are created by the run lifecycle,
 * which these tests do not drive), and a snapshot of everything the service has stored.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type {
  Bucket,
  BucketFile,
  EmbedSession,
  Extractor,
  ExtractorInput,
} from '../../contract/resources.js';
import { apiRoutes } from '../http/api.js';
import { problemMediaType } from '../http/problem.js';
import type { DescribedRoute } from '../http/route-table.js';
import type { Db } from '../store/database.js';
import type { DocumentStatus } from '../../contract/run-status.js';
import { newDocumentRows, runColumnsOf } from '../runs/documents.js';
import { untouchedRunColumns } from '../runs/runs.js';
import { newId, nowIso } from '../store/ids.js';
import type { Database, RunDocumentRow, RunRow } from '../store/schema.js';
import type { TestService } from './test-service.js';

export const invoiceJsonSchema = JSON.stringify({
  type: 'object',
  properties: { invoice_number: { type: 'string' }, total: { type: ['number', 'null'] } },
  required: ['invoice_number'],
});

/**
 * A target schema of objects nested `levels` deep (field `a` in field `a`…) down to a
 * nullable string, written as text so that making it recurses nowhere. Its JSON nests
 * 2 × levels + 4 deep: 30 levels is targetSchemaLimits.depth, 64.
 */
export function nestedSchema(levels: number): string {
  return (
    '{"type":"object","properties":{"a":'.repeat(levels) +
    '{"type":"object","properties":{"leaf":{"type":["string","null"]}}}' +
    '}}'.repeat(levels)
  );
}

export function extractorInput(overrides: Partial<ExtractorInput> = {}): Partial<ExtractorInput> {
  return { label: 'Receipts', jsonSchema: invoiceJsonSchema, ...overrides };
}

async function created<T>(response: Response, what: string): Promise<T> {
  if (response.status !== 201)
    throw new Error(`Creating ${what} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

export async function createBucket(
  service: TestService,
  body: Record<string, unknown> = {},
): Promise<Bucket> {
  return created<Bucket>(await service.json('POST', '/api/buckets', body), 'a bucket');
}

export async function createExtractor(
  service: TestService,
  overrides: Partial<ExtractorInput> = {},
): Promise<Extractor> {
  return created<Extractor>(
    await service.json('POST', '/api/extractors', extractorInput(overrides)),
    'an extractor',
  );
}

/** The id of the demo Invoice extractor that a service creates at its first start. */
export async function demoExtractorId(service: TestService): Promise<string> {
  const extractors = (await (await service.json('GET', '/api/extractors')).json()) as {
    id: string;
    label: string;
  }[];
  return extractors.find((extractor) => extractor.label === 'Invoice')!.id;
}

export async function createSession(
  service: TestService,
  body: {
    savedExtractor: string;
    bucket?: string;
    ttlSeconds?: number;
    allowedOrigins?: string[];
    theme?: Record<string, string>;
    locale?: string;
    strings?: Record<string, string>;
  },
): Promise<EmbedSession> {
  return created<EmbedSession>(
    await service.json('POST', '/api/embed_sessions', body),
    'an embed session',
  );
}

export interface UploadPart {
  name: string;
  bytes: Uint8Array | string;
  /** The form field; `file` unless a test sends something else. */
  field?: string;
  /** The part's declared type, which the service must ignore. */
  type?: string;
}

export function uploadForm(parts: readonly UploadPart[]): FormData {
  const form = new FormData();
  for (const part of parts) {
    const bytes = typeof part.bytes === 'string' ? part.bytes : new Uint8Array(part.bytes);
    form.append(
      part.field ?? 'file',
      new Blob([bytes], { type: part.type ?? 'application/octet-stream' }),
      part.name,
    );
  }
  return form;
}

export function upload(
  service: TestService,
  bucketId: string,
  parts: readonly UploadPart[],
  init: { token?: string | null; accept?: string } = {},
): Promise<Response> {
  return service.request(`/api/buckets/${bucketId}/files`, {
    method: 'POST',
    body: uploadForm(parts),
    headers: init.accept ? { Accept: init.accept } : {},
    token: init.token,
  });
}

/** Uploads `parts` as the admin, expects 201, and answers the files as stored. */
export async function uploaded(
  service: TestService,
  bucketId: string,
  parts: readonly UploadPart[],
): Promise<BucketFile[]> {
  const response = await upload(service, bucketId, parts);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as BucketFile[];
}

/**
 * A document of a run written straight into the store: its file (an id, by default a new
 * one that names no stored file), name, status, the machine's record and a person's edits.
 */
export interface DocumentSeed {
  fileId?: string;
  name?: string;
  status?: DocumentStatus;
  data?: unknown;
  edited?: unknown;
  error?: string;
}

type RunSeed = { bucketId: string; extractorId: string; documents?: DocumentSeed[] } & Omit<
  Partial<RunRow>,
  'documents'
>;

/** A run row as the lifecycle would write it, in the test service; every column can be overridden. */
export function insertRun(service: TestService, run: RunSeed): Promise<RunRow> {
  return insertRunRow(service.services.db, run);
}

/** A new bucket and a new extractor, and a run of the one over the other (as insertRun writes it). */
export async function insertRunOfNew(
  service: TestService,
  run: Omit<RunSeed, 'bucketId' | 'extractorId'> = {},
): Promise<{ bucket: Bucket; extractor: Extractor; run: RunRow }> {
  const [bucket, extractor] = [await createBucket(service), await createExtractor(service)];
  const row = await insertRun(service, { bucketId: bucket.id, extractorId: extractor.id, ...run });
  return { bucket, extractor, run: row };
}

/**
 * A run row as the lifecycle would write it, in any store, with its `documents` (none by
 * default) and the run's columns made from them; every column can be overridden.
 */
export async function insertRunRow(db: Db, run: RunSeed): Promise<RunRow> {
  const now = nowIso();
  const { bucketId, extractorId, documents: seeds = [], ...overrides } = run;
  const id = overrides.id ?? newId();
  const files = seeds.map((seed, index) => ({
    id: seed.fileId ?? newId(),
    name: seed.name ?? `document-${index + 1}.pdf`,
  }));
  const documents: RunDocumentRow[] = newDocumentRows(id, files, false, now).map(
    (document, index) => {
      const seed = seeds[index]!;
      const status = seed.status ?? (seed.data === undefined ? 'queued' : 'completed');
      return {
        ...document,
        status,
        error: seed.error ?? null,
        result_json: seed.data === undefined ? null : JSON.stringify(seed.data),
        edited_result_json: seed.edited === undefined ? null : JSON.stringify(seed.edited),
        chunks_completed: status === 'completed' ? 1 : 0,
        chunks_total: status === 'completed' ? 1 : null,
      };
    },
  );
  const row: RunRow = {
    id,
    bucket_id: bucketId,
    extractor_id: extractorId,
    status: 'queued',
    strategy: 'local',
    model: 'local',
    target_schema: invoiceJsonSchema,
    output_instructions: '',
    include_text: 1,
    include_embedded_images: 0,
    mark_embedded_images: 0,
    include_page_images: 0,
    mark_page_images: 0,
    chunk_size: 4000,
    file_ids: JSON.stringify(files.map((file) => file.id)),
    combine_files: 0,
    document_languages: '[]',
    ...untouchedRunColumns(now),
    ...runColumnsOf(bucketId, documents),
    ...overrides,
  };
  await db.insertInto('runs').values(row).execute();
  if (documents.length > 0) await db.insertInto('run_documents').values(documents).execute();
  return row;
}

export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  errors?: { pointer?: string; parameter?: string; detail: string }[];
  allowed?: string[];
  [extension: string]: unknown;
}

/** Asserts an RFC 9457 problem document with the given status and returns it. */
export async function expectProblem(response: Response, status: number): Promise<ProblemDocument> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(response.headers.get('content-type')).toBe(problemMediaType);
  const problem = JSON.parse(text) as ProblemDocument;
  expect(problem).toMatchObject({ status, type: expect.stringMatching(/^\/api\/docs#problem-/) });
  expect(problem.title).toEqual(expect.any(String));
  expect(problem.detail).toEqual(expect.any(String));
  expect(problem.title.length).toBeGreaterThan(0);
  expect(problem.detail.length).toBeGreaterThan(0);
  return problem;
}

/** A JSON:API error document (JSON:API 1.1 §11), as a JSON:API client is answered. */
export interface JsonApiErrors {
  jsonapi: { version: string };
  errors: {
    status: string;
    code: string;
    title: string;
    detail: string;
    source?: { pointer?: string; parameter?: string };
    links: { type: string };
    meta: Record<string, unknown>;
  }[];
}

/** Asserts a JSON:API error document with the given status and returns it. */
export async function expectJsonApiErrors(
  response: Response,
  status: number,
): Promise<JsonApiErrors> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/vnd.api+json');
  const document = JSON.parse(text) as JsonApiErrors;
  expect(document.errors.length).toBeGreaterThan(0);
  for (const error of document.errors) {
    expect(error).toMatchObject({
      status: String(status),
      title: expect.any(String),
      detail: expect.any(String),
      links: { type: expect.stringMatching(/^\/api\/docs#problem-/) },
    });
  }
  return document;
}

/**
 * Asserts the error answer a client that accepts `accept` reads: a JSON:API error document
 * for a JSON:API client, a problem document for any other.
 */
export async function expectErrorAnswer(
  response: Response,
  status: number,
  accept: string,
): Promise<void> {
  if (accept.startsWith('application/vnd.api+json')) await expectJsonApiErrors(response, status);
  else await expectProblem(response, status);
}

/** A 401 as RFC 6750 has it: a problem document and a Bearer challenge. */
export async function expectUnauthorized(response: Response): Promise<ProblemDocument> {
  expect(response.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
  return expectProblem(response, 401);
}

const tables = [
  'extractors',
  'buckets',
  'files',
  'runs',
  'run_events',
  'tokens',
  'webhook_deliveries',
] as const satisfies readonly (keyof Database)[];

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/**
 * What the service holds: the rows of every table (whole rows, so an update shows too,
 * apart from a token's last use, which every request may note) and every file on disk.
 */
export async function storedState(service: TestService): Promise<Record<string, unknown>> {
  const { db } = service.services;
  const state: Record<string, unknown> = {};
  for (const table of tables) {
    const rows = (await db.selectFrom(table).selectAll().execute()) as Record<string, unknown>[];
    state[table] = rows
      .map((row) => (table === 'tokens' ? { ...row, last_used_at: undefined } : row))
      .map((row) => JSON.stringify(row))
      .sort();
  }
  state.files = filesUnder(join(service.dataDir, 'files'));
  state.temporary = filesUnder(join(service.dataDir, 'tmp'));
  return state;
}

/** Ids a route template's placeholders stand for. */
export interface RouteIds {
  bucket: string;
  file: string;
  extractor: string;
  run: string;
  session: string;
  /** A page of the file: `1`. */
  page: string;
}

/**
 * One of each thing a route can name: a bucket with a file, an extractor, a completed run
 * of them whose one document is that file (its columns and documents overridable) and an
 * embed session for that bucket, for tests that go over every route.
 */
export async function seedRouteIds(
  service: TestService,
  run: Omit<RunSeed, 'bucketId' | 'extractorId'> = {},
): Promise<{ ids: RouteIds; sessionToken: string }> {
  const [bucket, extractor] = [await createBucket(service), await createExtractor(service)];
  const [file] = (await (
    await upload(service, bucket.id, [{ name: 'a.txt', bytes: 'a\n' }])
  ).json()) as { id: string }[];
  const { id: runId } = await insertRun(service, {
    bucketId: bucket.id,
    extractorId: extractor.id,
    status: 'completed',
    documents: [{ fileId: file!.id, name: 'a.txt', data: { invoice_number: 'A-1', total: 1 } }],
    ...run,
  });
  const session = await createSession(service, { savedExtractor: extractor.id, bucket: bucket.id });
  return {
    ids: {
      bucket: bucket.id,
      file: file!.id,
      extractor: extractor.id,
      run: runId,
      session: session.id,
      page: '1',
    },
    sessionToken: session.token,
  };
}

/** What a route's path parameter stands for: the thing the collection before it holds. */
const idsByCollection: Record<string, keyof RouteIds> = {
  buckets: 'bucket',
  files: 'file',
  // A run's documents are named by their files: the seeded run's one document is the file.
  documents: 'file',
  extractors: 'extractor',
  saved_extractors: 'extractor',
  runs: 'run',
  extraction_runs: 'run',
  embed_sessions: 'session',
  pages: 'page',
};

function placeholders(path: string): string {
  return path.replace(/\/(\w+)\/:\w+/g, (_whole, collection: string) => {
    const id = idsByCollection[collection];
    if (!id) throw new Error(`No id stands for the parameter after /${collection}/.`);
    return `/${collection}/{${id}}`;
  });
}

/** Whether a route answers with an event stream, which stays open while the run can change. */
const streams = (route: DescribedRoute) =>
  Object.values(route.operation.responses).some(
    (response) => 'content' in response && !!response.content?.['text/event-stream'],
  );

/**
 * Every route of the API that needs a token and answers one request with one response, as
 * `METHOD /path/{placeholder}`, for tests that go over all of them (authentication, junk
 * input). Read from the routes themselves (http/api.ts).
 */
export const everyRoute: readonly string[] = apiRoutes
  .filter((route) => route.access !== 'public' && !streams(route))
  .map((route) => `${route.method} ${placeholders(route.path)}`);

export function routePath(route: string, ids: RouteIds): { method: string; path: string } {
  const [method, template] = route.split(' ') as [string, string];
  const path = template.replace(/\{(\w+)\}/g, (_whole, name: keyof RouteIds) => ids[name]);
  return { method, path };
}
