/**
 * The invoice fixtures (`e2e/fixtures/invoices`: real invoices from invoice2data with the
 * fields expected from them), any other directory of documents with their ground truth
 * beside them (a corpus given to the accuracy benchmark), and how a result is judged
 * against them. The engine's tests and the accuracy benchmark share this, so they judge
 * alike.
 *
 * Judging ("exact match after normalisation"):
 *  - invoice_number and currency: compared as text, ignoring case, surrounding and
 *    repeated whitespace, and a leading "#" ("# BLR_1" = "#BLR_1" = "blr_1");
 *  - date: the ISO 8601 date, exactly;
 *  - total (the fixtures' `amount`): the same number to the cent.
 * A field a document's truth does not give (or gives as null) is not judged for it. The
 * fixtures' PNGs are screenshots of two of the PDFs and are judged against the same JSON.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TargetSchema } from '../../../contract/json-schema.js';
import { sniffMediaType } from '../formats/recognise.js';
import { invoiceSchema } from '../../extractors/demo.js';
import { chunkPages } from '../chunks.js';
import { readDocuments } from '../documents.js';
import { createLocalStrategy } from '../local/local-strategy.js';
import { finaliseResult, mergeExtractions, type MergedExtraction } from '../merge.js';
import type { ContentOptions, PageText, SourceFile } from '../types.js';

export const invoiceFixtureDir = resolve(
  fileURLToPath(new URL('.', import.meta.url)),
  '../../../../e2e/fixtures/invoices',
);

export const judgedFields = ['invoice_number', 'date', 'total', 'currency'] as const;
export type JudgedField = (typeof judgedFields)[number];

export interface InvoiceFixture {
  file: SourceFile;
  /** The expected values of the judged fields; a field the document does not give is absent. */
  expected: Partial<Record<JudgedField, string | number>>;
  /**
   * What kind of document it is: the ground truth's `_kind` when it names one
   * (`digital-pdf`, `receipt-image`…), else the kind of reading its type takes
   * (`pdf`, `image`, `text`…).
   */
  kind: string;
}

/**
 * The documents of a directory that have their ground truth beside them (`NAME.ext` and
 * `NAME.json`), with their media type sniffed from their bytes as an upload's is. The
 * truth is either invoice2data's (a list of one object, the total as `amount`) or the
 * corpus convention (an object with `total`; `null` meaning "not judged"; keys starting
 * with `_` are metadata, `_kind` among them).
 */
export async function loadLabelledDocuments(
  dir: string,
  options: { images?: boolean } = {},
): Promise<InvoiceFixture[]> {
  const names = (await readdir(dir)).sort();
  const documents: InvoiceFixture[] = [];
  for (const name of names) {
    const truthName = name.replace(/\.[^.]+$/, '.json');
    if (name.endsWith('.json') || truthName === name || !names.includes(truthName)) continue;
    const path = join(dir, name);
    const mediaType = await sniffMediaType(path);
    if (!mediaType) continue;
    if (options.images === false && mediaType.startsWith('image/')) continue;
    const bytes = await readFile(path);
    const truth = JSON.parse(await readFile(join(dir, truthName), 'utf8')) as unknown;
    const expected = (Array.isArray(truth) ? truth[0] : truth) as Record<string, unknown>;
    const pick = (key: string) =>
      typeof expected?.[key] === 'string' || typeof expected?.[key] === 'number'
        ? (expected[key] as string | number)
        : undefined;
    const wanted: InvoiceFixture['expected'] = {};
    for (const field of judgedFields) {
      const value = pick(field) ?? (field === 'total' ? pick('amount') : undefined);
      if (value !== undefined) wanted[field] = value;
    }
    documents.push({
      file: {
        id: name,
        name,
        path,
        mediaType,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      },
      expected: wanted,
      kind: typeof expected?._kind === 'string' ? expected._kind : readingKind(mediaType),
    });
  }
  return documents;
}

function readingKind(mediaType: string): string {
  if (mediaType === 'application/pdf') return 'pdf';
  if (mediaType.startsWith('image/')) return 'image';
  if (mediaType.includes('officedocument')) return 'office';
  return 'text';
}

/** The invoice fixtures; `images: false` leaves out the screenshots, which take OCR. */
export function loadInvoiceFixtures(options: { images?: boolean } = {}): Promise<InvoiceFixture[]> {
  return loadLabelledDocuments(invoiceFixtureDir, options);
}

function normaliseText(value: unknown): string {
  return String(value).trim().replace(/^#\s*/, '').replace(/\s+/g, ' ').toUpperCase();
}

export function isMatch(field: JudgedField, actual: unknown, expected: string | number): boolean {
  if (actual === null || actual === undefined) return false;
  if (field === 'total')
    return typeof actual === 'number' && Math.abs(actual - Number(expected)) < 0.005;
  if (field === 'date') return String(actual).trim() === String(expected).trim();
  return normaliseText(actual) === normaliseText(expected);
}

export const textContent: ContentOptions = {
  includeText: true,
  includeEmbeddedImages: false,
  markEmbeddedImages: false,
  includePageImages: false,
  markPageImages: false,
};
export const demoSchema = invoiceSchema as unknown as TargetSchema;

/** The local strategy end to end, as a run does it: read, chunk, extract, merge, finalise. */
export async function extractWithLocalStrategy(
  file: SourceFile,
  cacheDir: string,
  chunkSize = 4000,
  schema: TargetSchema = demoSchema,
): Promise<{ pages: PageText[]; data: Record<string, unknown>; merged: MergedExtraction }> {
  const pages = await readDocuments([file], textContent, { cacheDir });
  const strategy = createLocalStrategy();
  let merged: MergedExtraction = { data: {}, sources: {} };
  const signal = new AbortController().signal;
  for (const chunk of chunkPages(pages, chunkSize)) {
    const extraction = await strategy.extractChunk(chunk, {
      schema,
      outputInstructions: '',
      model: 'local',
      merged: merged.data,
      signal,
    });
    merged = mergeExtractions(schema, merged, extraction);
  }
  return { pages, data: finaliseResult(schema, merged.data), merged };
}
