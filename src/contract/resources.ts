/**
 * Wire shapes of the service's resources (the `application/json` representation) and of
 * the bodies clients send. Field names and types follow docs/extraction-service-api.md;
 * fields the spec does not list are ours and are documented in docs/api/resources.md.
 *
 * Written with `zod/mini` so the browser bundle stays small; the server uses the same
 * schemas to validate input and to generate its OpenAPI document.
 */
import * as z from 'zod/mini';
import { checksSchema, savedCheckSchema } from './check-schemas.js';
import { labelNames, type LabelName } from './labels.js';
import { parseTargetSchema } from './json-schema.js';
import { documentStatuses, runStatuses } from './run-status.js';
import { themeSchema } from './theme.js';
import { colorSchemes, defaultColorScheme } from './color-scheme.js';

export const strategies = ['local', 'llm'] as const;
export type Strategy = (typeof strategies)[number];

export const bucketOrigins = ['api', 'embed'] as const;
export type BucketOrigin = (typeof bucketOrigins)[number];

/** Characters per chunk when an extractor does not say otherwise. */
export const defaultChunkSize = 4000;
export const minChunkSize = 200;
export const maxChunkSize = 200_000;

/**
 * A moment as the service writes it (`new Date().toISOString()`): RFC 3339 in UTC. Marked
 * `date-time` for the OpenAPI document only (the browser's build leaves `z.meta` out, as it
 * does descriptions), not checked with a pattern: a timestamp the interface could not
 * parse is no reason to refuse a whole resource.
 */
const dateTime = z.string().check(z.meta({ format: 'date-time' }));
const nullableDateTime = z.nullable(dateTime);
const iri = z.string();

// ---------------------------------------------------------------------------------------
// Buckets

export const bucketSchema = z.object({
  id: z.string(),
  description: z.nullable(z.string()),
  deletedAt: nullableDateTime,
  createdAt: nullableDateTime,
  updatedAt: nullableDateTime,
  createdUsing: z
    .string()
    .check(
      z.describe(
        'How the bucket came to be: `api` (POST /api/buckets) or `embed` (for a session).',
      ),
    ),
  /** JSON: the bucket's files, as a list of file resources. */
  artifacts: z
    .nullable(z.string())
    .check(
      z.describe(
        'The files of the bucket as JSON text: an array of BucketFile objects ' +
          '(id, bucket, name, size, mediaType, sha256, createdAt, contentUrl), oldest first.',
      ),
    ),
  runs: z
    .array(iri)
    .check(
      z.describe(
        'IRI references of the runs over the bucket, oldest first. An embed session token sees ' +
          'only the runs of its extractor.',
      ),
    ),
});
export type Bucket = z.infer<typeof bucketSchema>;

export const bucketInputSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    description: z.optional(z.nullable(z.string().check(z.maxLength(2000)))),
    createdUsing: z.optional(z.enum(bucketOrigins)),
  }))();
export type BucketInput = z.infer<typeof bucketInputSchema>;

// ---------------------------------------------------------------------------------------
// Files in a bucket (ours: the spec shows no upload)

export const acceptedMediaTypes = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/tiff',
  'text/plain',
  'text/csv',
  'text/markdown',
  'text/html',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
] as const;
export type AcceptedMediaType = (typeof acceptedMediaTypes)[number];

/** File name extensions of the accepted types, for `<input accept>` and friendly messages. */
export const acceptedExtensions = [
  '.pdf',
  '.png',
  '.jpg',
  '.jpeg',
  '.webp',
  '.tif',
  '.tiff',
  '.txt',
  '.csv',
  '.md',
  '.markdown',
  '.html',
  '.htm',
  '.docx',
  '.xlsx',
] as const;

export const pageKinds = ['image', 'text'] as const;
export type PageKind = (typeof pageKinds)[number];

