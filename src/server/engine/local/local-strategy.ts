/**
 * The `local` strategy: fills the target schema from a chunk's text by rules the schema
 * itself chooses, offline and without templates for particular senders.
 *
 * For each field: find the labels its concept is printed under (lexicon.ts), read the value
 * after the label on its line or, for a label that heads a column, under it; rank what was
 * found by how specific the label is and how close the value sits; record where it was.
 * Lists of objects are read from tables: a line whose cells are column labels of the item
 * properties is a header, and the lines under it are rows until a total or a gap ends it.
 * A value no rule finds stays missing (null in the final result): nothing is guessed.
 */
import type { TargetSchema } from '../../../contract/json-schema.js';
import { mergeExtractions } from '../merge.js';
import { ocr } from '../ocr/ocr.js';
import { sourceOf } from '../sources.js';
import type { Chunk, ChunkExtraction, ExtractionStrategy, ValueSource } from '../types.js';
import { conceptsById, type Concept } from './lexicon.js';
import { planSchema, type FieldPlan, type ListPlan, type SchemaPlan } from './fields.js';
import { readChunkText, type Cell, type LabelMatch, type Line, type Reading } from './reading.js';
import { readValue, toSchemaType, type ValueHit } from './values.js';
import { currencyCues, currencyStrength, findEmails, findIbans, sharedSigns } from './parsers.js';

export function createLocalStrategy(): ExtractionStrategy {
  const plans = new WeakMap<TargetSchema, SchemaPlan>();
  return {
    async extractChunk(chunk, context) {
      let plan = plans.get(context.schema);
      if (!plan) plans.set(context.schema, (plan = planSchema(context.schema)));
      let result = extractFromText(chunk, plan);
      if (chunk.images?.length) {
        // Pictures sent along (includePageImages, includeEmbeddedImages) are read by OCR,
        // and fill what the text left open.
        const fromPictures = await extractFromPictures(chunk, plan, context.signal);
        result = { ...mergeExtractions(context.schema, result, fromPictures), usage: result.usage };
      }
      return result;
    },
  };
}

/** Rules over text only; exported for the tests and the benchmark. */
export function extractFromText(chunk: Chunk, plan: SchemaPlan): ChunkExtraction {
  const reading = readChunkText(chunk.text);
  const data: Record<string, unknown> = {};
  const sources: Record<string, ValueSource> = {};
  const record = (pointer: string, value: unknown, hit: ValueHit) => {
    setAt(data, pointer, value);
    const source = sourceOf(chunk, hit.start, hit.end);
    // A value read from a table row or a list is placed by its column: labelled, in effect.
    if (source) sources[pointer] = { ...source, confidence: hit.confidence ?? tableConfidence };
  };

  const found = new Map<FieldPlan, ValueHit>();
  for (const field of plan.fields) {
    if (field.kind === 'currency') continue; // after the amounts, which it leans on
    const hit = findField(field, reading);
    if (!hit) continue;
    const value = toSchemaType(field, hit.value);
    if (value === undefined) continue;
    found.set(field, hit);
    record(field.pointer, value, hit);
  }
  const amountHits = [...found].filter(([field]) => field.kind === 'amount').map(([, hit]) => hit);
  for (const field of plan.fields.filter((candidate) => candidate.kind === 'currency')) {
    const hit = findField(field, reading) ?? documentCurrency(field, reading, amountHits);
    const value = hit && toSchemaType(field, hit.value);
    if (hit && value !== undefined) record(field.pointer, value, hit);
  }
  for (const list of plan.lists) {
    const rows = readTables(list, reading);
    if (rows.length === 0) continue;
    setAt(
      data,
      list.pointer,
      rows.map(() => ({})),
    );
    rows.forEach((row, index) => {
      for (const [column, hit] of row) {
        const value = toSchemaType(column, hit.value);
        if (value !== undefined) record(`${list.pointer}/${index}${column.pointer}`, value, hit);
      }
    });
  }
  for (const field of plan.valueLists) {
    const hits = findAll(field, reading);
    if (hits.length === 0) continue;
    setAt(data, field.pointer, []);
    hits.forEach((hit, index) =>
      record(`${field.pointer}/${index}`, toSchemaType(field, hit.value) ?? hit.value, hit),
    );
  }
  return { data, sources, usage: { inputTokens: 0, outputTokens: 0 } };
}

async function extractFromPictures(
  chunk: Chunk,
  plan: SchemaPlan,
  signal: AbortSignal,
): Promise<ChunkExtraction> {
  const spans: Chunk['spans'] = [];
  let text = '';
  for (const image of chunk.images ?? []) {
    const recognised = await ocr.recognize(Buffer.from(image.data, 'base64'), {
      source: image.label,
      signal,
    });
    const owner =
      chunk.spans.find(
        (span) => image.offset >= span.pageStart && image.offset <= span.pageStart + span.length,
      ) ?? chunk.spans[0];
    if (!owner || recognised.text.trim() === '') continue;
    if (text !== '') text += '\n\n';
    spans.push({
      ...owner,
      chunkStart: text.length,
      pageStart: image.offset,
      length: recognised.text.length,
    });
    text += recognised.text;
  }
  const extraction = extractFromText({ index: chunk.index, text, spans }, plan);
  // What OCR read in a picture is not in the page's text; its source is the picture's place.
  for (const source of Object.values(extraction.sources)) {
    const span = spans.find(
      (candidate) => candidate.fileId === source.fileId && candidate.page === source.page,
    );
    if (span) source.offset = span.pageStart;
  }
  return extraction;
}

