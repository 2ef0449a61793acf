/**
 * Invoice values that need no label: the document's own date, its currency weighed from
 * every sign, the vendor's company name.
 */
import { guessed } from './confidence.js';
import { conceptsById, type Concept } from './lexicon.js';
import type { FieldPlan } from './fields.js';
import { valueNearLabel } from './labels.js';
import { currencyCues, currencyStrength, findEmails, findIbans, sharedSigns } from './parsers.js';
import type { Reading } from './reading.js';
import { unlabelledTotal } from './totals.js';
import type { ValueHit } from './values.js';
// ---------------------------------------------------------------------------------------
// Fallbacks: values that need no label

export function fallback(field: FieldPlan, reading: Reading): ValueHit | undefined {
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

/**
 * Lines whose dates are about the paper, not the deal: a template's or a standard's
 * version, a copyright, a print or generation stamp.
 */
export const boilerplate =
  /version|©|\(c\)|copyright|stand:|printed|gedruckt|generated|erstellt am|imprimé|impreso/iu;

/** A time of day right after a date: "15/04/18 08:53", "2018-04-15T08:53", "12:01 PM". */
export const timeOfDay = /^[\sT,]{1,3}\d{1,2}:\d{2}(?!\d)/;

/**
 * A document's own date when no label names it ("Facture n°562044387 du 02 Juillet
 * 2015"): the first date that no other date label (due, order, delivery, period) claims.
 */
export function unclaimedDate(reading: Reading): ValueHit | undefined {
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
export function documentCurrency(
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
export const legalForms = [
  /(?<![\p{L}])(?:inc|ltd|llc|llp|gmbh|b\.\s?v|n\.\s?v|s\.\s?a|sas|sarl|s\.\s?a\.\s?s|s\.\s?p\.\s?a|s\.\s?r\.\s?l|sp\.\s?z\s?o\.\s?o|plc|pvt\.?\s?ltd|corp|corporation)\.?(?![\p{L}])/giu,
  /(?<![\p{L}])(?:AG|KG|AB|AS|A\/S|Oy|SA|BV|NV|Limited)(?![\p{L}])/gu,
];

/**
 * The first company name (text ending in a legal form, "Coolblue B.V.") that is not under
 * a customer label; the name ends with its legal form ("Muster GmbH · Hauptstraße 1").
 */
export function companyName(reading: Reading): ValueHit | undefined {
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