export const bucketFileSchema = z.object({
  id: z.string(),
  bucket: iri,
  name: z.string(),
  size: z.number(),
  mediaType: z.string(),
  sha256: z.string(),
  createdAt: dateTime,
  contentUrl: z.string(),
  pageCount: z
    .nullable(z.int())
    .check(
      z.describe(
        'How many pages the service reads in the file (a PDF page, a visible XLSX sheet, a ' +
          'form-feed page of plain text; 1 for an image and the other text formats), counted at ' +
          'upload. Null when the file could not be opened (…/pages/1 then says why).',
      ),
    ),
  pageKind: z
    .enum(pageKinds)
    .check(
      z.describe(
        'How …/pages/{n} shows the file: `image` (PDFs and images: a picture of the page) or ' +
          "`text` (the page as the text the service read, where sources' offsets point).",
      ),
    ),
});
export type BucketFile = z.infer<typeof bucketFileSchema>;

// ---------------------------------------------------------------------------------------
// Saved extractors

const combineFilesDescription =
  'Ours, beyond the spec. false (the default): each file of the bucket is its own document, ' +
  'with its own record. true: all the files of the bucket are read as one document (one ' +
  'paper photographed page by page) and give one record.';

const allowResubmissionDescription =
  "Ours, beyond the spec. false (the default): a bucket's results are submitted once; " +
  'submitting another run over the same bucket answers 409. true: each run over the ' +
  'bucket may be submitted (still once per run).';

/**
 * The languages a document may be written in that OCR reads: the ten of the interface, as
 * ISO 639-1 codes. An extractor's `documentLanguages` names some of them when its owner
 * knows what its documents are written in; empty, OCR finds each page's language itself.
 */
export const documentLanguages = [
  'en',
  'de',
  'fr',
  'es',
  'it',
  'nl',
  'pl',
  'pt',
  'ja',
  'ar',
] as const;
export type DocumentLanguage = (typeof documentLanguages)[number];

const documentLanguagesDescription =
  'Ours, beyond the spec. The languages the documents are written in, as ISO 639-1 codes ' +
  'of the ten OCR reads (en, de, fr, es, it, nl, pl, pt, ja, ar): OCR of scans and ' +
  'photos uses only their models. Empty (the default): each page is read in the language ' +
  'and script it shows.';

const text = (max: number) => z._default(z.string().check(z.maxLength(max)), '');
const flag = (value: boolean) => z._default(z.boolean(), value);

/**
 * The writable fields of a saved extractor. POST creates with them and PUT replaces them:
 * a field left out takes its default. `label` and `jsonSchema` are required. Like every
 * body's schema it is strict: a field it does not know (`allowdownload`) is refused, not
 * dropped, so a misspelling cannot quietly leave a setting at its default.
 *
 * Like every body only the service reads (bucketInputSchema, runInputSchema, …), it is
 * built in a function called as pure: a browser build, which never reads one, leaves the
 * whole of it out. Marking `z.object(…)` itself pure would leave the calls that make its
 * fields, and what they need of zod and of json-schema.ts, in the first view.
 */
