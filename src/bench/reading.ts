/**
 * What the engine reads of a corpus, before any rule: for every truth value, is it present
 * in what the readers give (`reachable.ts` judges, over notations of dates and numbers)?
 * A value no reader reaches is one no strategy can find, so this bounds every accuracy.
 * Printed per kind, per format (the file's extension), per reader (the text layer, OCR,
 * form fields, the embedded e-invoice…: which readers hold the value, and which alone) and
 * overall, with the values not reached.
 *
 * `npm run bench -- reading --corpus DIR`. DIR is either one folder per kind with its
 * `schema.json` and `NAME.ext` + `NAME.json` truth (corpus-forms), or a flat folder of
 * `NAME.ext` + `NAME.json` whose kind is the truth's `_kind` (the invoice corpus). Keys
 * starting with `_` are metadata; `_accept` lists other forms that count; null is not judged.
 * `--cache DIR` keeps what was read (OCR above all) between runs.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { sniffMediaType } from '../server/engine/formats/recognise.js';
import { readDocuments, terminateOcr } from '../server/engine/index.js';
import { textContent } from '../server/engine/testing/invoice-fixtures.js';
import type { PageText, SourceFile } from '../server/engine/types.js';
import { isReachable, type TruthValue } from './reachable.js';
import type { BenchOptions, BenchResult } from './main.js';

interface TruthDocument {
  file: SourceFile;
  kind: string;
  format: string;
  truth: { field: string; value: TruthValue; isDate: boolean; accept: TruthValue[] }[];
}

interface Tally {
  reached: number;
  judged: number;
}

/** The goal of issue 24 with all its readers. */
const goal = 0.95;

export async function bench(options: BenchOptions = {}): Promise<BenchResult> {
  if (!options.corpus) throw new Error('The reading benchmark needs --corpus DIR');
  const dir = resolve(options.corpus);
  const cacheDir = options.cache ?? (await mkdtemp(join(tmpdir(), 'bench-reading-')));
  try {
    const documents = await loadCorpus(dir);
    if (documents.length === 0) throw new Error(`${dir} holds no document with its truth`);
    const overall = tally();
    const byKind = new Map<string, Tally>();
    const byFormat = new Map<string, Tally>();
    const byReader = new Map<string, { holds: number; alone: number }>();
    const misses: string[] = [];
    for (const document of documents) {
      const texts = await readerTexts(document.file, cacheDir);
      const whole = [...texts.values()].join('\n');
      for (const truth of document.truth) {
        const reachedBy = [...texts]
          .filter(([, text]) => isReachable(text, truth.value, truth))
          .map(([reader]) => reader);
        const reached = reachedBy.length > 0 || isReachable(whole, truth.value, truth);
        for (const sum of [
          overall,
          entry(byKind, document.kind),
          entry(byFormat, document.format),
        ]) {
          sum.judged++;
          if (reached) sum.reached++;
        }
        for (const reader of reachedBy) {
          const counts = byReader.get(reader) ?? { holds: 0, alone: 0 };
          byReader.set(reader, counts);
          counts.holds++;
          if (reachedBy.length === 1) counts.alone++;
        }
        if (!reached)
          misses.push(
            `${document.kind}/${document.file.name} ${truth.field}: ${JSON.stringify(truth.value)}${texts.has('failed') ? ` (${texts.get('failed')})` : ''}`,
          );
      }
    }
    const rows = (map: Map<string, Tally>) =>
      [...map]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, sum]) => `  ${name.padEnd(20)} ${fraction(sum)}`);
    return {
      name: `Truth values reachable in what the engine reads, ${dir}`,
      lines: [
        `${documents.length} documents, ${overall.judged} truth values`,
        `overall ${fraction(overall)} (goal of issue 24 with all its readers: ${goal * 100}%)`,
        'per kind:',
        ...rows(byKind),
        'per format:',
        ...rows(byFormat),
        'per reader (values it holds; values only it holds):',
        ...[...byReader]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(
            ([reader, counts]) => `  ${reader.padEnd(20)} ${counts.holds} (${counts.alone} alone)`,
          ),
        `not reached (${misses.length}):`,
        ...misses.map((miss) => `  ${miss}`),
      ],
    };
  } finally {
    await terminateOcr();
    if (!options.cache) await rm(cacheDir, { recursive: true, force: true });
  }
}

