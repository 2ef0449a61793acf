/**
 * Yes or no. In a form, two radio buttons side by side, and a third, "Not known", where
 * the schema allows the value to be empty; in a table or a list, a select of the same.
 * Words on a page do not say yes or no, so picking them fills nothing.
 */
import { css, html, nothing, type TemplateResult } from 'lit';
import { primaryType } from '../../contract/json-schema.js';
import { allowsNull, pointerOf } from '../internal/values.js';
import { choiceText, chooseYesOrNo, formatChoice, parseText, renderSelect } from './controls.js';
import type { ControlInput, FieldKind } from './field-kind.js';

/**
 * The radio buttons of a field. A value that was not found selects none of them, which
 * shows it as unknown rather than as a "no" nobody chose.
 */
function renderYesNo({ form, schema, value, path, options }: ControlInput): TemplateResult {
  const invalid = !!form.violationsAt(pointerOf(path))?.length;
  const choices: [unknown, string][] = [
    [true, choiceText.yes],
    [false, choiceText.no],
  ];
  if (allowsNull(schema)) choices.push([null, choiceText.unknown]);
  return html`<div
    class="yes-no"
    role="radiogroup"
    aria-labelledby="${options.id}-label"
    aria-describedby=${options.describedBy || nothing}
    aria-required=${options.required ? 'true' : nothing}
  >
    ${choices.map(
      ([choice, label], index) =>
        html`<label class="yes-no-option">
          <input
            class="radio"
            type="radio"
            id=${index === 0 ? options.id : `${options.id}-${index}`}
            name=${options.id}
            aria-invalid=${invalid ? 'true' : 'false'}
            .checked=${value === choice || (choice === null && value === undefined)}
            ?disabled=${form.readOnly}
            @change=${() => form.setValue(path, choice)}
          />
          <span>${label}</span>
        </label>`,
    )}
  </div>`;
}

export const booleanKind: FieldKind = {
  name: 'boolean',
  fits: (schema) => primaryType(schema) === 'boolean',
  control: (input) => renderSelect(booleanKind, input, [true, false], choiceText.unknown),
  fieldControl: renderYesNo,
  parse: parseText,
  format: formatChoice,
  fromPage: null,
  missing: chooseYesOrNo,
  columnStyles: css`
    .records th.col-boolean {
      width: 5rem;
    }
  `,
};