export const extractorInputSchema = /* @__PURE__ */ (() => {
  const jsonSchemaText = z.string().check(
    z.superRefine((value, ctx) => {
      const parsed = parseTargetSchema(value);
      if (!parsed.ok)
        ctx.addIssue({ code: 'custom', message: `jsonSchema ${parsed.message}`, input: value });
    }),
    z.describe(
      'JSON text of a JSON Schema (2020-12 subset) describing an object. A 422 at /jsonSchema ' +
        'refuses one nested deeper than 64 levels of objects and arrays (the detail ends with ' +
        'the pointer where), over 262,144 bytes of UTF-8 or over 10,000 JSON values, and a ' +
        '`pattern` RE2 cannot run in linear time (a backreference, a lookahead, a repeat over ' +
        '1,000, over 1,000 RE2 instructions), naming the pattern. A value over 1,000 ' +
        'characters never matches a pattern. ' +
        'docs/api/resources.md: Fields beyond the specification.',
    ),
  );
  const labelFields = Object.fromEntries(labelNames.map((name) => [name, text(500)])) as Record<
    LabelName,
    ReturnType<typeof text>
  >;
  return z.strictObject({
    label: z.string().check(z.trim(), z.minLength(1, 'label must not be empty'), z.maxLength(200)),
    jsonSchema: jsonSchemaText,
    strategy: z._default(z.enum(strategies), 'local'),
    model: z._default(z.string().check(z.minLength(1), z.maxLength(200)), 'local'),
    outputInstructions: text(20_000),
    ...labelFields,
    allowDownload: flag(true),
    enableWebhook: flag(false),
    webhookUrl: text(2000),
    redirectUrl: text(2000),
    includeText: flag(true),
    includeEmbeddedImages: flag(false),
    markEmbeddedImages: flag(false),
    includePageImages: flag(false),
    markPageImages: flag(false),
    chunkSize: z._default(
      z.int().check(z.minimum(minChunkSize), z.maximum(maxChunkSize)),
      defaultChunkSize,
    ),
    combineFiles: flag(false),
    allowResubmission: flag(false),
    documentLanguages: z
      ._default(z.array(z.enum(documentLanguages)).check(z.maxLength(documentLanguages.length)), [])
      .check(z.describe(documentLanguagesDescription)),
    checks: z
      ._default(checksSchema, [])
      .check(
        z.describe(
          'Checks over the results\' values, such as `{"left": {"sum": "/line_items/*/amount"}, ' +
            '"op": "<=", "right": "/total", "tolerance": 0.01}`: two operands compared with `op`; ' +
            'an operand is a JSON pointer into the results, a number, `{value}` (a literal), ' +
            '`{sum}` (a pointer with `*` for every item of a list), or `{add}`, `{subtract}`, ' +
            '`{multiply}` over those. A pointer with `*` outside a sum checks item by item. ' +
            'Checked against jsonSchema on save (a 422 points at the check); evaluated when each ' +
            "document completes against that document's record, failures in its entry of the " +
            "run's resultMetadata.documents (`checks` and `review`). docs/api/results.md: Checks.",
        ),
      ),
  });
})();
export type ExtractorInput = z.infer<typeof extractorInputSchema>;

export const extractorSchema = z.object({
  id: z.string(),
  label: z.string(),
  jsonSchema: z.string(),
  strategy: z.string(),
  model: z.string(),
  outputInstructions: z
    .optional(z.string())
    .check(
      z.describe(
        'Instructions for the `llm` strategy. Left out for an embed session token: they are ' +
          "the partner's, not the person's.",
      ),
    ),
  ...(Object.fromEntries(labelNames.map((name) => [name, z.string()])) as Record<
    LabelName,
    z.ZodMiniString
  >),
  allowDownload: z.boolean(),
  enableWebhook: z.boolean(),
  webhookUrl: z
    .optional(z.string())
    .check(
      z.describe('Where the webhooks go. Left out for an embed session token, as is the secret.'),
    ),
  redirectUrl: z.string(),
  includeText: z.boolean(),
  includeEmbeddedImages: z.boolean(),
  markEmbeddedImages: z.boolean(),
  includePageImages: z.boolean(),
  markPageImages: z.boolean(),
  chunkSize: z.int().check(z.describe('Characters per chunk of text; chunks never split words.')),
  combineFiles: z.boolean().check(z.describe(combineFilesDescription)),
  allowResubmission: z.boolean().check(z.describe(allowResubmissionDescription)),
  documentLanguages: z
    .array(z.enum(documentLanguages))
    .check(z.describe(documentLanguagesDescription)),
  checks: z
    .array(savedCheckSchema)
    .check(
      z.describe(
        "Checks over the results' values (docs/api/results.md: Checks), evaluated when each " +
          "document completes: the failures are in that document's entry of " +
          'resultMetadata.documents.',
      ),
    ),
  runs: z
    .array(iri)
    .check(
      z.describe(
        'IRI references of the runs it made, oldest first. An embed session token sees only ' +
          'the runs over its bucket.',
      ),
    ),
  deletedAt: nullableDateTime,
  createdAt: nullableDateTime,
  updatedAt: nullableDateTime,
  lastRanAt: nullableDateTime.check(
    z.describe(
      'When a run with this extractor last started; null when it never ran. For ' +
        'an embed session token, the last of the runs over its bucket.',
    ),
  ),
  typedSchema: z
    .string()
    .check(z.describe('A TypeScript type generated from jsonSchema: the shape of the results.')),
  embeddedUrl: z
    .string()
    .check(
      z.describe(
        'Address of the hosted interface for an iframe (PUBLIC_BASE_URL/embed/{id}). It needs an ' +
          'embed session: the embeddedUrl of POST /api/embed_sessions already carries one.',
      ),
    ),
  fullPageUrl: z
    .string()
    .check(
      z.describe(
        'Address of the full-page hosted interface (PUBLIC_BASE_URL/x/{id}). It needs an embed ' +
          'session: the fullPageUrl of POST /api/embed_sessions already carries one.',
      ),
    ),
  /** Only in the answer to a create or a secret rotation: the webhook signing secret. */
  webhookSecret: z
    .optional(z.string())
    .check(
      z.describe(
        'The Standard Webhooks signing secret (`whsec_…`). Only in the answer to a create or to ' +
          'POST …/webhook_secret (rotation): keep it then, it is never shown again.',
      ),
    ),
});
export type Extractor = z.infer<typeof extractorSchema>;

