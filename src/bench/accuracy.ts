/**
 * The local strategy's accuracy: for invoice_number, date, total and currency, the share
 * of values that match the expected ones exactly after normalisation (see
 * `src/server/engine/testing/invoice-fixtures.ts` for how values are normalised and how
 * documents and their truth are found), per field, per kind of document and overall, with
 * every miss. Images go through OCR like any uploaded image.
 *
 * `npm run bench -- accuracy` measures the invoice fixtures (`e2e/fixtures/invoices`) and
 * lists each fixture's score, so that a change that costs one of them shows.
 * `npm run bench -- accuracy --corpus DIR` measures a directory of documents with their
 * truth beside them (`NAME.ext` + `NAME.json`) instead: a corpus nobody tuned the rules to.
 * `--cache DIR` keeps what was read (OCR above all) between runs, for tuning the rules.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { terminateOcr } from '../server/engine/index.js';
import {
  extractWithLocalStrategy,
  invoiceFixtureDir,
  isMatch,
  judgedFields,
  loadLabelledDocuments,
} from '../server/engine/testing/invoice-fixtures.js';
import type { BenchOptions, BenchResult } from './main.js';

/** The goals of issue 12: overall, and on receipts, the hardest kind. */
const goals = { overall: 0.9, receipts: 0.85 };

interface Tally {
  right: number;
  judged: number;
}

export async function bench(options: BenchOptions = {}): Promise<BenchResult> {
  const dir = options.corpus ? resolve(options.corpus) : invoiceFixtureDir;
  const cacheDir = options.cache ?? (await mkdtemp(join(tmpdir(), 'bench-accuracy-')));
  try {
    const documents = await loadLabelledDocuments(dir);
    if (documents.length === 0)
      throw new Error(`${dir} holds no document with a NAME.json beside it`);
    const byField = new Map<string, Tally>(judgedFields.map((field) => [field, tally()]));
    const byKind = new Map<string, Tally & { documents: number; whole: number }>();
    const overall = tally();
    const perDocument: string[] = [];
    const misses: string[] = [];
    for (const document of documents) {
      const { data } = await extractWithLocalStrategy(document.file, cacheDir);
      const kind = byKind.get(document.kind) ?? { ...tally(), documents: 0, whole: 0 };
      byKind.set(document.kind, kind);
      const own = tally();
      for (const field of judgedFields) {
        const expected = document.expected[field];
        if (expected === undefined) continue;
        const right = isMatch(field, data[field], expected);
        for (const sum of [byField.get(field)!, kind, overall, own]) {
          sum.judged++;
          if (right) sum.right++;
        }
        if (!right)
          misses.push(
            `${document.file.name} ${field}: got ${JSON.stringify(data[field])}, expected ${JSON.stringify(expected)}`,
          );
      }
      kind.documents++;
      if (own.right === own.judged) kind.whole++;
      perDocument.push(`${document.file.name.padEnd(32)} ${fraction(own).padStart(6)}`);
    }

    const kinds = [...byKind].sort(([a], [b]) => a.localeCompare(b));
    const whole = kinds.reduce((sum, [, kind]) => sum + kind.whole, 0);
    const receipts = kinds.filter(([name]) => /receipt/i.test(name));
    const receiptTally = receipts.reduce(
      (sum, [, kind]) => ({ right: sum.right + kind.right, judged: sum.judged + kind.judged }),
      tally(),
    );
    return {
      name: `Local strategy accuracy on ${options.corpus ? dir : 'the invoice fixtures'} (exact match after normalisation)`,
      lines: [
        `${documents.length} documents (${kinds.map(([name, kind]) => `${kind.documents} ${name}`).join(', ')}; images through OCR), demo invoice schema`,
        'by field',
        ...[...byField].map(([field, sum]) => row(field, sum)),
        'by kind of document (values; documents with every value right)',
        ...kinds.map(
          ([name, kind]) => `${row(name, kind)}  ${`${kind.whole}/${kind.documents}`.padStart(7)}`,
        ),
        `${row('overall', overall)}  ${`${whole}/${documents.length}`.padStart(7)}  (goal ≥ ${goals.overall * 100}%: ${met(overall, goals.overall)})`,
        ...(receipts.length > 0
          ? [
              `${row('receipts', receiptTally)}           (goal ≥ ${goals.receipts * 100}%: ${met(receiptTally, goals.receipts)})`,
            ]
          : []),
        ...(options.corpus ? [] : ['per document', ...perDocument]),
        ...misses.map((miss) => `miss: ${miss}`),
      ],
    };
  } finally {
    await terminateOcr();
    if (!options.cache) await rm(cacheDir, { recursive: true, force: true });
  }
}

function tally(): Tally {
  return { right: 0, judged: 0 };
}

function fraction(sum: Tally): string {
  return `${sum.right}/${sum.judged}`;
}

function percent(sum: Tally): string {
  return `${((100 * sum.right) / Math.max(1, sum.judged)).toFixed(1)}%`;
}

function row(label: string, sum: Tally): string {
  return `${label.padEnd(15)} ${fraction(sum).padStart(7)}  ${percent(sum).padStart(6)}`;
}

function met(sum: Tally, goal: number): string {
  return sum.right / Math.max(1, sum.judged) >= goal ? 'met' : 'NOT met';
}
