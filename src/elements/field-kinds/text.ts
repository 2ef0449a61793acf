/**
 * Text: what no other kind takes (strings, and anything the editor has no control of its
 * own for). Kept as typed, spaces and all; an emptied field the schema does not require is
 * the empty text.
 */
import { css } from 'lit';
import { displayValue } from '../internal/values.js';
import { enterMessage, emptyInput, renderTextBox } from './controls.js';
import type { FieldKind } from './field-kind.js';

export const textKind: FieldKind = {
  name: 'text',
  fits: () => true,
  control: (input) => renderTextBox(textKind, input),
  fieldControl: null,
  parse: (raw, schema, options) => (raw === '' ? emptyInput(schema, !options.required) : raw),
  format: displayValue,
  fromPage: (words, schema, locale) => textKind.parse(words, schema, { locale }),
  missing: enterMessage,
  // Text gets the room; numbers, dates and choices need little.
  columnStyles: css`
    .records th.col-text {
      min-width: 13rem;
    }
  `,
};
