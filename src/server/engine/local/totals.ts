/**
 * The invoice's total among its totals: the arithmetic the document offers (subtotal plus
 * tax, cash less change, a rounding), figures OCR damaged, and a total guessed when no label
 * has one.
 */
import { crossChecked, repaired, weakGuess } from './confidence.js';
import { conceptsById } from './lexicon.js';
import type { FieldPlan } from './fields.js';
import { valueNearLabel, type Candidate } from './labels.js';
import type { Reading } from './reading.js';
import type { ValueHit } from './values.js';
/**
 * Values of the amounts a concept's labels introduce ("Subtotal", "Tax", "Cash"), only
 * under the labels that match `only` when it is given.
 */
export function labelledAmounts(conceptId: string, reading: Reading, only?: RegExp): ValueHit[] {
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

export const cent = 0.005;

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
export function crossCheckTotals(candidates: Candidate[], reading: Reading): void {
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
export function totalsBefore(reading: Reading, offset: number): number[] {
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

/**
 * Whether a figure as written is `value` as OCR damages figures: one digit lost to a
 * faint or crowded print ("31.4" for 31.45, "70" for 6.70, "544" for 25.44), or the
 * decimal mark lost ("742" for 7.42): its digits, the separators aside, are the value's
 * with one taken out, or all of them without a mark. A figure with a digit changed is as
 * likely a different figure, and does not count.
 */
export function isDamaged(written: string, value: number): boolean {
  const digits = written.replace(/\D/g, '');
  const full = value.toFixed(2).replace(/\D/g, '');
  if (digits.length === 0) return false;
  if (digits === full) return !/[.,]/.test(written);
  if (digits.length !== full.length - 1) return false;
  for (let at = 0; at < full.length; at++)
    if (full.slice(0, at) + full.slice(at + 1) === digits) return true;
  return false;
}

/**
 * A total when no total label has a figure (OCR garbled it: "TL :RM 28.60"): the figure
 * with cents printed most often in the lower half of the document, where a receipt repeats
 * its total (total, rounded total, GST summary), else the largest of them; figures that
 * a label claims for something else (cash, change, tax, a count, a rounding) are left
 * out. A guess, with a confidence that puts it up for review.
 */
export function unlabelledTotal(reading: Reading): ValueHit | undefined {
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
