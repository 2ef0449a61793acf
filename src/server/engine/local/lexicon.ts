/**
 * What business documents call things, in English, Dutch, German, French, Spanish,
 * Italian, Portuguese and Polish. A concept ties the words a schema uses for a field
 * (`invoice_number`, "Invoice no.") to the labels a document prints next to its value
 * ("Rechnungsnummer", "N° de facture", "Faktura nr").
 *
 * Concepts that no schema field asks for still matter: every label of every concept is
 * looked for, and where two overlap the longer one wins, so "Due date" is never read as
 * the invoice's "Date", nor "Subtotal" as its "Total".
 *
 * Label syntax: words separated by spaces match up to three dots, hyphens or single spaces
 * between them (also none: "rechnungs nr" finds "Rechnungs-Nr." and "RechnungsNr"), but
 * never two spaces in a row, which separate the cells of a laid-out page.
 * Matching ignores case. `weight` ranks labels of one concept: a specific phrase beats a
 * bare word ("Grand total" over "Total").
 */

import type { Concept } from './concept.js';
import { amountConcepts } from './lexicon-amounts.js';
import { itemConcepts } from './lexicon-items.js';
import { partyConcepts } from './lexicon-parties.js';
import { referenceConcepts } from './lexicon-references.js';
import { vocabularyConcepts } from './vocabulary.js';

export type { Concept, ValueKind } from './concept.js';

/**
 * Every concept, the invoice's first; the general vocabulary of documents of other kinds
 * (vocabulary.ts) after them, so that on a tie the invoice's concept keeps its place.
 */
export const concepts: Concept[] = [
  ...referenceConcepts,
  ...amountConcepts,
  ...partyConcepts,
  ...itemConcepts,
  ...vocabularyConcepts.map((concept) => ({ ...concept, general: true })),
];
export const conceptsById = new Map(concepts.map((concept) => [concept.id, concept]));

/** The words of a property name or title: snake_case, camelCase, kebab-case and spaces. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Short forms people use in property names. */
const synonyms: Record<string, string> = {
  num: 'number',
  nr: 'number',
  no: 'number',
  nbr: 'number',
  qty: 'quantity',
  amt: 'amount',
  desc: 'description',
  addr: 'address',
  tel: 'phone',
  mail: 'email',
  ccy: 'currency',
  curr: 'currency',
  inv: 'invoice',
};

/** Words that say nothing of what a field is: "name" of "vendor_name", "the", "of". */
const fillers = new Set(['the', 'of', 'a', 'an', 'its', 'full', 'name', 'value', 'code', 'id']);
/** Qualifiers that keep a concept whole: a "requested delivery date" is a delivery date. */
const qualifiers = new Set(['requested', 'expected', 'planned', 'scheduled', 'current', 'latest']);
/** Words that pick a date of a period: "period_start", "period_end". */
export const rangeWords = {
  start: ['start', 'from', 'begin', 'first'],
  end: ['end', 'to', 'until', 'last'],
};

/**
 * The concept a schema property means, judged from its name and title (and, if they say
 * nothing known, a short description): the concept whose trigger words are all present,
 * the most specific (most words) first, and only when the field means it as a whole: every
 * other word of the name is a filler, a qualifier or a word of the concept's own triggers
 * ("total_gross_amount" is the total; "birth_date" is not the invoice's date, "tax_year"
 * not its tax). A period's field may name its start or end ("period_start").
 */
export function conceptFor(
  name: string,
  title: string | undefined,
  description: string | undefined,
  scope: 'item' | 'document',
): Concept | undefined {
  const attempt = (text: string) => {
    const written = wordsOf(text).map((word) => synonyms[word] ?? word);
    const words = new Set(wordsOf(text).flatMap((word) => [word, synonyms[word] ?? word]));
    let best: { concept: Concept; size: number } | undefined;
    for (const concept of concepts) {
      if (concept.scope && concept.scope !== scope) continue;
      for (const trigger of concept.triggers) {
        if (!trigger.every((word) => words.has(word))) continue;
        if (!isWhole(concept, written)) continue;
        // Most words first; on a tie, the concept made for this scope (a table's "VAT rate" column).
        const better =
          !best ||
          trigger.length > best.size ||
          (trigger.length === best.size && concept.scope === scope && best.concept.scope !== scope);
        if (better) best = { concept, size: trigger.length };
      }
    }
    return best?.concept;
  };
  return (
    attempt(name) ??
    (title ? attempt(title) : undefined) ??
    (description && wordsOf(description).length <= 4 ? attempt(description) : undefined)
  );
}

function isWhole(concept: Concept, words: string[]): boolean {
  const own = new Set(concept.triggers.flat());
  const range = concept.id === 'period' ? [...rangeWords.start, ...rangeWords.end] : [];
  const kindWords: Record<string, string[]> = {
    date: ['date', 'datum'],
    datetime: ['date', 'time'],
    identifier: ['number'],
    amount: ['amount'],
    phone: ['number', 'phone'],
  };
  return words.every(
    (word) =>
      own.has(word) ||
      fillers.has(word) ||
      qualifiers.has(word) ||
      range.includes(word) ||
      (kindWords[concept.kind] ?? []).includes(word),
  );
}
