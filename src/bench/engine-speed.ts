/**
 * How long the local strategy takes per page, end to end (read the file, chunk, extract,
 * merge, finalise), beside reading the text alone, over the invoice fixtures: the ratio
 * says what the rules add to the reading. Documents are grouped by how their text is
 * read (PDF text layer, OCR of an image, plain text), since OCR dwarfs everything else.
 * Each measurement reads with an empty cache, as a first run does; a warm-up pass first
 * loads pdf.js, compiles the rules and starts the OCR worker, and is reported apart.
 *
 * `npm run bench -- engine-speed --corpus DIR [--repeats N]` measures a corpus instead
 * (`NAME.ext` + `NAME.json`, grouped by the truth's `_kind`): per kind, the median time per
 * document end to end, on the clock and in CPU time (the process's, OCR's worker thread
 * and sharp's threads included), which a loaded machine stretches far less than the clock.
 * The invoice fixtures are measured in the same rounds as the baseline, so that a figure
 * taken on a busy machine can be set beside one taken on an idle one.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { readDocuments, terminateOcr } from '../server/engine/index.js';
import { ocr, setOcrIdleTime } from '../server/engine/ocr/ocr.js';
import { renderTextImage } from '../server/engine/testing/build-documents.js';
import {
  extractWithLocalStrategy,
  loadInvoiceFixtures,
  loadLabelledDocuments,
  textContent,
  type InvoiceFixture,
} from '../server/engine/testing/invoice-fixtures.js';
import type { BenchOptions, BenchResult } from './main.js';

/** Repeats for the fast kinds; OCR takes seconds per image, and twice is enough. */
const repeats = { pdf: 5, txt: 5, png: 2 } as const;
type Kind = keyof typeof repeats;

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

export async function bench(options: BenchOptions = {}): Promise<BenchResult> {
  if (options.corpus) return corpusSpeed(resolve(options.corpus), Number(options.repeats ?? 2));
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
    lines.push(...(await pagesByLanguage()));
    return { name: 'Engine speed: local strategy end to end beside text extraction alone', lines };
  } finally {
    setOcrIdleTime(idleTime);
    await terminateOcr();
    await rm(root, { recursive: true, force: true });
  }
}

/**
 * One page of the same layout in English and in German, read by OCR twice each: what a
 * page in another language costs beside an English one (its language found, and read
 * with its own model).
 */
async function pagesByLanguage(): Promise<string[]> {
  const pages = {
    english: [
      'Invoice number: INV-2024-77',
      'Invoice date: 12 March 2024',
      'Amount due: 1,250.00 EUR',
      'Payment within fourteen days of the invoice date.',
      'Thank you for your order and your business.',
      'Please quote the invoice number with your payment.',
      'Delivery address: 12 High Street, Springfield',
      'Questions about this invoice? Write to accounts.',
    ],
    german: [
      'Rechnungsnummer: RE-2024-0815',
      'Rechnungsdatum: 12. März 2024',
      'Gesamtbetrag: 1.250,00 EUR',
      'Zahlbar innerhalb von vierzehn Tagen ohne Abzug.',
      'Vielen Dank für Ihren Auftrag und Ihre Bestellung.',
      'Bitte geben Sie die Rechnungsnummer bei Zahlung an.',
      'Lieferanschrift: Hauptstraße 12, Musterstadt',
      'Fragen zu dieser Rechnung? Schreiben Sie uns.',
    ],
  };
  const perPage: Record<string, number> = {};
  for (const [name, text] of Object.entries(pages)) {
    const image = await renderTextImage(text, { width: 1600, height: 2000, fontSize: 36 });
    // Once to load the models the page needs, then measured.
    await ocr.recognize(image);
    let ms = 0;
    for (let round = 0; round < 2; round++) ms += (await timed(() => ocr.recognize(image))).ms;
    perPage[name] = ms / 2;
  }
  return [
    `OCR of one page by language: English ${perPage.english!.toFixed(0)} ms, German ${perPage.german!.toFixed(0)} ms, ratio ${(perPage.german! / perPage.english!).toFixed(2)}`,
  ];
}

