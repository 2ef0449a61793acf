/**
 * The local strategy's accuracy on the invoice fixtures (`e2e/fixtures/invoices`): for
 * invoice_number, date, total (the fixtures' `amount`) and currency, the share of values
 * that match the expected ones exactly after normalisation (see
 * `src/server/engine/testing/invoice-fixtures.ts` for how values are normalised), per
 * field and overall. The PNG screenshots go through OCR like any uploaded image.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { terminateOcr } from '../server/engine/index.js';
import {
  extractWithLocalStrategy,
  isMatch,
  judgedFields,
  loadInvoiceFixtures,
  type JudgedField,
} from '../server/engine/testing/invoice-fixtures.js';
import type { BenchResult } from './main.js';

const goal = 0.9;

export async function bench(): Promise<BenchResult> {
  const cacheDir = await mkdtemp(join(tmpdir(), 'bench-accuracy-'));
  try {
    const fixtures = await loadInvoiceFixtures();
    const tally = Object.fromEntries(
      judgedFields.map((field) => [field, { right: 0, judged: 0 }]),
    ) as Record<JudgedField, { right: number; judged: number }>;
    const misses: string[] = [];
    for (const fixture of fixtures) {
      const { data } = await extractWithLocalStrategy(fixture.file, cacheDir);
      for (const field of judgedFields) {
        const expected = fixture.expected[field];
        if (expected === undefined) continue;
        tally[field].judged++;
        if (isMatch(field, data[field], expected)) tally[field].right++;
        else
          misses.push(
            `${fixture.file.name} ${field}: got ${JSON.stringify(data[field])}, expected ${JSON.stringify(expected)}`,
          );
      }
    }
    const percent = (right: number, judged: number) =>
      `${((100 * right) / Math.max(1, judged)).toFixed(1)}%`;
    const right = judgedFields.reduce((sum, field) => sum + tally[field].right, 0);
    const judged = judgedFields.reduce((sum, field) => sum + tally[field].judged, 0);
    const kinds = ['pdf', 'png', 'txt']
      .map(
        (ext) =>
          `${fixtures.filter((fixture) => fixture.file.name.endsWith(`.${ext}`)).length} ${ext.toUpperCase()}`,
      )
      .join(', ');
    return {
      name: 'Local strategy accuracy on the invoice fixtures (exact match after normalisation)',
      lines: [
        `${fixtures.length} documents (${kinds}; the PNGs through OCR), demo invoice schema`,
        ...judgedFields.map(
          (field) =>
            `${field.padEnd(15)} ${`${tally[field].right}/${tally[field].judged}`.padStart(6)}  ${percent(tally[field].right, tally[field].judged).padStart(6)}`,
        ),
        `${'overall'.padEnd(15)} ${`${right}/${judged}`.padStart(6)}  ${percent(right, judged).padStart(6)}  (goal ≥ ${goal * 100}%: ${right / judged >= goal ? 'met' : 'NOT met'})`,
        ...misses.map((miss) => `miss: ${miss}`),
      ],
    };
  } finally {
    await terminateOcr();
    await rm(cacheDir, { recursive: true, force: true });
  }
}