/**
 * What each reader gave of a document: a page's text goes to its own reader, but for the
 * stretches another reader placed in it (a form field's value); embedded values are one line each.
 */
async function readerTexts(file: SourceFile, cacheDir: string): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  const add = (reader: string, text: string) =>
    texts.set(reader, texts.has(reader) ? `${texts.get(reader)}\n${text}` : text);
  let pages: PageText[];
  try {
    pages = await readDocuments([file], textContent, { cacheDir });
  } catch (error) {
    texts.set('failed', (error as Error).message);
    return texts;
  }
  for (const page of pages) {
    const own = page.readers?.[0] ?? (file.mediaType.startsWith('image/') ? 'ocr' : 'text');
    let ownText = page.text;
    for (const box of page.boxes ?? []) {
      if (!box.reader || box.reader === own) continue;
      add(box.reader, page.text.slice(box.start, box.end));
      ownText = `${ownText.slice(0, box.start)}${' '.repeat(box.end - box.start)}${ownText.slice(box.end)}`;
    }
    add(own, ownText);
    for (const value of page.embedded ?? []) add('e-invoice', value.value);
  }
  return texts;
}

async function loadCorpus(dir: string): Promise<TruthDocument[]> {
  const names = (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
    a.name.localeCompare(b.name),
  );
  const kinds = names.filter(
    (entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'schema.json')),
  );
  if (kinds.length === 0) return loadFolder(dir, undefined);
  const documents: TruthDocument[] = [];
  for (const kind of kinds) documents.push(...(await loadFolder(join(dir, kind.name), kind.name)));
  return documents;
}

async function loadFolder(dir: string, kind: string | undefined): Promise<TruthDocument[]> {
  const names = (await readdir(dir)).sort();
  const schemaPath = join(dir, 'schema.json');
  const schema = existsSync(schemaPath)
    ? (JSON.parse(await readFile(schemaPath, 'utf8')) as {
        properties?: Record<string, { format?: string }>;
      })
    : {};
  const documents: TruthDocument[] = [];
  for (const name of names) {
    const truthName = name.replace(/\.[^.]+$/, '.json');
    if (name.endsWith('.json') || truthName === name || !names.includes(truthName)) continue;
    const path = join(dir, name);
    const mediaType = await sniffMediaType(path);
    if (!mediaType) continue;
    const bytes = await readFile(path);
    const record = JSON.parse(await readFile(join(dir, truthName), 'utf8')) as Record<
      string,
      unknown
    >;
    const accept = (record._accept ?? {}) as Record<string, TruthValue[]>;
    const truth: TruthDocument['truth'] = [];
    for (const [field, value] of Object.entries(record)) {
      if (field.startsWith('_') || value === null || typeof value === 'object') continue;
      truth.push({
        field,
        value: value as TruthValue,
        isDate: schema.properties?.[field]?.format === 'date',
        accept: accept[field] ?? [],
      });
    }
    documents.push({
      file: {
        id: name,
        name,
        path,
        mediaType,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      },
      kind: kind ?? (typeof record._kind === 'string' ? record._kind : 'documents'),
      format: extname(name).slice(1).toLowerCase().replace('jpeg', 'jpg'),
      truth,
    });
  }
  return documents;
}

function tally(): Tally {
  return { reached: 0, judged: 0 };
}

function entry(map: Map<string, Tally>, key: string): Tally {
  const found = map.get(key) ?? tally();
  map.set(key, found);
  return found;
}

function fraction({ reached, judged }: Tally): string {
  const share = judged === 0 ? 0 : (reached / judged) * 100;
  return `${reached}/${judged} (${share.toFixed(1)}%)`;
}