function row(label: string, sums: { pages: number; readMs: number; endToEndMs: number }): string {
  const perPage = (ms: number) => `${(ms / sums.pages).toFixed(1)} ms`;
  return `${label.padEnd(16)} ${String(sums.pages).padStart(5)} ${perPage(sums.readMs).padStart(15)} ${perPage(sums.endToEndMs).padStart(16)} ${(sums.endToEndMs / sums.readMs).toFixed(2).padStart(6)}`;
}

// ---------------------------------------------------------------------------------------
// A corpus, beside the fixtures measured in the same rounds

interface Sample {
  wallMs: number;
  cpuMs: number;
  pages: number;
}

async function measured(file: InvoiceFixture['file'], cacheDir: string): Promise<Sample> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const { pages } = await extractWithLocalStrategy(file, cacheDir);
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { wallMs, cpuMs: (used.user + used.system) / 1000, pages: pages.length };
}

async function corpusSpeed(dir: string, repeats: number): Promise<BenchResult> {
  const root = await mkdtemp(join(tmpdir(), 'bench-engine-'));
  let cacheCount = 0;
  const freshCache = () => join(root, `cache-${cacheCount++}`);
  const idleTime = setOcrIdleTime(10 * 60_000);
  const loadBefore = loadavg()[0]!;
  try {
    const corpus = await loadLabelledDocuments(dir);
    if (corpus.length === 0) throw new Error(`${dir} holds no document with a NAME.json beside it`);
    const fixtures = await loadInvoiceFixtures();
    const fixtureKind = (fixture: InvoiceFixture) =>
      `fixture ${fixture.file.mediaType.startsWith('image/') ? 'image' : fixture.file.name.split('.').pop()}`;
    // pdf.js, the compiled rules and the OCR worker warm, as in a running service.
    for (const fixture of fixtures.filter((f) => /\.(pdf|png)$/.test(f.file.name)).slice(0, 2))
      await extractWithLocalStrategy(fixture.file, freshCache());
    await extractWithLocalStrategy(
      fixtures.find((fixture) => fixture.file.name.endsWith('.png'))!.file,
      freshCache(),
    );

    const samples = new Map<string, Sample[]>();
    const add = (kind: string, sample: Sample) =>
      samples.set(kind, [...(samples.get(kind) ?? []), sample]);
    for (let round = 0; round < repeats; round++) {
      // The baseline before and after the corpus in each round: the load may change.
      for (const part of ['fixtures', 'corpus', 'fixtures'] as const) {
        if (part === 'fixtures') {
          for (const fixture of fixtures)
            add(fixtureKind(fixture), await measured(fixture.file, freshCache()));
        } else {
          for (const document of corpus)
            add(document.kind, await measured(document.file, freshCache()));
        }
      }
    }

    const lines = [
      `${corpus.length} documents, ${repeats} rounds, fixtures measured before and after the corpus in each; load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after (2 cores)`,
      `${'kind'.padEnd(16)} ${'docs'.padStart(5)} ${'median/doc'.padStart(11)} ${'median CPU/doc'.padStart(15)} ${'mean/page'.padStart(10)}`,
    ];
    for (const [kind, list] of [...samples].sort(([a], [b]) => a.localeCompare(b))) {
      const documents = list.length / (kind.startsWith('fixture') ? 2 * repeats : repeats);
      const pages = list.reduce((sum, sample) => sum + sample.pages, 0);
      const wall = list.reduce((sum, sample) => sum + sample.wallMs, 0);
      lines.push(
        `${kind.padEnd(16)} ${String(documents).padStart(5)} ${ms(median(list.map((sample) => sample.wallMs))).padStart(11)} ${ms(median(list.map((sample) => sample.cpuMs))).padStart(15)} ${ms(wall / pages).padStart(10)}`,
      );
    }
    return {
      name: `Engine speed on ${dir}: local strategy end to end per document, beside the fixtures`,
      lines,
    };
  } finally {
    setOcrIdleTime(idleTime);
    await terminateOcr();
    await rm(root, { recursive: true, force: true });
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function ms(value: number): string {
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(1)} ms`;
}
