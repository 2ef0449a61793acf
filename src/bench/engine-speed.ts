/**
 * How long the local strategy takes per page, end to end (read the file, chunk, extract,
 * merge, finalise), beside reading the text alone, over the invoice fixtures: the ratio
 * says what the rules add to the reading. Documents are grouped by how their text is
 * read (PDF text layer, OCR of an image, plain text), since OCR dwarfs everything else.
 * Each measurement reads with an empty cache, as a first run does; a warm-up pass first
 * loads pdf.js, compiles the rules and starts the OCR worker, and is reported apart.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readDocuments, terminateOcr } from '../server/engine/index.js';
import { setOcrIdleTime } from '../server/engine/ocr.js';
import {
  extractWithLocalStrategy,
  loadInvoiceFixtures,
  textContent,
  type InvoiceFixture,
} from '../server/engine/testing/invoice-fixtures.js';
import type { BenchResult } from './main.js';

/** Repeats for the fast kinds; OCR takes seconds per image, and twice is enough. */
const repeats = { pdf: 5, txt: 5, png: 2 } as const;
type Kind = keyof typeof repeats;

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

export async function bench(): Promise<BenchResult> {
  const root = await mkdtemp(join(tmpdir(), 'bench-engine-'));
  let cacheCount = 0;
  const freshCache = () => join(root, `cache-${cacheCount++}`);
  // The OCR worker stays up between measurements: its start belongs to the warm-up.
  const idleTime = setOcrIdleTime(10 * 60_000);
  try {
    const fixtures = await loadInvoiceFixtures();
    const kindOf = (fixture: InvoiceFixture) => fixture.file.name.split('.').pop() as Kind;

    // Every document once (and one image), so that pdf.js, the compiled rules and the
    // OCR worker are warm and the rounds below measure steady work.
    const warmUp = await timed(async () => {
      const image = fixtures.find((fixture) => kindOf(fixture) === 'png');
      for (const fixture of fixtures) {
        if (kindOf(fixture) !== 'png' || fixture === image) {
          await extractWithLocalStrategy(fixture.file, freshCache());
        }
      }
    });

    const totals = new Map<Kind, { pages: number; readMs: number; endToEndMs: number }>();
    for (const fixture of fixtures) {
      const kind = kindOf(fixture);
      const sums = totals.get(kind) ?? { pages: 0, readMs: 0, endToEndMs: 0 };
      for (let round = 0; round < repeats[kind]; round++) {
        const read = await timed(() =>
          readDocuments([fixture.file], textContent, { cacheDir: freshCache() }),
        );
        const whole = await timed(() => extractWithLocalStrategy(fixture.file, freshCache()));
        sums.pages += read.value.length;
        sums.readMs += read.ms;
        sums.endToEndMs += whole.ms;
      }
      totals.set(kind, sums);
    }

    const names: Record<Kind, string> = {
      pdf: 'PDF text layer',
      png: 'image, OCR',
      txt: 'plain text',
    };
    const lines = [
      `warm-up, every document once (pdf.js, rules, OCR worker start): ${warmUp.ms.toFixed(0)} ms`,
      `${'documents'.padEnd(16)} ${'pages'.padStart(5)} ${'text only/page'.padStart(15)} ${'end to end/page'.padStart(16)} ${'ratio'.padStart(6)}`,
    ];
    let all = { pages: 0, readMs: 0, endToEndMs: 0 };
    for (const kind of ['pdf', 'png', 'txt'] as const) {
      const sums = totals.get(kind);
      if (!sums) continue;
      all = {
        pages: all.pages + sums.pages,
        readMs: all.readMs + sums.readMs,
        endToEndMs: all.endToEndMs + sums.endToEndMs,
      };
      lines.push(row(names[kind], sums));
    }
    lines.push(row('all', all));
    return { name: 'Engine speed: local strategy end to end beside text extraction alone', lines };
  } finally {
    setOcrIdleTime(idleTime);
    await terminateOcr();
    await rm(root, { recursive: true, force: true });
  }
}

function row(label: string, sums: { pages: number; readMs: number; endToEndMs: number }): string {
  const perPage = (ms: number) => `${(ms / sums.pages).toFixed(1)} ms`;
  return `${label.padEnd(16)} ${String(sums.pages).padStart(5)} ${perPage(sums.readMs).padStart(15)} ${perPage(sums.endToEndMs).padStart(16)} ${(sums.endToEndMs / sums.readMs).toFixed(2).padStart(6)}`;
}