// ---------------------------------------------------------------------------------------
// Extraction runs

/**
 * One document of a run as the run resource and every event show it: which file, how far,
 * how it ended. Its data travels in the results fields (`{"documents": [...]}`).
 */
/** What a document of a run is doing while it works (DocumentSummary.stage). */
export const documentStages = ['reading', 'extracting'] as const;
export type DocumentStage = (typeof documentStages)[number];

/**
 * Why a document failed, for a program and for the interface, which words it in the
 * person's language (`error` is the service's English sentence). A closed set, each code a
 * kind of failure a person would act on alike, whatever the format or the limit passed;
 * `extraction_failed` is every other failure, ours included.
 */
export const documentErrorCodes = [
  'damaged_file',
  'password_protected',
  'no_text',
  'unsupported_type',
  'too_large',
  'file_missing',
  'misconfigured',
  'model_unavailable',
  'model_refused',
  'extraction_failed',
] as const;
export type DocumentErrorCode = (typeof documentErrorCodes)[number];

export const documentSummarySchema = z.object({
  file: iri.check(
    z.describe('IRI of the file (/api/buckets/{b}/files/{f}); with combineFiles, the first file.'),
  ),
  files: z.optional(
    z
      .array(iri)
      .check(z.describe('With combineFiles only: the IRIs of every file read as this document.')),
  ),
  name: z.string().check(z.describe('The file name (with combineFiles, the names joined).')),
  status: z.enum(documentStatuses),
  error: z
    .nullable(z.string())
    .check(z.describe('Why the document failed, in plain words naming the file; null otherwise.')),
  // A code this version does not know (from a newer service) reads as null, so an interface
  // built before it shows the English `error` rather than refusing the whole run.
  errorCode: z
    .catch(z.nullable(z.enum(documentErrorCodes)), null)
    .check(
      z.describe(
        'Why the document failed, as a code to act on or to word in your own language; null ' +
          'unless it failed (and for a failure recorded before codes were). `damaged_file`: ' +
          'the file could not be read as what it says it is (a damaged PDF, image, Word or Excel ' +
          'file, or one that stopped the reader). `password_protected`: a PDF locked by a ' +
          'password. `no_text`: no text was found, not even by OCR. `unsupported_type`: a type ' +
          'of file the service does not read. `too_large`: past one of the limits of one ' +
          'document (pages, pixels, unpacked size, characters, memory or reading time). ' +
          '`file_missing`: the file was removed from the bucket or is gone from storage. ' +
          "`misconfigured`: the extractor's schema or options, or the service's model settings, " +
          'do not allow the extraction. `model_unavailable`: the LLM provider could not be ' +
          'reached or stayed busy; try again later. `model_refused`: the model declined to ' +
          'extract the document. `extraction_failed`: anything else, such as an error on our side.',
      ),
    ),
  stage: z
    .nullable(z.enum(documentStages))
    .check(z.describe('`reading` its files, then `extracting`; null once settled.')),
  pagesRead: z.int().check(z.describe('Pages read so far, told page by page (OCR).')),
  pagesTotal: z
    .nullable(z.int())
    .check(z.describe('Pages of its files; null until they are opened.')),
  chunksCompleted: z.int(),
  chunksTotal: z
    .nullable(z.int())
    .check(z.describe('How many chunks its text makes; null until it has been read.')),
});
export type DocumentSummary = z.infer<typeof documentSummarySchema>;

