/**
 * What the kinds share: the two controls they are drawn with, a text box and a select of
 * choices, and their words. Both controls write back through the form, read what was typed
 * with the kind's own `parse` and show the value with its `format`. The words go through
 * the catalogue (src/locales), as all of the editor's words.
 */
import { msg, str } from '@lit/localize';
import { html, nothing, type TemplateResult } from 'lit';
import type { TargetSchema } from '../../contract/json-schema.js';
import { inSentence } from '../../locales/sentence.js';
import { allowsNull, displayValue, pointerOf } from '../internal/values.js';
import type { ControlInput, FieldKind, InputOptions } from './field-kind.js';
import { typedValue } from './typed-value.js';

/** What an emptied field holds: null where the schema allows it, else '' or nothing. */
export function emptyInput(schema: TargetSchema, blank: boolean): unknown {
  if (allowsNull(schema)) return null;
  return blank ? '' : undefined;
}

/** The value of text a kind reads trimmed: an empty box, or `read` of the text. */
export function parseTrimmed(
  raw: string,
  schema: TargetSchema,
  read: (text: string, options: InputOptions) => unknown,
  options: InputOptions,
): unknown {
  const text = raw.trim();
  return text === '' ? emptyInput(schema, false) : read(text, options);
}

function invalidAt(input: ControlInput): boolean {
  return !!input.form.violationsAt(pointerOf(input.path))?.length;
}

export interface TextBoxLook {
  /** Amounts: the class `numeric` (tabular digits). */
  numeric?: boolean;
  type?: 'date' | 'text';
  inputmode?: 'numeric' | 'decimal';
  /** Numbers and dates are not words to check the spelling of. */
  noSpellcheck?: boolean;
}

export function renderTextBox(
  kind: FieldKind,
  input: ControlInput,
  look: TextBoxLook = {},
): TemplateResult {
  const { form, schema, value, path, options } = input;
  const typed = { required: options.required, locale: form.locale };
  const means = (text: string) =>
    JSON.stringify(kind.parse(text, schema, typed)) === JSON.stringify(value);
  return html`<input
    class="control ${look.numeric ? 'numeric' : ''}"
    type=${look.type ?? 'text'}
    id=${options.id}
    aria-label=${options.ariaLabel ?? nothing}
    aria-describedby=${options.describedBy || nothing}
    aria-invalid=${invalidAt(input) ? 'true' : 'false'}
    aria-required=${options.required ? 'true' : nothing}
    tabindex=${options.inGrid ? '-1' : nothing}
    inputmode=${look.inputmode ?? nothing}
    autocomplete="off"
    spellcheck=${look.noSpellcheck ? 'false' : nothing}
    ${typedValue(kind.format(value, form.locale), means)}
    ?readonly=${form.readOnly}
    @input=${(event: Event) =>
      form.setValue(path, kind.parse((event.target as HTMLInputElement).value, schema, typed))}
  />`;
}

/**
 * A select of `choices`, with an empty choice first where the schema allows nothing or
 * nothing is chosen yet; `empty` names it.
 */
export function renderSelect(
  kind: FieldKind,
  input: ControlInput,
  choices: unknown[],
  empty: string,
): TemplateResult {
  const { form, schema, value, path, options } = input;
  const selected = choices.findIndex((option) => JSON.stringify(option) === JSON.stringify(value));
  const nullable = allowsNull(schema);
  return html`<select
    class="control"
    id=${options.id}
    aria-label=${options.ariaLabel ?? nothing}
    aria-describedby=${options.describedBy || nothing}
    aria-invalid=${invalidAt(input) ? 'true' : 'false'}
    aria-required=${options.required ? 'true' : nothing}
    tabindex=${options.inGrid ? '-1' : nothing}
    ?disabled=${form.readOnly}
    @change=${(event: Event) => {
      const index = Number((event.target as HTMLSelectElement).value);
      form.setValue(path, index < 0 ? (nullable ? null : undefined) : choices[index]);
    }}
  >
    ${nullable || selected === -1 ? html`<option value="-1" .selected=${selected === -1}>${empty}</option>` : nothing}
    ${choices.map(
      (option, index) =>
        html`<option value=${index} .selected=${index === selected}>
          ${kind.format(option, form.locale)}
        </option>`,
    )}
  </select>`;
}

/** What typed text means to a kind that keeps it as text, trimmed (a date, a choice). */
export const parseText = (raw: string, schema: TargetSchema, options: InputOptions): unknown =>
  parseTrimmed(raw, schema, (text) => text, options);

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
