/**
 * Values a code states: the `Label: value` lines that end the block of a barcode or a
 * machine-readable zone in a page's text (codes/page-codes.ts). A zone's lines are written
 * only when its check digits hold, and a barcode's parts are its public format's own
 * fields, so such a value is exact: it answers the field its label names before any printed
 * label does, with a high confidence. A name, which a zone writes without its accents, is
 * taken as the page prints it when the page prints the same letters.
 */
import { codeConfidence, codeNameUnprinted } from './confidence.js';
import type { FieldPlan } from './fields.js';
import { foldText } from './fit.js';
import { wordsOf } from './lexicon.js';
import { labelKey, type Reading } from './reading.js';
import type { ValueHit } from './values.js';
import type { CodePart } from './code-blocks.js';

/** Words that say nothing of which field a label answers. */
const fillers = new Set(['of', 'the', 'code', 'iso']);

/**
 * Whether a code's part answers the field: the same concept (a "Date of birth" part for a
 * `dob` field), a label of the field's own, or the same words in its name or title.
 */
function answers(field: FieldPlan, part: CodePart, reading: Reading): boolean {
  const key = labelKey(part.label);
  const concept = reading.labels.find(
    (label) => label.start >= part.start - part.label.length - 2 && label.end <= part.start,
  )?.concept;
  if (field.concept && concept === field.concept) return true;
  if (field.concept?.labels.some(([label]) => labelKey(label) === key)) return true;
  if (field.ownLabels.some((label) => labelKey(label) === key)) return true;
  const partWords = wordSet(part.label);
  return [field.name, field.schema.title ?? ''].some((text) => {
    const words = wordSet(text);
    return (
      words.size > 0 &&
      words.size === partWords.size &&
      [...words].every((word) => partWords.has(word))
    );
  });
}

function wordSet(text: string): Set<string> {
  return new Set(wordsOf(text).filter((word) => !fillers.has(word)));
}

/** The value a code states for the field, or undefined. */
export function codeValue(field: FieldPlan, reading: Reading): ValueHit | undefined {
  for (const part of reading.codeParts) {
    if (!answers(field, part, reading)) continue;
    const hit: ValueHit = {
      value: part.value,
      start: part.start,
      end: part.end,
      confidence: codeConfidence,
    };
    if (field.kind !== 'text' || !/^[\p{L} '/-]+$/u.test(part.value) || field.schema.enum)
      return hit;
    return printedName(part, reading) ?? { ...hit, confidence: codeNameUnprinted };
  }
  return undefined;
}

/** Titles a travel document's or a boarding pass's name may carry after the given names. */
const titles = new Set(['mr', 'mrs', 'ms', 'miss', 'mstr', 'dr', 'herr', 'frau', 'sr', 'sra']);

/**
 * A name as the page prints it: the words outside the code blocks whose letters, accents
 * aside (and a zone's AE, OE, UE for Ä, Ö, Ü), are the code's, in any order.
 */
function printedName(part: CodePart, reading: Reading): ValueHit | undefined {
  const wanted = part.value
    .split(/[\s/]+/)
    .map(fold)
    .filter((word) => word !== '' && !titles.has(word));
  if (wanted.length === 0) return undefined;
  const inCode = (offset: number) =>
    reading.codeParts.some((other) => offset >= other.block.start && offset < other.block.end);
  const words = [...reading.text.matchAll(/[\p{L}'-]+/gu)].filter((word) => !inCode(word.index));
  for (let index = 0; index + wanted.length <= words.length; index++) {
    const window = words.slice(index, index + wanted.length);
    const folded = window.map((word) => fold(word[0]));
    if (!wanted.every((word) => folded.includes(word))) continue;
    if (!folded.every((word) => wanted.includes(word))) continue;
    const first = window[0]!;
    const last = window[window.length - 1]!;
    const start = first.index;
    const end = last.index + last[0].length;
    const text = reading.text.slice(start, end);
    // The words of one name stand on one line.
    if (text.includes('\n')) continue;
    return { value: text.replace(/\s+/g, ' '), start, end, confidence: codeConfidence };
  }
  return undefined;
}

function fold(word: string): string {
  return foldText(word)
    .replace(/ae/g, 'a')
    .replace(/oe/g, 'o')
    .replace(/ue/g, 'u')
    .replace(/[^a-z]/g, '');
}
