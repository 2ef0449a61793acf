/**
 * Values without a label, for the roles schemas commonly ask of documents that are not
 * invoices: contact details by their form (email, phone, web address), the name heading a
 * CV, card or letter, the parties, dates and governing law of an agreement stated in
 * prose, a document's title, an enum's value in the headings, and a date in the sentence
 * that repeats the field's own words ("shall commence on the Effective Date and conclude
 * on October 31, 2010"). Each is a guess from position or form, with a confidence that
 * puts the weaker ones up for review.
 */
import { contactConfidence, guessed, headingConfidence, weakGuess } from './confidence.js';
import type { FieldPlan } from './fields.js';
import { foldText } from './fit.js';
import type { Candidate } from './labels.js';
import { wordsOf } from './lexicon.js';
import { findEmails, findPhones, findUrls } from './parsers.js';
import type { Reading } from './reading.js';
import type { ValueHit } from './values.js';
import { companyName } from './fallbacks.js';
import { educationEntry, experienceEntry } from './sections.js';

/** Candidates for a field no label names, best first. */
export function unlabelled(field: FieldPlan, reading: Reading): Candidate[] {
  const words = new Set(wordsOf(`${field.name} ${field.schema.title ?? ''}`));
  const concept = field.concept?.id;
  const hits: (ValueHit | undefined)[] = [];
  if (field.kind === 'email') hits.push(...findEmails(reading.text).map(rated(contactConfidence)));
  if (field.kind === 'phone') hits.push(...findPhones(reading.text).map(rated(guessed)));
  if (field.kind === 'url') hits.push(...urls(field, reading));
  if (concept === 'personName' && field.kind === 'text') hits.push(headingName(reading));
  if (concept === 'jobTitle') hits.push(experienceEntry(reading, 'title'), lineAfterName(reading));
  if (concept === 'employer') hits.push(experienceEntry(reading, 'employer'));
  if (concept === 'employer' || concept === 'bankName') hits.push(companyName(reading));
  if (['institution', 'school', 'university', 'college'].some((word) => words.has(word)))
    hits.push(educationEntry(reading, 'institution'));
  else if (words.has('degree')) hits.push(educationEntry(reading, 'degree'));
  if (words.has('party') || words.has('parties')) hits.push(party(field, words, reading));
  if (words.has('law') || words.has('jurisdiction')) hits.push(governingLaw(reading));
  if (words.has('title') && concept !== 'jobTitle') hits.push(documentTitle(reading));
  if (field.kind === 'enum') hits.push(enumInHeadings(field, reading));
  if (field.kind === 'date' && (!concept || concept === 'signingDate'))
    hits.push(...sentenceDates(field, reading));
  // An agreement is dated by the first date of its preamble.
  const firstDate = reading.dates[0];
  if (concept === 'signingDate' && firstDate && firstDate.start < 3000)
    hits.push(rated(guessed)(firstDate));
  return hits
    .filter((hit): hit is ValueHit => hit !== undefined)
    .map((hit, index) => ({ hit, score: -index }));
}

const rated =
  (confidence: number) =>
  (found: { value: unknown; start: number; end: number }): ValueHit => ({
    value: found.value,
    start: found.start,
    end: found.end,
    confidence,
  });

/** Web addresses, those naming a word of the field first ("linkedin" → linkedin.com/in/…). */
function urls(field: FieldPlan, reading: Reading): ValueHit[] {
  const words = wordsOf(field.name).filter((word) => word.length >= 4);
  const found = findUrls(reading.text).filter(
    (url) => !/@/.test(reading.text.slice(Math.max(0, url.start - 1), url.start)),
  );
  const named = found.filter((url) => words.some((word) => url.value.toLowerCase().includes(word)));
  const social = /linkedin|github|twitter|facebook|instagram|xing/i;
  const rest = found.filter((url) => !named.includes(url) && !social.test(url.value));
  return [...named.map(rated(contactConfidence)), ...rest.map(rated(guessed))];
}

/** Words that head a document without being a name ("Curriculum Vitae", "Lebenslauf"). */
const documentWords =
  /^(?:curriculum vitae|cv|r[ée]sum[ée]|lebenslauf|hoja de vida|currículum|curriculum|levensloop|życiorys|履歴書|السيرة الذاتية|invoice|payslip|statement|business card)$/iu;

