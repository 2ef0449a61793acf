/**
 * The words the kinds share: the names of the choices a select offers, and what a missing
 * value asks for. Through the catalogue (src/locales), as all of the editor's words.
 */
import { msg, str } from '@lit/localize';
import type { TargetSchema } from '../../contract/json-schema.js';
import { displayValue } from '../internal/values.js';
import { inSentence } from '../../locales/sentence.js';

/** The words of the choices the editor offers. */
export const choiceText = {
  get yes() {
    return msg('Yes', { id: 'value.yes' });
  },
  get no() {
    return msg('No', { id: 'value.no' });
  },
  /** A yes or no that is not known (null), or not found. */
  get unknown() {
    return msg('Not known', { id: 'form.choice.unknown' });
  },
  /** The empty choice of a list that allows nothing. */
  get none() {
    return msg('None', { id: 'form.choice.none' });
  },
  /** The empty choice of a list where something must be chosen. */
  get prompt() {
    return msg('Choose…', { id: 'form.choice.prompt' });
  },
};

/** An option of a select as it reads: yes or no, or the value as text. */
export function formatChoice(option: unknown, locale: string | undefined): string {
  return typeof option === 'boolean'
    ? option
      ? choiceText.yes
      : choiceText.no
    : displayValue(option, locale);
}

export const chooseYesOrNo = () => msg('Choose yes or no.', { id: 'form.choose-yes-no' });
export const chooseOption = () => msg('Choose one of the options.', { id: 'form.choose-option' });

/** What a missing value a person types in asks for; a list (shown as text) asks for items. */
export function enterMessage(schema: TargetSchema, title: string): string {
  const what = inSentence(title);
  const type = schema.type;
  if (type === 'array' || (Array.isArray(type) && type.includes('array')))
    return title
      ? msg(str`Add the ${what}.`, { id: 'form.add-named' })
      : msg('Add an item.', { id: 'form.add-item' });
  return title
    ? msg(str`Enter the ${what}.`, { id: 'form.enter-named' })
    : msg('Enter a value.', { id: 'form.enter-value' });
}