/** One entry of `{"documents": [...]}`: the results of one document. */
export const documentResultSchema = z.object({
  file: iri,
  files: z.optional(z.array(iri)),
  name: z.string(),
  status: z.enum(documentStatuses),
  data: z
    .nullable(z.unknown())
    .check(z.describe("The document's record, shaped by targetSchema; null unless it completed.")),
  error: z.nullable(z.string()),
});
export type DocumentResult = z.infer<typeof documentResultSchema>;

/** What resultJson, partialResultJson, data, partialData and GET …/results hold. */
export const runResultsSchema = z.object({
  documents: z.array(documentResultSchema),
});
export type RunResults = z.infer<typeof runResultsSchema>;

/**
 * The documents of a results text (resultJson, partialResultJson, data, partialData), or
 * none when there is no text or it does not read as results.
 */
export function documentsOfResults(text: string | null | undefined): DocumentResult[] {
  if (!text) return [];
  try {
    const parsed = JSON.parse(text) as { documents?: unknown };
    return Array.isArray(parsed.documents) ? (parsed.documents as DocumentResult[]) : [];
  } catch {
    return [];
  }
}

/** One edited record of `PUT …/results`: the document's `file` (IRI or id) and its data. */
export const documentEditSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    file: z.string().check(z.minLength(1)),
    data: z.unknown(),
  }))();

/** The body of `PUT …/results`: edited records, matched to documents by `file`. */
export const resultsEditSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    documents: z.array(documentEditSchema),
  }))();
export type ResultsEdit = z.infer<typeof resultsEditSchema>;

const resultsText = (what: string) =>
  `${what} as JSON text: {"documents": [{file, name, status, data, error}, ...]}, one entry per ` +
  'document in the order of the bucket.';

export const runSchema = z.object({
  id: z.string(),
  status: z.enum(runStatuses),
  resultJson: z
    .nullable(z.string())
    .check(
      z.describe(
        resultsText("The machine's results") +
          ' Set once a document has completed (the completed documents carry data); edits never change it.',
      ),
    ),
  partialResultJson: z
    .nullable(z.string())
    .check(
      z.describe(
        resultsText('The results so far') +
          ': a completed document its record, a document at work what its chunks found so far.',
      ),
    ),
  targetSchema: z
    .nullable(z.string())
    .check(z.describe("The extractor's jsonSchema, copied when the run was created.")),
  tokenStats: z
    .nullable(z.string())
    .check(
      z.describe(
        'JSON text: the input and output tokens of each chunk, and per document (`documents`).',
      ),
    ),
  error: z.nullable(z.string()),
  createdAt: nullableDateTime,
  updatedAt: nullableDateTime,
  strategy: z.string(),
  model: z.string(),
  includeText: z.boolean(),
  includeEmbeddedImages: z.boolean(),
  markEmbeddedImages: z.boolean(),
  includePageImages: z.boolean(),
  markPageImages: z.boolean(),
  startedAt: nullableDateTime,
  finishedAt: nullableDateTime,
  chunkSize: z.nullable(z.int()).check(z.describe('Characters per chunk of text.')),
  duration: z
    .nullable(z.string())
    .check(
      z.describe(
        'ISO 8601 duration from startedAt to finishedAt (`PT64.25S`); null until the end.',
      ),
    ),
  formattedDuration: z
    .nullable(z.string())
    .check(z.describe('The same duration for people (`1m 04s`); null until the run ends.')),
  totalInputTokens: z
    .nullable(z.string())
    .check(
      z.describe('Input tokens of all chunks so far, as decimal text; null until the run starts.'),
    ),
  data: z
    .nullable(z.string())
    .check(
      z.describe(
        'The results as JSON text (documents): editedResultJson when edited, else ' +
          'resultJson; each record valid against targetSchema (drafts: draftResultJson).',
      ),
    ),
  partialData: z
    .nullable(z.string())
    .check(
      z.describe(
        'The results so far as JSON text (documents): partialResultJson while working, data once settled.',
      ),
    ),
  evaluationType: z
    .nullable(z.string())
    .check(
      z.describe(
        'How the results were checked against targetSchema; null until there are results.',
      ),
    ),
  bucket: iri,
  savedExtractor: iri,
  // Ours, beyond the spec's fields:
  chunksCompleted: z
    .int()
    .check(z.describe('Chunks done so far. A paused run resumes with the next chunk.')),
  chunksTotal: z
    .nullable(z.int())
    .check(
      z.describe('How many chunks the text of the files makes; null until the run has read them.'),
    ),
  editedResultJson: z
    .nullable(z.string())
    .check(
      z.describe(
        resultsText('Results with the edits of a person (PUT …/results)') +
          ' Each record is valid against targetSchema: the last one the schema accepted, a ' +
          'draft it does not accept staying in draftResultJson. Null when nobody edited any.',
      ),
    ),
  draftResultJson: z
    .nullable(z.string())
    .check(
      z.describe(
        "A person's drafts that targetSchema does not accept yet (PUT …/documents/{fileId}/" +
          'results), as JSON text: {"documents": [{file, data}, ...]}, the shape PUT …/results ' +
          'takes, in the order of the bucket. Null when there is none. Submission refuses a ' +
          "run with a draft; a record the schema accepts replaces its document's draft.",
      ),
    ),
  resultMetadata: z
    .nullable(z.string())
    .check(
      z.describe(
        'JSON text of a ResultMetadata object: `documents`, per document (by `file`) where each ' +
          'value was found (file, page, offset), how the record breaks targetSchema, and what to review.',
      ),
    ),
  combineFiles: z.boolean().check(z.describe(combineFilesDescription)),
  documents: z
    .array(documentSummarySchema)
    .check(
      z.describe(
        'The documents of the run in the order of the bucket: one per file (one in all with ' +
          'combineFiles), each with its status, error and progress. Read-only.',
      ),
    ),
  submittedAt: nullableDateTime.check(
    z.describe('When the results were submitted (POST …/submit, once); null before.'),
  ),
});
export type Run = z.infer<typeof runSchema>;

