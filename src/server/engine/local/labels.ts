/**
 * Values introduced by labels: the labels of a field's evidence, the value after a label on
 * its line or in the cell under it, the document's title, ranked by how specific the label
 * is and how close the value sits.
 */
import type { Concept } from './lexicon.js';
import type { FieldPlan } from './fields.js';
import { labelKey, type Cell, type LabelMatch, type Line, type Reading } from './reading.js';
import { readValue, type ValueHit } from './values.js';
/** The weight of a phrase of a field's description used as its label. */
export const hintWeight = 6;

export interface Candidate {
  hit: ValueHit;
  score: number;
}

/**
 * Label matches for a field: its concept's (`concept`), or its own (`own`): the words of its
 * name and title, then the short phrases of its description, weaker.
 */
export function labelsFor(
  field: FieldPlan,
  reading: Reading,
  which: 'concept' | 'own' = field.concept ? 'concept' : 'own',
): LabelMatch[] {
  if (which === 'concept') {
    const concept = field.concept;
    if (!concept) return [];
    // A word of documents in general may be printed as a label the invoice's concepts
    // know too ("Gesamtbrutto"): for the general concept's field it is its own.
    const keys = concept.general
      ? new Set(concept.labels.map(([label]) => labelKey(label)))
      : undefined;
    return reading.labels.filter(
      (label) => label.concept === concept || (keys?.has(labelKey(label.label)) ?? false),
    );
  }
  const own: LabelMatch[] = [];
  const concept: Concept = { id: `own:${field.pointer}`, kind: 'text', triggers: [], labels: [] };
  const labels = [
    ...field.ownLabels.map((label) => [label, 8] as const),
    ...(field.hintLabels ?? []).map((label) => [label, hintWeight] as const),
  ];
  for (const [label, weight] of labels) {
    // Literal words only (escaped), joined by separators: linear on any text.
    const pattern = new RegExp(
      `(?<![\\p{L}\\p{N}])${label
        .split(/\s+/)
        .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('[ \\t.\\-_]*')}(?!\\p{L})`,
      'giu',
    );
    for (const match of reading.text.matchAll(pattern)) {
      // A word inside a longer label of another field's concept is that label's.
      const start = match.index;
      const end = start + match[0].length;
      if (
        reading.labels.some(
          (other) =>
            other.start <= start &&
            other.end >= end &&
            other.end - other.start > end - start &&
            other.weight >= 5,
        )
      )
        continue;
      own.push({ concept, label, weight, bare: false, start, end, line: reading.lineAt(start) });
    }
  }
  return own;
}

/**
 * The value a label introduces: on its line after it (up to the next label), or, when the
 * label ends its cell like a column header, in the cell under it on the next lines.
 * `distance` is 0 on the line, else the number of lines down.
 */
export function valueNearLabel(
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
  // For the words of documents in general, a label inside another one's phrase ("Net à
  // payer avant impôt sur le revenu") is that label's qualifier, not a label of its own.
  if (
    (label.concept.general || label.concept.id.startsWith('own:')) &&
    reading.labels.some(
      (other) =>
        other.line === line &&
        other.end <= label.start &&
        other.concept !== label.concept &&
        other.weight >= 5 &&
        isPhrase(reading.text.slice(other.end, label.start)),
    )
  )
    return undefined;
  const cell = cellAt(line, label.end - 1);
  const restOfCell = cell ? reading.text.slice(label.end, cell.end) : '';
  const headsColumn = /^[\s:#.°º\-–=|*()%₹$€£?]{0,6}$/u.test(restOfCell);
  // A form's label starts its line or cell, and its value follows with or without a colon
  // ("Name Miriam Hoffmann", "Employee\tPriya"); in running text it is only a word.
  const startsCell =
    (cell?.start === label.start || reading.text.slice(line.start, label.start).trim() === '') &&
    line.text.trim().length <= 90 &&
    !/[.;]\s*$/.test(line.text);
  if (
    field.kind === 'text' &&
    !headsColumn &&
    !startsCell &&
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
export const maxRowsToFigures = 4;

/**
 * The figure of a label in a row of amount labels ("TOTAL HT  TOTAL TVA  TOTAL TTC") over
 * a row of as many figures a few lines down: the k-th figure belongs to the k-th label,
 * however the columns line up (right-aligned figures sit left of their labels' ends).
 * The row of figures is the run of amounts that ends its line with nothing but spaces
 * and currency signs between them, so text on the left of the line does not count.
 */
export function figureUnder(
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
export const titlePattern = new RegExp(
  String.raw`(?<![\p{L}])(\p{L}*(?:rechnung|invoice|facture|factura|fattura|fatura|faktura|factuur|receipt|beleg|gutschrift))(?:(?:[ \t]+\p{L}+){0,2}[ \t]*\(\d{1,4}\))?[ \t]+(?:(nr\.?|no\.?|n[°º]\.?|#|č\.)[ \t]*:?[ \t]*)?([\p{L}\p{N}][\p{L}\p{N}_/.-]*\d[\p{L}\p{N}_/-]*)(?:[ \t]+(?:vom|du|of|del|dated|van|z dnia|ze dne)[ \t]+)?`,
  'giu',
);

export function titleCandidates(field: FieldPlan, reading: Reading): Candidate[] {
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
export const maxQualifierGap = 12;
/** How far it may start when the words between are a qualifier's ("(Inclusive of"). */
export const maxWordyQualifierGap = 20;

/**
 * Whether the text between a label and the next one makes the next its qualifier: a few
 * characters without a figure or a gap between cells ("Total € Incl. VAT"), or one to
 * three words, maybe in a bracket, however spaced ("Total  (Inclusive of GST)"). Labels
 * with nothing but a gap between them are cells of their own ("Total  VAT  Net").
 */
export function isQualifier(between: string): boolean {
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

export function below(
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

export function cellAt(line: Line, offset: number): Cell | undefined {
  return line.cells.find((cell) => offset >= cell.start && offset < cell.end);
}

/** The cell of `line` that overlaps columns [from, to) most (two columns of slack). */
export function overlapping(line: Line, from: number, to: number): Cell | undefined {
  let best: { cell: Cell; overlap: number } | undefined;
  for (const cell of line.cells) {
    const start = cell.column;
    const end = cell.column + cell.text.length;
    const overlap = Math.min(end, to + 2) - Math.max(start, from - 2);
    if (overlap > 0 && (!best || overlap > best.overlap)) best = { cell, overlap };
  }
  return best?.cell;
}

/** A few words joining two labels into one phrase: no figure, gap, colon or dash between. */
function isPhrase(between: string): boolean {
  return !/[\d\t:—–·|]| {2}/.test(between) && between.trim().split(/\s+/).length <= 3;
}
