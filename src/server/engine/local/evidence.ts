/**
 * One field's value from its own evidence: the labels of its concept, else its own words
 * (name, title, description), the document's title for an invoice's number and date, the
 * invoice's arithmetic for its total, and the values that need no label (fallbacks.ts for
 * invoices, unlabelled.ts for the roles other documents hold). Candidates are ranked, and
 * the schema decides what fits (fit.ts): the first that fits wins; none → missing.
 */
import { boxValue } from './boxes.js';
import { codeValue } from './codes.js';
import { labelledConfidence, ownLabelConfidence } from './confidence.js';
import { fallback } from './fallbacks.js';
import type { FieldPlan } from './fields.js';
import { fitValue } from './fit.js';
import {
  hintWeight,
  labelsFor,
  titleCandidates,
  valueNearLabel,
  type Candidate,
} from './labels.js';
import type { LabelMatch, Reading } from './reading.js';
import { crossCheckTotals } from './totals.js';
import { unlabelled } from './unlabelled.js';
import { toSchemaType, type ValueHit } from './values.js';

export function findField(field: FieldPlan, reading: Reading): ValueHit | undefined {
  const fitting = (hit: ValueHit | undefined, exact = false): ValueHit | undefined => {
    if (!hit || (!exact && isCaption(field, hit, reading))) return undefined;
    // A deduction printed as a negative line ("Lohnsteuer -712,41") is withheld as a sum.
    const unsigned =
      field.concept?.id === 'incomeTax' && typeof hit.value === 'number'
        ? Math.abs(hit.value)
        : hit.value;
    const typed = toSchemaType(field, unsigned);
    const value = fitValue(field, typed ?? unsigned, exact);
    return value === undefined ? undefined : { ...hit, value };
  };
  const first = (candidates: Candidate[]) => {
    for (const candidate of candidates) {
      const hit = fitting(candidate.hit);
      if (hit) return hit;
    }
    return undefined;
  };
  // A verified zone's or a barcode's part is exact: it answers before any printed label.
  const fromCode = fitting(codeValue(field, reading), true);
  if (fromCode) return fromCode;
  // A form's numbered box the field names: the value typed under its caption.
  const fromBox = fitting(boxValue(field, reading));
  if (fromBox) return fromBox;
  const fromConcept = first(conceptCandidates(field, reading));
  if (fromConcept) return fromConcept;
  // The field's own words are weaker evidence than a known label: the value may be right,
  // but a person should look at it.
  const fromOwn = first(
    labelledCandidates(
      field,
      reading,
      // A phrase of the description counts as a label only with a colon after it.
      labelsFor(field, reading, 'own').filter(
        (label) => label.weight !== hintWeight || /^\s*[:：]/.test(reading.text.slice(label.end)),
      ),
    ).map((candidate) => ({
      ...candidate,
      hit: {
        ...candidate.hit,
        confidence: Math.min(candidate.hit.confidence ?? 0, ownLabelConfidence),
      },
    })),
  );
  if (fromOwn) return fromOwn;
  return fitting(fallback(field, reading)) ?? first(unlabelled(field, reading));
}

function labelledCandidates(field: FieldPlan, reading: Reading, labels: LabelMatch[]): Candidate[] {
  const candidates: Candidate[] = [];
  for (const label of labels) {
    const near = field.range
      ? periodDate(field, label, reading)
      : valueNearLabel(field, label, reading);
    if (near)
      candidates.push({
        hit: { ...near.hit, confidence: labelledConfidence(label.weight, near.distance) },
        score: label.weight * 10 + (near.distance === 0 ? 5 : -near.distance),
      });
  }
  return candidates;
}

function conceptCandidates(field: FieldPlan, reading: Reading): Candidate[] {
  if (!field.concept) return [];
  const candidates = labelledCandidates(field, reading, labelsFor(field, reading, 'concept'));
  const largest = field.concept.id === 'total';
  if (largest) crossCheckTotals(candidates, reading);
  if (field.concept.id === 'invoiceNumber' || field.concept.id === 'invoiceDate')
    candidates.push(...titleCandidates(field, reading));
  // The grand total is the largest of equally good totals; otherwise the first wins.
  return candidates.sort(
    (a, b) =>
      b.score - a.score ||
      (largest && typeof a.hit.value === 'number' && typeof b.hit.value === 'number'
        ? b.hit.value - a.hit.value
        : 0) ||
      a.hit.start - b.hit.start,
  );
}

/**
 * The start or end of a period its label introduces ("Zeitraum: 01.07.2025 – 31.07.2025",
 * "Période du 01/09/2025 au 30/09/2025"): the first or the second date after the label
 * on its line, or on the line under it.
 */
function periodDate(
  field: FieldPlan,
  label: LabelMatch,
  reading: Reading,
): { hit: ValueHit; distance: number } | undefined {
  for (let down = 0; down <= 1; down++) {
    const line = reading.lines[label.line.index + down];
    if (!line) break;
    const from = down === 0 ? label.end : line.start;
    const dates = reading.dates.filter((date) => date.start >= from && date.end <= line.end);
    if (dates.length < 2) continue;
    const date = field.range === 'start' ? dates[0]! : dates[1]!;
    return { hit: { value: date.value, start: date.start, end: date.end }, distance: down };
  }
  return undefined;
}

/**
 * Whether a text value is a caption rather than a value: a known label makes up most of
 * it ("DATE", "SEAT", "Booking ref."), or it reads as an instruction to the person filling
 * the form (a bracketed remark of several words, a sentence of many).
 */
function isCaption(field: FieldPlan, hit: ValueHit, reading: Reading): boolean {
  if (typeof hit.value !== 'string' || (field.kind !== 'text' && field.kind !== 'identifier'))
    return false;
  const length = hit.end - hit.start;
  if (
    reading.labels.some(
      (label) =>
        label.start >= hit.start &&
        label.end <= hit.end &&
        label.end - label.start >= 0.6 * length &&
        label.concept !== field.concept,
    )
  )
    return true;
  const value = hit.value;
  return (
    /\([^)]*\s[^)]*\s[^)]*\)/.test(value) || (/\.$/.test(value) && value.split(/\s+/).length >= 8)
  );
}
