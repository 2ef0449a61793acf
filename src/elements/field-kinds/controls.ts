/**
 * The two controls the kinds are drawn with: a text box, and a select of choices. Both
 * write back through the form, read what was typed with the kind's own `parse` and show
 * the value with its `format`.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { TargetSchema } from '../../contract/json-schema.js';
import { allowsNull, pointerOf } from '../internal/values.js';
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
