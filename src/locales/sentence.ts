/**
 * How a title goes into the middle of a sentence. Only English lowers its first letter
 * ("Enter the invoice number."); other languages' catalogues quote the title instead, which
 * needs no article and keeps German nouns capitalised.
 */
import { formattingLocale } from './localization.js';

export function isEnglish(): boolean {
  return formattingLocale().split('-')[0] === 'en';
}

/** "Invoice number" → "invoice number", for the middle of an English sentence; "IBAN" stays. */
export function inSentence(title: string): string {
  if (!isEnglish()) return title;
  return /^.[a-z]/.test(title) || title.length === 1
    ? title[0]!.toLowerCase() + title.slice(1)
    : title;
}
