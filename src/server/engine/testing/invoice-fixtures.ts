/**
 * The invoice fixtures (`e2e/fixtures/invoices`: real invoices from invoice2data with the
 * fields expected from them) and how a result is judged against them. The engine's tests
 * and the accuracy benchmark share this, so they judge alike.
 *
 * Judging ("exact match after normalisation"):
 *  - invoice_number and currency: compared as text, ignoring case, surrounding and
 *    repeated whitespace, and a leading "#" ("# BLR_1" = "#BLR_1" = "blr_1");
 *  - date: the ISO 8601 date, exactly;
 *  - total (the fixtures' `amount`): the same number to the cent.
 * A field a fixture does not give is not judged for it. The PNGs are screenshots of two of
 * the PDFs and are judged against the same JSON.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TargetSchema } from '../../../contract/json-schema.js';
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
  /** The expected values of the judged fields; a field the fixture does not give is absent. */
  expected: Partial<Record<JudgedField, string | number>>;
}

const mediaTypes: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  txt: 'text/plain',
};

export async function loadInvoiceFixtures(
  options: { images?: boolean } = {},
): Promise<InvoiceFixture[]> {
  const names = (await readdir(invoiceFixtureDir))
    .filter(
      (name) => /\.(pdf|txt)$/.test(name) || (options.images !== false && name.endsWith('.png')),
    )
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const path = join(invoiceFixtureDir, name);
      const bytes = await readFile(path);
      const [expected] = JSON.parse(
        await readFile(path.replace(/\.\w+$/, '.json'), 'utf8'),
      ) as Record<string, unknown>[];
      const pick = (key: string) =>
        typeof expected?.[key] === 'string' || typeof expected?.[key] === 'number'
          ? (expected[key] as string | number)
          : undefined;
      const wanted: InvoiceFixture['expected'] = {};
      for (const [field, key] of [
        ['invoice_number', 'invoice_number'],
        ['date', 'date'],
        ['total', 'amount'],
        ['currency', 'currency'],
      ] as const) {
        const value = pick(key);
        if (value !== undefined) wanted[field] = value;
      }
      const file: SourceFile = {
        id: name,
        name,
        path,
        mediaType: mediaTypes[name.split('.').pop()!]!,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      };
      return { file, expected: wanted };
    }),
  );
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
): Promise<{ pages: PageText[]; data: Record<string, unknown>; merged: MergedExtraction }> {
  const pages = await readDocuments([file], textContent, { cacheDir });
  const strategy = createLocalStrategy();
  let merged: MergedExtraction = { data: {}, sources: {} };
  const signal = new AbortController().signal;
  for (const chunk of chunkPages(pages, chunkSize)) {
    const extraction = await strategy.extractChunk(chunk, {
      schema: demoSchema,
      outputInstructions: '',
      model: 'local',
      merged: merged.data,
      signal,
    });
    merged = mergeExtractions(demoSchema, merged, extraction);
  }
  return { pages, data: finaliseResult(demoSchema, merged.data), merged };
}
