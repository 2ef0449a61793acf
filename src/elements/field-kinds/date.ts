/**
 * A date (`format: "date"`): the browser's date input while the value is an ISO date
 * (YYYY-MM-DD), a text box for anything else the machine read, so it stays editable.
 */
import { css } from 'lit';
import { primaryType } from '../../contract/json-schema.js';
import { displayValue } from '../internal/values.js';
import { enterMessage, parseText, renderTextBox } from './controls.js';
import type { ControlInput, FieldKind } from './field-kind.js';

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

/** A date input shows only ISO dates; anything else stays editable as text. */
export function fitsDateInput(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    value === '' ||
    (typeof value === 'string' && isoDate.test(value))
  );
}

function renderDate(input: ControlInput) {
  return fitsDateInput(input.value)
    ? renderTextBox(dateKind, input, { type: 'date', noSpellcheck: true })
    : renderTextBox(dateKind, input);
}

export const dateKind: FieldKind = {
  name: 'date',
  fits: (schema) => primaryType(schema) === 'string' && schema.format === 'date',
  control: renderDate,
  fieldControl: null,
  parse: parseText,
  format: displayValue,
  // The ISO date in the words picked, if there is one.
  fromPage: (words, schema, locale) =>
    dateKind.parse((/\d{4}-\d{2}-\d{2}/.exec(words)?.[0] ?? words).trim(), schema, { locale }),
  missing: enterMessage,
  columnStyles: css`
    .records th.col-date {
      width: 10.5rem;
      min-width: 10rem;
    }
  `,
};