// ---------------------------------------------------------------------------------------
// Single values

interface Candidate {
  hit: ValueHit;
  score: number;
}

/** Label matches for a field: its concept's, or, for a field no concept knows, its own name's. */
function labelsFor(field: FieldPlan, reading: Reading): LabelMatch[] {
  if (field.concept) return reading.labels.filter((label) => label.concept === field.concept);
  const own: LabelMatch[] = [];
  const concept: Concept = { id: `own:${field.pointer}`, kind: 'text', triggers: [], labels: [] };
  for (const label of field.ownLabels) {
    const pattern = new RegExp(
      `(?<![\\p{L}\\p{N}])${label
        .split(/\s+/)
        .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('[ \\t.\\-_]*')}(?!\\p{L})`,
      'giu',
    );
    for (const match of reading.text.matchAll(pattern)) {
      own.push({
        concept,
        label,
        weight: 8,
        bare: false,
        start: match.index,
        end: match.index + match[0].length,
        line: reading.lineAt(match.index),
      });
    }
  }
  return own;
}

function findField(field: FieldPlan, reading: Reading): ValueHit | undefined {
  const candidates: Candidate[] = [];
  for (const label of labelsFor(field, reading)) {
    const near = valueNearLabel(field, label, reading);
    if (near)
      candidates.push({
        hit: {
          ...near.hit,
          confidence: labelledConfidence(label.weight, near.distance),
        },
        score: label.weight * 10 + (near.distance === 0 ? 5 : -near.distance),
      });
  }
  const largest = field.concept?.id === 'total';
  if (largest) crossCheckTotals(candidates, reading);
  if (field.concept?.id === 'invoiceNumber' || field.concept?.id === 'invoiceDate')
    candidates.push(...titleCandidates(field, reading));
  // The grand total is the largest of equally good totals; otherwise the first wins.
  candidates.sort(
    (a, b) =>
      b.score - a.score ||
      (largest && typeof a.hit.value === 'number' && typeof b.hit.value === 'number'
        ? b.hit.value - a.hit.value
        : 0) ||
      a.hit.start - b.hit.start,
  );
  return candidates[0]?.hit ?? fallback(field, reading);
}

/**
 * The value a label introduces: on its line after it (up to the next label), or, when the
 * label ends its cell like a column header, in the cell under it on the next lines.
 * `distance` is 0 on the line, else the number of lines down.
 */
