/**
 * A chunk's text prepared for reading by rules: its lines and cells, every label of every
 * concept found once (overlaps settled in favour of the longer label), and the typed
 * values the parsers see in it. Positions are offsets in the chunk's text throughout.
 */
import { markerPattern } from '../markers.js';
import { readCodeParts, type CodePart } from './code-blocks.js';
import { concepts, type Concept } from './lexicon.js';
import {
  dateOrderOf,
  decimalMarkOf,
  findAmounts,
  findCurrencies,
  findDates,
  type DateOrder,
  type DecimalMark,
  type FoundAmount,
  type FoundCurrency,
  type Found,
} from './parsers.js';

export interface Line {
  index: number;
  start: number;
  end: number;
  text: string;
  /** Runs of text separated by a tab or two or more spaces: the columns of a laid-out page. */
  cells: Cell[];
  tabbed: boolean;
}

export interface Cell {
  /** Offsets in the chunk. */
  start: number;
  end: number;
  /** Columns within the line (offset from the line's start). */
  column: number;
  text: string;
  /** Position among the line's cells (what a tab-separated row aligns by). */
  position: number;
}

export interface LabelMatch {
  concept: Concept;
  label: string;
  weight: number;
  bare: boolean;
  start: number;
  end: number;
  line: Line;
}

export interface Reading {
  text: string;
  lines: Line[];
  labels: LabelMatch[];
  dates: Found<string>[];
  amounts: FoundAmount[];
  currencies: FoundCurrency[];
  dateOrder: DateOrder;
  decimalMark: DecimalMark | undefined;
  lineAt(offset: number): Line;
  /** The `Label: value` parts of the blocks of barcodes and machine-readable zones. */
  codeParts: CodePart[];
}

export function readChunkText(raw: string): Reading {
  // Picture markers are for models; blanking them (same length) keeps every offset true.
  const text = raw.replace(markerPattern, (marker) => ' '.repeat(marker.length));
  const lines: Line[] = [];
  let start = 0;
  for (const [index, lineText] of text.split('\n').entries()) {
    lines.push({
      index,
      start,
      end: start + lineText.length,
      text: lineText,
      cells: cellsOf(lineText, start),
      tabbed: lineText.includes('\t'),
    });
    start += lineText.length + 1;
  }
  const lineAt = (offset: number): Line => {
    let low = 0;
    let high = lines.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (lines[middle]!.start <= offset) low = middle;
      else high = middle - 1;
    }
    return lines[low]!;
  };
  const dateOrder = dateOrderOf(text);
  const decimalMark = decimalMarkOf(text);
  const dates = findDates(text, dateOrder);
  return {
    text,
    lines,
    labels: findLabels(text, lineAt),
    dates,
    amounts: findAmounts(text, decimalMark, dates),
    currencies: findCurrencies(text),
    dateOrder,
    decimalMark,
    lineAt,
    codeParts: readCodeParts(raw),
  };
}

function cellsOf(line: string, lineStart: number): Cell[] {
  const cells: Cell[] = [];
  // Each tab ends a cell, so an empty cell keeps its column ("a\t\tb": b is third).
  const separator = line.includes('\t') ? /\t/g : /\s{2,}/g;
  let position = 0;
  let from = 0;
  const push = (to: number) => {
    const raw = line.slice(from, to);
    const lead = raw.length - raw.trimStart().length;
    const text = raw.trim();
    if (line.includes('\t') || text !== '') {
      cells.push({
        start: lineStart + from + lead,
        end: lineStart + from + lead + text.length,
        column: from + lead,
        text,
        position,
      });
      position++;
    }
  };
  for (const match of line.matchAll(separator)) {
    push(match.index);
    from = match.index + match[0].length;
  }
  push(line.length);
  return cells;
}

// ---------------------------------------------------------------------------------------
// Labels

interface KnownLabel {
  concept: Concept;
  label: string;
  weight: number;
  bare: boolean;
}

/** The pattern of one label, with the word boundaries the lexicon's syntax promises. */
function labelPattern(label: string): string {
  const words = label.split(/\s+/).map((word) =>
    word
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace(/[°º]/g, '[°º]')
      .replace(/['’]/g, "['’]")
      .replace(/^n\[°º\]$/, 'n[°ºo]\\.?')
      .replace(/\p{L}/gu, accentFree),
  );
  const last = label[label.length - 1] ?? '';
  // Between words: up to three dots, hyphens or single spaces, never two spaces in a row,
  // which would be a gap between cells (two labels side by side are not one label); but
  // a bracket opens the label's own qualifier however it is spaced ("Total  (Excl").
  return (
    words
      .map((word, index) =>
        index === 0
          ? word
          : word.startsWith('\\(')
            ? `[ \\t\\u00a0]{0,3}${word}`
            : `(?:[.\\-]|[ \\t\\u00a0](?![ \\t])){0,3}${word}`,
      )
      .join('') + (/\p{L}/u.test(last) ? '(?!\\p{L})' : '')
  );
}

/**
 * A letter with an accent also matches without it: capitals often drop accents ("NET A
 * PAYER", "DATE D'ECHEANCE"), and so do plain-text exports.
 */
function accentFree(letter: string): string {
  const bare = letter.normalize('NFD').replace(/\p{M}/gu, '');
  return bare !== letter && bare.length === 1 ? `[${letter}${bare}]` : letter;
}

/** What a label match is looked up by: case, accents, separators and look-alike signs aside. */
export function labelKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[.\-\s\u00a0]/g, '')
    .replace(/[°º]/g, 'o')
    .replace(/’/g, "'");
}

/**
 * All labels of a scope in one pattern, longest first, so that at each place the longest
 * label wins ("Due date" over "Date", "Factuur totaal" over "Factuur"): one pass over the
 * text instead of one per label, which matters for a lexicon of hundreds of labels.
 */
function compileScope(items: boolean): { pattern: RegExp; known: Map<string, KnownLabel> } {
  const known = new Map<string, KnownLabel>();
  // Every spelling is looked for ("po number" and "p.o. number"); one entry per key says
  // what a match means.
  const spellings = new Set<string>();
  for (const concept of concepts) {
    if ((concept.scope === 'item') !== items) continue;
    const entries: KnownLabel[] = [
      ...concept.labels.map(([label, weight]) => ({ concept, label, weight, bare: false })),
      ...(concept.bare ?? []).map((label) => ({ concept, label, weight: 2, bare: true })),
    ];
    for (const entry of entries) {
      spellings.add(entry.label);
      const key = labelKey(entry.label);
      const other = known.get(key);
      if (!other || (entry.weight > other.weight && !entry.concept.general)) known.set(key, entry);
    }
  }
  const labels = [...spellings].sort((a, b) => b.length - a.length);
  return {
    pattern: new RegExp(`(?<![\\p{L}\\p{N}_])(?:${labels.map(labelPattern).join('|')})`, 'giu'),
    known,
  };
}

const scopes = [compileScope(true), compileScope(false)];

/**
 * Every label in the text. Table columns and document fields are read separately: "Total"
 * is both the invoice's total and a column header, and each reader needs its reading.
 */
function findLabels(text: string, lineAt: (offset: number) => Line): LabelMatch[] {
  const found: LabelMatch[] = [];
  for (const { pattern, known } of scopes) {
    for (const match of text.matchAll(pattern)) {
      const entry = known.get(labelKey(match[0]));
      if (!entry || match[0].includes('\n')) continue;
      found.push({
        ...entry,
        start: match.index,
        end: match.index + match[0].length,
        line: lineAt(match.index),
      });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}