/** The body of `POST /api/extraction_runs` (read by the service only: see extractorInputSchema). */
export const runInputSchema = /* @__PURE__ */ (() => {
  const optionalFlag = z.optional(z.boolean());
  return z.strictObject({
    bucket: z.string().check(z.minLength(1)),
    savedExtractor: z.string().check(z.minLength(1)),
    strategy: z.optional(z.enum(strategies)),
    model: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
    chunkSize: z.optional(z.int().check(z.minimum(minChunkSize), z.maximum(maxChunkSize))),
    includeText: optionalFlag,
    includeEmbeddedImages: optionalFlag,
    markEmbeddedImages: optionalFlag,
    includePageImages: optionalFlag,
    markPageImages: optionalFlag,
    combineFiles: optionalFlag,
  });
})();
export type RunInput = z.infer<typeof runInputSchema>;

// Where values were found (sources, boxes, checks) and a page's words: ./review.ts, which
// the interface loads with its results view only (its types are named here too: a type
// brings no code along).
export type { DocumentMetadata, PageWords, ResultMetadata, SourceBox } from './review.js';

/** The answer to `POST /api/extraction_runs/{id}/submit`. */
export const submissionSchema = z.object({
  id: z.string(),
  run: iri,
  submittedAt: dateTime,
  /** The extractor's redirectUrl, or null when it has none. */
  redirectUrl: z.nullable(z.string()),
});
export type Submission = z.infer<typeof submissionSchema>;

// ---------------------------------------------------------------------------------------
// Embed sessions

export { themeSchema, type Theme } from './theme.js';

export const maxSessionSeconds = 86_400;
export const defaultSessionSeconds = 3600;
/** How long a session may be renewed for by default, from when it is minted. */
export const defaultSessionLifetimeSeconds = 4 * 3600;