/**
 * The name heading a CV, card or letter: among the first lines, the first of two to four
 * words that each start with a capital (or a script without capitals), with no digit,
 * no label and no sign of an address or a contact.
 */
function headingName(reading: Reading): ValueHit | undefined {
  let seen = 0;
  for (const line of reading.lines) {
    if (line.text.trim() === '') continue;
    if (++seen > 6) break;
    for (const cell of line.cells.slice(0, 2)) {
      const text = cell.text.trim();
      if (documentWords.test(text) || /[\d@:/|•·,]/.test(text)) continue;
      const words = text.split(/\s+/);
      if (words.length < 2 || words.length > 4) continue;
      if (!words.every((word) => /^(?:\p{Lu}[\p{L}'’.-]*|[\p{Lo}]+)$/u.test(word))) continue;
      if (
        reading.labels.some(
          (label) => label.start >= cell.start && label.end <= cell.end && label.weight >= 5,
        )
      )
        continue;
      return {
        value: text,
        start: cell.start,
        end: cell.start + text.length,
        confidence: headingConfidence,
      };
    }
  }
  return undefined;
}

/** The line under the name heading a card or CV, when it is not a contact: a position. */
function lineAfterName(reading: Reading): ValueHit | undefined {
  const name = headingName(reading);
  if (!name) return undefined;
  const next = reading.lines
    .slice(reading.lineAt(name.start).index + 1)
    .find((line) => line.text.trim() !== '');
  const cell = next?.cells[0];
  if (!cell || /[\d@:/|]/.test(cell.text) || cell.text.split(/\s+/).length > 6) return undefined;
  return { value: cell.text, start: cell.start, end: cell.end, confidence: weakGuess };
}

/** "between A, a Texas company, … and B, a Delaware corporation": the parties in order. */
const betweenPattern = /\bbetween\s+/giu;
/** What ends a party's name: its description, its short name, its address. */
const partyEnd =
  /,\s+(?:a|an|the)\s|\s*\(|,\s+(?:whose|having|with|located|residing|organi[sz]ed|incorporated)\b|\s+[—–-]+\s|,?\s+and\s+|,\s+\d|\s+hereinafter\b/iu;

function party(field: FieldPlan, words: Set<string>, reading: Reading): ValueHit | undefined {
  const second = ['b', '2', 'second', 'two'].some((word) => words.has(word));
  const text = reading.text.slice(0, 6000);
  for (const match of text.matchAll(betweenPattern)) {
    const start = match.index + match[0].length;
    if (/^(?:the|us|them|each)\b/i.test(text.slice(start))) continue;
    const first = partyAt(text, start);
    if (!first) continue;
    if (!second) return first;
    // The second party follows the first's description, after an "and".
    const rest = text.slice(first.end, first.end + 600);
    const and = /(?:[,)”"]|\s[—–-]+)\s*(?:and|und|et|y|e|en|i)\s+(?!the\s|its\s|each\s)/iu.exec(
      rest,
    );
    if (!and) return undefined;
    return partyAt(text, first.end + and.index + and[0].length);
  }
  return undefined;
}

function partyAt(text: string, start: number): ValueHit | undefined {
  const stretch = text.slice(start, start + 200);
  const end = partyEnd.exec(stretch)?.index ?? -1;
  if (end <= 1) return undefined;
  const name = stretch
    .slice(0, end)
    .replace(/[\s,;:]+$/, '')
    .replace(/\s+/g, ' ');
  if (!/\p{L}{2}/u.test(name) || name.split(' ').length > 10) return undefined;
  return { value: name, start, end: start + end, confidence: guessed };
}

/** "governed by (and construed in accordance with) the laws of the State of Texas". */
const lawPattern =
  /\b(?:governed\s+by|construed\s+(?:in\s+accordance\s+with|under))\b[^.;]{0,80}?\blaws?\s+(?:and\s+[^.;]{0,40}?\s+)?of\s+(?:the\s+)?((?:State|Commonwealth|Republic|Province)\s+of\s+)?(\p{Lu}[\p{L}-]*(?:\s+(?:of\s+)?\p{Lu}[\p{L}-]*){0,4})/u;

function governingLaw(reading: Reading): ValueHit | undefined {
  const match = lawPattern.exec(reading.text);
  if (!match) return undefined;
  const value = `${match[1] ?? ''}${match[2]!}`.trim();
  const start = match.index + match[0].length - value.length;
  return { value, start, end: match.index + match[0].length, confidence: guessed };
}

/** Words naming a kind of document, that a title holds. */
const titleWords =
  /\b(?:agreement|contract|lease|licen[cs]e|memorandum|vertrag|vereinbarung|contrat|accord|contrato|acuerdo|contratto|accordo|overeenkomst|umowa|policy|certificate)\b|契約|عقد/iu;

/** A document's title: among its first lines, the first short one that names a kind of document. */
function documentTitle(reading: Reading): ValueHit | undefined {
  let seen = 0;
  for (const line of reading.lines) {
    const text = line.text.trim();
    if (text === '') continue;
    if (++seen > 15) break;
    if (!titleWords.test(text) || text.split(/\s+/).length > 8) continue;
    const cell = line.cells.find((candidate) => titleWords.test(candidate.text)) ?? line.cells[0]!;
    const value = cell.text.replace(/^(?:\[[^\]]*\]\s*)+/, '').trim();
    const start = cell.end - value.length;
    return { value, start, end: cell.end, confidence: headingConfidence };
  }
  return undefined;
}

/** An enum's value named in the document's headings (its first lines), else in its opening. */
function enumInHeadings(field: FieldPlan, reading: Reading): ValueHit | undefined {
  const options = (field.schema.enum ?? []).filter(
    (option): option is string => typeof option === 'string' && option.length >= 3,
  );
  const heads = reading.lines.filter((line) => line.text.trim() !== '').slice(0, 15);
  for (const stretch of [heads, reading.lines.slice(0, 60)]) {
    for (const line of stretch) {
      const folded = foldText(line.text);
      for (const option of options) {
        // A word's stem is enough: "licence" finds "license", "supply" finds "supplies".
        const stem = foldText(option).slice(0, Math.max(4, option.length - 2));
        const at = folded.search(
          new RegExp(`(?<![\\p{L}])${stem.replace(/[^\p{L}\p{N} ]/gu, '')}`, 'u'),
        );
        if (at >= 0)
          return {
            value: option,
            start: line.start,
            end: line.end,
            confidence: stretch === heads ? headingConfidence : guessed,
          };
      }
    }
  }
  return undefined;
}

/** Words of a field that say nothing about which date it is. */
const dateFillers = new Set(
  'date dates the of a an as is it its when only stated printed from which this that contract agreement document day'.split(
    ' ',
  ),
);

/**
 * Dates in the sentence that repeats the field's own words ("effective", "signed",
 * "initial term"), nearest those words first: the answer a reader finds in prose.
 */
function sentenceDates(field: FieldPlan, reading: Reading): ValueHit[] {
  const stems = [
    ...new Set(
      wordsOf(`${field.name} ${field.schema.title ?? ''} ${field.schema.description ?? ''}`)
        .filter((word) => word.length >= 3 && !dateFillers.has(word))
        .map((word) => word.slice(0, Math.min(word.length, 6))),
    ),
  ];
  if (stems.length === 0) return [];
  const text = reading.text;
  const scored: { hit: ValueHit; score: number }[] = [];
  for (const date of reading.dates) {
    const from = Math.max(0, date.start - 160);
    const to = Math.min(text.length, date.end + 120);
    const before = text.slice(from, date.start);
    const after = text.slice(date.end, to);
    const sentenceBefore = before.slice(
      Math.max(before.lastIndexOf('. '), before.lastIndexOf(';')) + 1,
    );
    const sentenceAfter = after.split(/\.\s|;/)[0]!;
    const near = foldText(`${sentenceBefore} ${sentenceAfter}`);
    const hits = stems.filter((stem) => new RegExp(`(?<![\\p{L}])${stem}`, 'u').test(near)).length;
    if (hits === 0) continue;
    // The nearer the field's words stand before the date, the likelier it is theirs.
    const foldedBefore = foldText(sentenceBefore);
    const distance = Math.min(
      200,
      ...stems.map((stem) => {
        const at = foldedBefore.lastIndexOf(stem);
        return at < 0 ? 200 : foldedBefore.length - at;
      }),
    );
    scored.push({
      hit: { value: date.value, start: date.start, end: date.end, confidence: guessed },
      score: hits * 1000 - distance - date.start / 10000,
    });
  }
  return scored.sort((a, b) => b.score - a.score).map((entry) => entry.hit);
}
