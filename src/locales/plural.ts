/**
 * Messages with plural forms, in the active locale's categories (Intl.PluralRules).
 */
import { msg, type StrResult } from '@lit/localize';
import { formattingLocale } from './localization.js';

const pluralRules = new Map<string, Intl.PluralRules>();

/**
 * Picks the plural form of a message for `count` in the active locale: the message id is
 * `id.category` (`documents.one`, and in Arabic also `.zero`, `.two`, `.few`, `.many`), with
 * the categories of Intl.PluralRules. English gives `one` and `other`; a category English
 * lacks falls back to its `other` text until a catalogue has it.
 */
export function plural(
  count: number,
  forms: { one: StrResult; other: StrResult },
  options: { id: string },
): string {
  const tag = formattingLocale();
  let rules = pluralRules.get(tag);
  if (!rules) {
    rules = new Intl.PluralRules(tag);
    pluralRules.set(tag, rules);
  }
  const category = rules.select(count);
  const template = category === 'one' ? forms.one : forms.other;
  return msg(template, { id: `${options.id}.${category}` });
}