function valueNearLabel(
  field: FieldPlan,
  label: LabelMatch,
  reading: Reading,
): { hit: ValueHit; distance: number } | undefined {
  const line = label.line;
  // A label right after this one with no figure between is its qualifier, not a label of
  // its own: "Total € Incl. VAT 681.87", "Total Sales (Inclusive GST) RM 9.90", and as
  // OCR spaces a receipt's words, "Total  (Inclusive of GST)", "Total Inc!  of GST".
  let reach = label.end;
  const nextLabel = reading.labels.find((other) => {
    if (
      other.start < label.end ||
      other.start >= line.end ||
      other.concept.scope === 'item' ||
      other.bare ||
      other.weight < 5 ||
      other.concept === label.concept
    )
      return false;
    if (isQualifier(reading.text.slice(reach, other.start))) {
      reach = other.end;
      return false;
    }
    return true;
  });
  const end = nextLabel?.start ?? line.end;
  const cell = cellAt(line, label.end - 1);
  const restOfCell = cell ? reading.text.slice(label.end, cell.end) : '';
  const headsColumn = /^[\s:#.°º\-–=|*()%₹$€£?]{0,6}$/u.test(restOfCell);
  if (
    field.kind === 'text' &&
    !headsColumn &&
    !/^\s*[:：]/.test(reading.text.slice(label.end, end))
  ) {
    // A word in running text ("Greetings from Amazon") is not a label of free text.
    return undefined;
  }

  if (label.bare) {
    const onLine = readValue(field, reading, label.end, end, { needsNumberSign: true });
    if (onLine) return { hit: onLine, distance: 0 };
    if (!headsColumn) return undefined;
    const inHeaderRow =
      reading.labels.filter((other) => other.line === line && other.concept.scope !== 'item')
        .length >= 3;
    return below(field, label, reading, { needsNumberSign: !inHeaderRow });
  }
  const onLine = readValue(field, reading, label.end, end, {
    preferLastInRow: field.kind === 'amount',
    spacedDecimals: field.kind === 'amount',
  });
  if (onLine) return { hit: onLine, distance: 0 };
  if (!headsColumn) return undefined;
  return (
    (field.kind === 'amount' && figureUnder(label, reading)) || below(field, label, reading, {})
  );
}

/** How many lines under a row of labels its row of figures may be. */
const maxRowsToFigures = 4;

/**
 * The figure of a label in a row of amount labels ("TOTAL HT  TOTAL TVA  TOTAL TTC") over
 * a row of as many figures a few lines down: the k-th figure belongs to the k-th label,
 * however the columns line up (right-aligned figures sit left of their labels' ends).
 * The row of figures is the run of amounts that ends its line with nothing but spaces
 * and currency signs between them, so text on the left of the line does not count.
 */
function figureUnder(
  label: LabelMatch,
  reading: Reading,
): { hit: ValueHit; distance: number } | undefined {
  const line = label.line;
  const heads = reading.labels.filter(
    (other) =>
      other.line === line &&
      other.concept.kind === 'amount' &&
      other.concept.scope !== 'item' &&
      !other.bare &&
      other.weight >= 5,
  );
  const index = heads.indexOf(label);
  if (heads.length < 2 || index < 0) return undefined;
  const gaps = heads.map((head, at) =>
    reading.text.slice(head.end, heads[at + 1]?.start ?? line.end),
  );
  if (gaps.some((gap) => /[\p{L}\p{N}]/u.test(gap))) return undefined;
  for (let down = 1; down <= maxRowsToFigures; down++) {
    const next = reading.lines[line.index + down];
    if (!next) break;
    const figures = reading.amounts.filter(
      (amount) => amount.start >= next.start && amount.end <= next.end,
    );
    let run = 0;
    while (
      run < figures.length &&
      !/[\p{L}\p{N}]/u.test(
        reading.text
          .slice(
            figures[figures.length - 1 - run]!.end,
            figures[figures.length - run]?.start ?? next.end,
          )
          .replace(/[A-Z]{3}|[€$£¥₹]/gu, ''),
      )
    )
      run++;
    // A figure of a line of text in between ("frais de recouvrement : 40 €") is no row.
    if (run !== heads.length) continue;
    const figure = figures[figures.length - run + index]!;
    return { hit: { value: figure.value, start: figure.start, end: figure.end }, distance: down };
  }
  return undefined;
}

/**
 * A document's title that names its number and date: "Handelsrechnung (380) Nr. 471102
 * vom 05.06.2018", "Facture n° F-12 du 2 mai 2024", "Invoice 103767", "Faktura  č. 1989".
 * The word for the document may end a compound ("Schlussrechnung"), a type code in
 * brackets may follow (after a word or two: "Schlussrechnung Bau (877)"), and the number sign may be missing when the title starts its line.
 */
const titlePattern = new RegExp(
  String.raw`(?<![\p{L}])(\p{L}*(?:rechnung|invoice|facture|factura|fattura|fatura|faktura|factuur|receipt|beleg|gutschrift))(?:(?:[ \t]+\p{L}+){0,2}[ \t]*\(\d{1,4}\))?[ \t]+(?:(nr\.?|no\.?|n[°º]\.?|#|č\.)[ \t]*:?[ \t]*)?([\p{L}\p{N}][\p{L}\p{N}_/.-]*\d[\p{L}\p{N}_/-]*)(?:[ \t]+(?:vom|du|of|del|dated|van|z dnia|ze dne)[ \t]+)?`,
  'giu',
);

function titleCandidates(field: FieldPlan, reading: Reading): Candidate[] {
  const candidates: Candidate[] = [];
  for (const match of reading.text.matchAll(titlePattern)) {
    const line = reading.lineAt(match.index);
    const atLineStart = reading.text.slice(line.start, match.index).trim() === '';
    if (!match[2] && !atLineStart) continue;
    const numberStart = match.index + match[0].indexOf(match[3]!, match[1]!.length);
    if (reading.dates.some((date) => numberStart >= date.start && numberStart < date.end)) continue;
    if (field.concept?.id === 'invoiceNumber') {
      const value = match[3]!.replace(/[.,;:]+$/, '');
      candidates.push({
        hit: { value, start: numberStart, end: numberStart + value.length, confidence: 0.8 },
        score: (match[2] ? 10 : 7) * 10 + 5,
      });
    } else {
      const end = match.index + match[0].length;
      if (end === numberStart + match[3]!.length) continue; // no "vom", "du", "of"
      const date = reading.dates.find((candidate) => candidate.start === end);
      if (date)
        candidates.push({
          hit: { value: date.value, start: date.start, end: date.end, confidence: 0.85 },
          score: 105,
        });
    }
  }
  return candidates;
}

/** How far after a label a qualifying word may start ("Total" … "incl. VAT"). */
const maxQualifierGap = 12;
/** How far it may start when the words between are a qualifier's ("(Inclusive of"). */
const maxWordyQualifierGap = 20;

/**
 * Whether the text between a label and the next one makes the next its qualifier: a few
 * characters without a figure or a gap between cells ("Total € Incl. VAT"), or one to
 * three words, maybe in a bracket, however spaced ("Total  (Inclusive of GST)"). Labels
 * with nothing but a gap between them are cells of their own ("Total  VAT  Net").
 */
function isQualifier(between: string): boolean {
  if (/\d/.test(between)) return false;
  if (between.length <= maxQualifierGap && !/\s{2}/.test(between)) return true;
  const words = between.match(/\p{L}+/gu)?.length ?? 0;
  return (
    between.length <= maxWordyQualifierGap &&
    words >= 1 &&
    words <= 3 &&
    /^[\s(]*[\p{L}.!'\s]*$/u.test(between)
  );
}

function below(
  field: FieldPlan,
  label: LabelMatch,
  reading: Reading,
  options: { needsNumberSign?: boolean },
): { hit: ValueHit; distance: number } | undefined {
  const line = label.line;
  const labelCell = cellAt(line, label.start);
  const from = label.start - line.start;
  const to = label.end - line.start;
  let looked = 0;
  let blanks = 0;
  for (let index = line.index + 1; index < reading.lines.length && looked < 2; index++) {
    const next = reading.lines[index]!;
    if (next.text.trim() === '') {
      if (++blanks > 1) break;
      continue;
    }
    looked++;
    const cell =
      line.tabbed && next.tabbed
        ? next.cells.find((candidate) => candidate.position === labelCell?.position)
        : overlapping(next, from, to);
    // A remark in brackets under a header ("(not for payment)") is not its value.
    if (!cell || (field.kind === 'text' && /^\(.*\)$/.test(cell.text))) continue;
    const needsSign = options.needsNumberSign && !/^#/.test(cell.text);
    if (needsSign) continue;
    const hit = readValue(
      field,
      reading,
      cell.start,
      cell.end,
      options.needsNumberSign ? { needsNumberSign: true } : {},
    );
    if (hit) return { hit, distance: looked };
  }
  return undefined;
}

function cellAt(line: Line, offset: number): Cell | undefined {
  return line.cells.find((cell) => offset >= cell.start && offset < cell.end);
}

/** The cell of `line` that overlaps columns [from, to) most (two columns of slack). */
function overlapping(line: Line, from: number, to: number): Cell | undefined {
  let best: { cell: Cell; overlap: number } | undefined;
  for (const cell of line.cells) {
    const start = cell.column;
    const end = cell.column + cell.text.length;
    const overlap = Math.min(end, to + 2) - Math.max(start, from - 2);
    if (overlap > 0 && (!best || overlap > best.overlap)) best = { cell, overlap };
  }
  return best?.cell;
}

/**
 * How sure a labelled value is: a specific label ("Invoice number") on the value's line is
 * surer than a bare word ("Number") or a value found under a header. See README.md.
 */
function labelledConfidence(weight: number, distance: number): number {
  const specific = weight >= 8 ? 0.85 : weight >= 5 ? 0.75 : 0.65;
  return Math.max(0.55, specific - (distance > 0 ? 0.05 : 0));
}

/** A value read from a table row under its column header, or one of a list. */
const tableConfidence = 0.75;
/** A labelled value that the document's own arithmetic confirms. */
const crossChecked = 0.95;
/** A value no label names, found by its position or its pattern alone. */
const guessed = 0.5;

/**
 * Values of the amounts a concept's labels introduce ("Subtotal", "Tax", "Cash"), only
 * under the labels that match `only` when it is given.
 */
function labelledAmounts(conceptId: string, reading: Reading, only?: RegExp): ValueHit[] {
  const concept = conceptsById.get(conceptId);
  if (!concept) return [];
  const plan: FieldPlan = {
    pointer: '',
    name: concept.id,
    schema: { type: 'number' },
    kind: 'amount',
    concept,
    ownLabels: [],
    wantsCurrencyCode: false,
  };
  return reading.labels
    .filter((label) => label.concept === concept && (!only || only.test(label.label)))
    .map((label) => valueNearLabel(plan, label, reading)?.hit)
    .filter((hit): hit is ValueHit => typeof hit?.value === 'number');
}

const cent = 0.005;

/**
 * Arithmetic the document offers, to tell the total among its totals: the subtotal plus
 * the tax (each tax line or their sum), on a till receipt the cash handed over less the
 * change, or another total plus its rounding ("Total 25.44", "Rounding 0.01", "Amount to
 * be paid 25.45"). A candidate that agrees rises above labels that merely look more final
 * ("Total due" that adds a previous balance, "Zahlbetrag" after a prepayment). When none
 * agrees, a labelled figure that OCR lost one digit of ("TOTAL 31.4" where the rounding
 * makes 31.45, "TOTAL 70" for 6.70) is read as the figure the arithmetic gives, with a
 * confidence low enough for review. When there is no labelled candidate at all, an amount
 * elsewhere that equals subtotal plus tax is one, ranked below every labelled one.
 */
function crossCheckTotals(candidates: Candidate[], reading: Reading): void {
  const subtotals = labelledAmounts('subtotal', reading).map((hit) => hit.value as number);
  const taxes = labelledAmounts('tax', reading).map((hit) => hit.value as number);
  const taxSum = [...new Set(taxes)].reduce((sum, tax) => sum + tax, 0);
  const sums = subtotals.flatMap((subtotal) =>
    [...taxes, taxSum].filter((tax) => tax > 0).map((tax) => subtotal + tax),
  );
  const paid = labelledAmounts('paid', reading).map((hit) => hit.value as number);
  const change = labelledAmounts('change', reading).map((hit) => hit.value as number);
  const tendered = paid.flatMap((cash) =>
    change.filter((given) => given >= 0 && given < cash).map((given) => cash - given),
  );
  const expected: { value: number; after: number }[] = [...sums, ...tendered].map((value) => ({
    value,
    after: -1,
  }));
  // The total before the rounding line, rounded: the total after it. OCR may drop the
  // rounding's sign ("-RM 0.02"), so either sign counts.
  for (const rounding of labelledAmounts('adjustment', reading, /round/i)) {
    const amount = rounding.value as number;
    if (amount === 0 || Math.abs(amount) >= 1) continue;
    for (const before of totalsBefore(reading, rounding.start))
      expected.push(
        { value: before + amount, after: rounding.end },
        { value: before - amount, after: rounding.end },
      );
  }
  // What a candidate may agree with: sums, and roundings of totals above it.
  const agreeing = (hit: ValueHit) =>
    typeof hit.value === 'number'
      ? expected.filter((sum) => sum.value > 0 && hit.start > sum.after)
      : [];
  // A total printed after a rounding line, below another total, is the rounded one, the
  // amount to pay, even where OCR lost the rounding's figure ("Rounding Adj:").
  const roundingLines = reading.labels
    .filter((label) => label.concept.id === 'adjustment' && /round/i.test(label.label))
    .map((label) => label.line.index);
  for (const candidate of candidates) {
    const line = reading.lineAt(candidate.hit.start).index;
    const rounded = roundingLines.some(
      (rounding) =>
        rounding < line &&
        candidates.some((other) => reading.lineAt(other.hit.start).index < rounding),
    );
    if (rounded) candidate.score += 60;
  }
  let confirmed = false;
  for (const candidate of candidates) {
    const value = candidate.hit.value as number;
    if (!agreeing(candidate.hit).some((sum) => Math.abs(sum.value - value) < cent)) continue;
    candidate.score += 60;
    candidate.hit.confidence = crossChecked;
    confirmed = true;
  }
  if (confirmed) return;
  for (const candidate of candidates) {
    const written = reading.text.slice(candidate.hit.start, candidate.hit.end);
    const meant = agreeing(candidate.hit).find((sum) => isDamaged(written, sum.value))?.value;
    if (meant === undefined) continue;
    candidate.hit = {
      ...candidate.hit,
      value: Math.round(meant * 100) / 100,
      confidence: repaired,
    };
    candidate.score += 60;
  }
  // A rounding line under the total and no total after it (OCR lost the rounded total's
  // line): the amount to pay is the total rounded as cash is, to a multiple of 5 cents,
  // the one sign of the rounding that makes one (OCR may have dropped it).
  for (const rounding of labelledAmounts('adjustment', reading, /round/i)) {
    const amount = rounding.value as number;
    if (amount === 0 || Math.abs(amount) >= 1) continue;
    if (candidates.some((candidate) => candidate.hit.start > rounding.start)) continue;
    for (const candidate of candidates) {
      const value = candidate.hit.value as number;
      const rounded = [value + amount, value - amount].filter(
        (sum) => sum > 0 && Math.abs(sum * 20 - Math.round(sum * 20)) < cent * 20,
      );
      if (rounded.length !== 1) continue;
      candidate.hit = {
        ...candidate.hit,
        value: Math.round(rounded[0]! * 100) / 100,
        confidence: repaired,
      };
      candidate.score += 60;
    }
  }
  if (candidates.length > 0) return;
  const arithmetic = reading.amounts.find((amount) =>
    [...sums, ...tendered].some((sum) => sum > 0 && Math.abs(sum - amount.value) < cent),
  );
  if (arithmetic)
    candidates.push({
      hit: {
        value: arithmetic.value,
        start: arithmetic.start,
        end: arithmetic.end,
        confidence: 0.7,
      },
      score: 0,
    });
}

/** The last figure of each line before `offset` that a total label heads. */
function totalsBefore(reading: Reading, offset: number): number[] {
  const lines = new Set(
    reading.labels
      .filter((label) => label.concept.id === 'total' && label.line.end < offset)
      .map((label) => label.line),
  );
  return [...lines].flatMap((line) => {
    const figures = reading.amounts.filter(
      (amount) => amount.start >= line.start && amount.end <= line.end,
    );
    return figures.length > 0 ? [figures[figures.length - 1]!.value] : [];
  });
}

/** A labelled figure that OCR damaged, read as the figure the arithmetic gives. */
const repaired = 0.55;

/**
 * Whether a figure as written is `value` as OCR damages figures: one digit lost to a
 * faint or crowded print ("31.4" for 31.45, "70" for 6.70, "544" for 25.44), or the
 * decimal mark lost ("742" for 7.42): its digits, the separators aside, are the value's
 * with one taken out, or all of them without a mark. A figure with a digit changed is as
 * likely a different figure, and does not count.
 */
function isDamaged(written: string, value: number): boolean {
  const digits = written.replace(/\D/g, '');
  const full = value.toFixed(2).replace(/\D/g, '');
  if (digits.length === 0) return false;
  if (digits === full) return !/[.,]/.test(written);
  if (digits.length !== full.length - 1) return false;
  for (let at = 0; at < full.length; at++)
    if (full.slice(0, at) + full.slice(at + 1) === digits) return true;
  return false;
}

// ---------------------------------------------------------------------------------------
// Fallbacks: values that need no label

function fallback(field: FieldPlan, reading: Reading): ValueHit | undefined {
  switch (field.kind) {
    case 'amount':
      return field.concept?.id === 'total' ? unlabelledTotal(reading) : undefined;
    case 'date':
      return field.concept?.id === 'invoiceDate' ? unclaimedDate(reading) : undefined;
    case 'email': {
      const email = findEmails(reading.text)[0];
      return email && { value: email.value, start: email.start, end: email.end, confidence: 0.6 };
    }
    case 'iban': {
      const iban = findIbans(reading.text)[0];
      // A valid check digit makes an IBAN found by its pattern alone as good as labelled.
      return iban && { value: iban.value, start: iban.start, end: iban.end, confidence: 0.75 };
    }
    case 'text':
      return field.concept?.id === 'vendor' ? companyName(reading) : undefined;
    default:
      return undefined;
  }
}

/** A total no label names, guessed from the figures alone: for review. */
const weakGuess = 0.4;

/**
 * A total when no total label has a figure (OCR garbled it: "TL :RM 28.60"): the figure
 * with cents printed most often in the lower half of the document, where a receipt repeats
 * its total (total, rounded total, GST summary), else the largest of them; figures that
 * a label claims for something else (cash, change, tax, a count, a rounding) are left
 * out. A guess, with a confidence that puts it up for review.
 */
function unlabelledTotal(reading: Reading): ValueHit | undefined {
  const claimed = new Set(
    reading.labels
      .filter((label) =>
        ['paid', 'change', 'tax', 'itemCount', 'adjustment'].includes(label.concept.id),
      )
      .map((label) => label.line),
  );
  const half = reading.text.length / 2;
  const figures = reading.amounts.filter(
    (amount) =>
      amount.start >= half &&
      amount.value > 0 &&
      /[.,]\d{2}$/.test(reading.text.slice(amount.start, amount.end)) &&
      !claimed.has(reading.lineAt(amount.start)),
  );
  const count = (value: number) => figures.filter((figure) => figure.value === value).length;
  const best = [...figures].sort((a, b) => count(b.value) - count(a.value) || b.value - a.value)[0];
  return best && { value: best.value, start: best.start, end: best.end, confidence: weakGuess };
}

/**
 * Lines whose dates are about the paper, not the deal: a template's or a standard's
 * version, a copyright, a print or generation stamp.
 */
const boilerplate =
  /version|©|\(c\)|copyright|stand:|printed|gedruckt|generated|erstellt am|imprimé|impreso/iu;

/** A time of day right after a date: "15/04/18 08:53", "2018-04-15T08:53", "12:01 PM". */
const timeOfDay = /^[\sT,]{1,3}\d{1,2}:\d{2}(?!\d)/;

/**
 * A document's own date when no label names it ("Facture n°562044387 du 02 Juillet
 * 2015"): the first date that no other date label (due, order, delivery, period) claims.
 */
function unclaimedDate(reading: Reading): ValueHit | undefined {
  const claimed: ValueHit[] = [];
  const datePlan = (concept: Concept): FieldPlan => ({
    pointer: '',
    name: concept.id,
    schema: { type: 'string' },
    kind: 'date',
    concept,
    ownLabels: [],
    wantsCurrencyCode: false,
  });
  for (const label of reading.labels) {
    const concept = label.concept;
    if (concept.id === 'invoiceDate' || concept.scope === 'item') continue;
    if (concept.kind === 'date') {
      const near = valueNearLabel(datePlan(concept), label, reading);
      if (near) claimed.push(near.hit);
    } else if (concept.id === 'period') {
      // Every date on a period's line belongs to the period.
      claimed.push(
        ...reading.dates
          .filter((date) => date.start >= label.line.start && date.end <= label.line.end)
          .map((date) => ({ value: date.value, start: date.start, end: date.end })),
      );
    }
  }
  const dates = reading.dates.filter(
    (candidate) =>
      !claimed.some((hit) => hit.start === candidate.start) &&
      !boilerplate.test(reading.lineAt(candidate.start).text),
  );
  // A date with its time of day is the moment of the sale on a till receipt, where an
  // earlier bare date may be a shift's or a printout's.
  const date =
    dates.find((candidate) =>
      timeOfDay.test(reading.text.slice(candidate.end, candidate.end + 12)),
    ) ?? dates[0];
  return date && { value: date.value, start: date.start, end: date.end, confidence: guessed };
}

/**
 * The currency a document is in, when no label states it, weighed from everything that
 * tells: each currency sign by how clearly it names one currency (a code over a symbol of
 * one currency over a name over "$" or "¥"), more for a sign repeated, and the signs of
 * the country the document comes from (currencyCues). A sign several currencies share
 * counts for the one the country signs point to ("$" on an Argentine invoice is ARS; "¥"
 * where OCR misread "₹" on an Indian one is INR). Country signs alone, with no currency
 * sign at all, decide nothing: nothing is invented. Ties go to the sign nearest the
 * amounts found, then the first.
 */
function documentCurrency(
  field: FieldPlan,
  reading: Reading,
  amounts: ValueHit[],
): ValueHit | undefined {
  if (reading.currencies.length === 0) return undefined;
  const cues = currencyCues(reading.text);
  const meant = (code: string) => {
    const shared = sharedSigns[code];
    if (!shared) return code;
    return [...shared].sort((a, b) => (cues.get(b) ?? 0) - (cues.get(a) ?? 0))[0]!;
  };
  const scores = new Map<string, { score: number; best: (typeof reading.currencies)[number] }>();
  const counts = new Map<string, number>();
  for (const currency of reading.currencies) {
    const code =
      currency.strength === currencyStrength.ambiguous ? meant(currency.value) : currency.value;
    counts.set(code, (counts.get(code) ?? 0) + 1);
    const entry = scores.get(code);
    if (!entry || currency.strength > entry.best.strength)
      scores.set(code, { score: currency.strength, best: currency });
  }
  const distance = (start: number) =>
    Math.min(Infinity, ...amounts.map((amount) => Math.abs(amount.start - start)));
  const ranked = [...scores].map(([code, { score, best }]) => ({
    code,
    best,
    score: score + Math.min(1, ((counts.get(code) ?? 1) - 1) * 0.25) + 1.5 * (cues.get(code) ?? 0),
  }));
  ranked.sort(
    (a, b) =>
      b.score - a.score ||
      distance(a.best.start) - distance(b.best.start) ||
      a.best.start - b.best.start,
  );
  const chosen = ranked[0]!;
  const confidence =
    chosen.best.strength >= currencyStrength.symbol
      ? 0.8
      : chosen.best.strength === currencyStrength.name || (cues.get(chosen.code) ?? 0) > 0
        ? 0.65
        : guessed;
  return {
    value: field.wantsCurrencyCode ? chosen.code : chosen.best.written,
    start: chosen.best.start,
    end: chosen.best.end,
    confidence,
  };
}

/**
 * Legal forms that end company names. Short ones that are also words ("as", "ag") only in
 * capitals, as companies write them.
 */
const legalForms = [
  /(?<![\p{L}])(?:inc|ltd|llc|llp|gmbh|b\.\s?v|n\.\s?v|s\.\s?a|sas|sarl|s\.\s?a\.\s?s|s\.\s?p\.\s?a|s\.\s?r\.\s?l|sp\.\s?z\s?o\.\s?o|plc|pvt\.?\s?ltd|corp|corporation)\.?(?![\p{L}])/giu,
  /(?<![\p{L}])(?:AG|KG|AB|AS|A\/S|Oy|SA|BV|NV|Limited)(?![\p{L}])/gu,
];

/**
 * The first company name (text ending in a legal form, "Coolblue B.V.") that is not under
 * a customer label; the name ends with its legal form ("Muster GmbH · Hauptstraße 1").
 */
function companyName(reading: Reading): ValueHit | undefined {
  const customerLines = new Set(
    reading.labels
      .filter((label) => label.concept === conceptsById.get('customer'))
      .flatMap((label) => [0, 1, 2, 3].map((step) => label.line.index + step)),
  );
  for (const line of reading.lines) {
    if (customerLines.has(line.index)) continue;
    for (const cell of line.cells) {
      if (cell.text.length > 120) continue;
      const ends = legalForms.flatMap((pattern) =>
        [...cell.text.matchAll(pattern)].map((match) => match.index + match[0].length),
      );
      if (ends.length === 0) continue;
      const lead = /^[^:]{0,30}:\s*/.exec(cell.text)?.[0].length ?? 0;
      const name = cell.text.slice(lead, Math.max(...ends)).replace(/[\s,;:]+$/, '');
      if (!/\p{L}{2}/u.test(name.replace(/(?:inc|ltd|gmbh|pvt|corp)\.?/giu, ''))) continue;
      const start = cell.start + lead;
      return { value: name, start, end: start + name.length, confidence: guessed };
    }
  }
  return undefined;
}

/** Every value for a list of plain values: one per label, or every email or IBAN. */
function findAll(field: FieldPlan, reading: Reading): ValueHit[] {
  const hits: ValueHit[] = [];
  for (const label of labelsFor(field, reading)) {
    const near = valueNearLabel(field, label, reading);
    if (near) hits.push(near.hit);
  }
  if (hits.length === 0 && (field.kind === 'email' || field.kind === 'iban')) {
    hits.push(...(field.kind === 'email' ? findEmails(reading.text) : findIbans(reading.text)));
  }
  const seen = new Set<string>();
  return hits.filter((hit) => {
    const key = JSON.stringify(hit.value);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// ---------------------------------------------------------------------------------------
// Tables

interface Column {
  /** Undefined for a column the schema has no property for (its cells are not misread as others). */
  plan: FieldPlan | undefined;
  weight: number;
  from: number;
  to: number;
  position: number;
}

const summaryConcepts = new Set(['total', 'subtotal', 'tax']);
const maxRowsPerTable = 200;

/** The rows of every item table in the chunk, each as the column values it holds. */
function readTables(list: ListPlan, reading: Reading): Map<FieldPlan, ValueHit>[] {
  const rows: Map<FieldPlan, ValueHit>[] = [];
  let index = 0;
  while (index < reading.lines.length) {
    const header = reading.lines[index]!;
    let columns = headerColumns(list, header, reading);
    if (!columns) {
      index++;
      continue;
    }
    index++;
    let blanks = 0;
    let rowsRead = 0;
    for (let count = 0; index < reading.lines.length && count < maxRowsPerTable; index++, count++) {
      const line = reading.lines[index]!;
      if (line.text.trim() === '') {
        if (++blanks >= 3) break;
        continue;
      }
      blanks = 0;
      const more = headerColumns(list, line, reading, true);
      if (more) {
        // A header may take several lines ("Cena" over "brutto"); before any row, a line
        // of column labels adds to it, after rows it starts the next table.
        if (rowsRead > 0) break;
        columns = [...columns, ...more];
        continue;
      }
      // A total, subtotal or tax line with an amount ends the table; "Tax: 0.2%" under an
      // item is a note of that item.
      const summary = reading.labels.some(
        (label) =>
          label.line === line && summaryConcepts.has(label.concept.id) && label.weight >= 5,
      );
      if (
        summary &&
        reading.amounts.some((amount) => amount.start >= line.start && amount.end <= line.end)
      )
        break;
      const row = readRow(list, columns, header, line, reading);
      if (row) {
        rows.push(row);
        rowsRead++;
      }
    }
  }
  return rows;
}

/**
 * The columns a line heads, when its column labels name at least two different item
 * properties (or, continuing a header, any) and are most of the line: a sentence that
 * mentions "price" and "quantity" is not a header.
 */
function headerColumns(
  list: ListPlan,
  line: Line,
  reading: Reading,
  continuing = false,
): Column[] | undefined {
  const columns: Column[] = [];
  for (const label of reading.labels) {
    if (label.line !== line || label.concept.scope !== 'item') continue;
    const plan = list.columns.find((column) => column.concept === label.concept);
    columns.push({
      plan,
      weight: label.weight,
      from: label.start - line.start,
      to: label.end - line.start,
      position: cellAt(line, label.start)?.position ?? -1,
    });
  }
  const named = new Set(columns.map((column) => column.plan).filter(Boolean)).size;
  if (continuing ? columns.length === 0 : named < 2) return undefined;
  if (
    continuing &&
    reading.amounts.some((amount) => amount.start >= line.start && amount.end <= line.end)
  )
    return undefined;
  const labelled = columns.reduce((sum, column) => sum + column.to - column.from, 0);
  if (labelled < line.text.replace(/\s/g, '').length * 0.4) return undefined;
  return columns;
}

function readRow(
  list: ListPlan,
  columns: Column[],
  header: Line,
  line: Line,
  reading: Reading,
): Map<FieldPlan, ValueHit> | undefined {
  const byPlan = new Map<FieldPlan, ValueHit[]>();
  const tabbed = header.tabbed && line.tabbed;
  const unassigned: Cell[] = [];
  for (const cell of line.cells) {
    if (cell.text === '') continue;
    const column = tabbed
      ? columns.find((candidate) => candidate.position === cell.position)
      : columnOf(columns, cell);
    if (!column) {
      unassigned.push(cell);
      continue;
    }
    if (!column.plan) continue;
    const hit = readValue(column.plan, reading, cell.start, cell.end);
    if (!hit) continue;
    byPlan.set(column.plan, [...(byPlan.get(column.plan) ?? []), hit]);
  }
  const row = new Map<FieldPlan, ValueHit>();
  for (const [plan, hits] of byPlan) {
    let best = hits[0]!;
    // Two columns that both mean "description" (code and name): the longer text tells
    // more. Several amount columns (net, tax, gross): the rightmost is the line's total.
    if (plan.kind === 'text')
      best = [...hits].sort((a, b) => String(b.value).length - String(a.value).length)[0]!;
    else if (plan.concept?.id === 'itemAmount') best = hits[hits.length - 1]!;
    row.set(plan, best);
  }
  const description = list.columns.find((column) => column.kind === 'text');
  if (description && !row.has(description)) {
    // A table without a description column still starts its rows with what they are.
    const first = unassigned.find((cell) => cell.position === 0 && /\p{L}{2}/u.test(cell.text));
    if (first) row.set(description, { value: first.text, start: first.start, end: first.end });
  }
  const hasFigure = [...row.keys()].some(
    (plan) => plan.kind === 'amount' || plan.kind === 'number' || plan.kind === 'integer',
  );
  const hasText = !description || row.has(description);
  return hasFigure && hasText ? row : undefined;
}

/** The header column a cell sits under: the one it overlaps most, else the nearest (within a few columns). */
function columnOf(columns: Column[], cell: Cell): Column | undefined {
  const start = cell.column;
  const end = cell.column + cell.text.length;
  let best: { column: Column; score: number } | undefined;
  for (const column of columns) {
    const overlap = Math.min(end, column.to) - Math.max(start, column.from);
    const score =
      overlap > 0 ? overlap : -Math.min(Math.abs(start - column.to), Math.abs(column.from - end));
    if (score > -4 && (!best || score > best.score)) best = { column, score };
  }
  return best?.column;
}

// ---------------------------------------------------------------------------------------

function setAt(data: Record<string, unknown>, pointer: string, value: unknown): void {
  const tokens = pointer
    .split('/')
    .slice(1)
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
  let target: Record<string, unknown> | unknown[] = data;
  tokens.forEach((token, index) => {
    const last = index === tokens.length - 1;
    const key = Array.isArray(target) ? Number(token) : token;
    const container = target as Record<string | number, unknown>;
    if (last) container[key] = value;
    else {
      if (typeof container[key] !== 'object' || container[key] === null) container[key] = {};
      target = container[key] as Record<string, unknown>;
    }
  });
}