export const embedSessionInputSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    savedExtractor: z.string().check(z.minLength(1)),
    bucket: z.optional(z.string().check(z.minLength(1))),
    ttlSeconds: z._default(
      z.int().check(z.minimum(60), z.maximum(maxSessionSeconds)),
      defaultSessionSeconds,
    ),
    allowedOrigins: z._default(
      z.array(z.string().check(z.maxLength(300))).check(z.maxLength(20)),
      [],
    ),
    theme: z.optional(themeSchema),
    maxLifetimeSeconds: z.optional(
      z
        .int()
        .check(
          z.minimum(60),
          z.maximum(maxSessionSeconds),
          z.describe(
            'Ours, beyond the spec. How long, from now, the session may be kept going by ' +
              '`POST /api/embed_sessions/renew`: no renewed token expires later. At least ' +
              `ttlSeconds; default the larger of ttlSeconds and ${defaultSessionLifetimeSeconds}.`,
          ),
        ),
    ),
    colorScheme: z
      ._default(z.enum(colorSchemes), defaultColorScheme)
      .check(
        z.describe(
          'Ours, beyond the spec. The colour scheme the interface is drawn in: `light` (the ' +
            "default), `dark`, or `auto` (the person's system setting). The element's " +
            "`color-scheme` attribute and embed.js's `colorScheme` option, when set, come first.",
        ),
      ),
  }))();
export type EmbedSessionInput = z.infer<typeof embedSessionInputSchema>;

export const embedSessionSchema = /* @__PURE__ */ (() =>
  z.object({
    id: z.string(),
    token: z.string(),
    expiresAt: dateTime,
    bucket: iri,
    savedExtractor: iri,
    allowedOrigins: z.array(z.string()),
    theme: z.nullable(themeSchema),
    /** The session's locale as `Intl` writes it, or null when it names none. */
    locale: z.nullable(z.string()),
    strings: z.record(z.string(), z.string()),
    colorScheme: z.enum(colorSchemes),
    renewableUntil: dateTime.check(
      z.describe('No token of this session, renewed or not, expires after this moment.'),
    ),
    embeddedUrl: z.string(),
    fullPageUrl: z.string(),
  }))();
export type EmbedSession = z.infer<typeof embedSessionSchema>;

/** What a session token can tell about itself (`GET /api/embed_sessions/current`). */
export const currentSessionSchema = z.object({
  id: z.string(),
  expiresAt: dateTime,
  bucket: iri,
  savedExtractor: iri,
  allowedOrigins: z.array(z.string()),
  theme: z.nullable(themeSchema),
  locale: z.nullable(z.string()),
  strings: z.record(z.string(), z.string()),
  colorScheme: z.enum(colorSchemes),
  renewableUntil: dateTime,
});
export type CurrentSession = z.infer<typeof currentSessionSchema>;

// ---------------------------------------------------------------------------------------
// Problems (RFC 9457)

/**
 * A problem document. RFC 9457 lets a problem type define extension members and tells
 * clients to ignore those they do not know (section 3.2), so the object is open: `errors`,
 * `currentStatus` and `allowed` are ours, and a problem type may add more.
 */
export const problemSchema = z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.int(),
  detail: z.string(),
  instance: z.optional(z.string()),
  errors: z.optional(
    z.array(
      z.object({
        pointer: z.optional(z.string()),
        parameter: z.optional(z.string()),
        detail: z.string(),
      }),
    ),
  ),
  currentStatus: z.optional(z.string()),
  allowed: z.optional(z.array(z.string())),
});
export type Problem = z.infer<typeof problemSchema>;

/**
 * A problem as a JSON:API client is answered (JSON:API 1.1 §11): an error object for each
 * field error, or one for the whole problem. `code` is the problem type's slug and
 * `links.type` its explanation; the problem's other members are in `meta`.
 */
export const jsonApiErrorsSchema = /* @__PURE__ */ (() =>
  z.object({
    jsonapi: z.object({ version: z.literal('1.1') }),
    errors: z.array(
      z.object({
        status: z.string().check(z.describe('The HTTP status, as text.')),
        code: z.string().check(z.describe('The problem type: `validation-error`, `conflict`, …')),
        title: z.string(),
        detail: z.string(),
        source: z.optional(
          z.object({
            pointer: z.optional(
              z.string().check(z.describe('A JSON pointer into the request document.')),
            ),
            parameter: z.optional(z.string().check(z.describe('A query parameter.'))),
          }),
        ),
        links: z.object({ type: z.string() }),
        meta: z.record(z.string(), z.unknown()),
      }),
    ),
  }))();
