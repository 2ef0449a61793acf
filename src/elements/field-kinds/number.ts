/**
 * Numbers and whole numbers: typed and shown in the person's locale ("1.234,5" in German),
 * right-aligned in a table's column so amounts line up on their last digit, as in a ledger.
 */
import { css, type CSSResult } from 'lit';
import { primaryType, type JsonType } from '../../contract/json-schema.js';
import { displayValue, parseNumber } from '../internal/values.js';
import { enterMessage, parseTrimmed, renderTextBox } from './controls.js';
import type { ControlInput, FieldKind } from './field-kind.js';

/** A number in words picked on a page: "EUR 1.234,50" has 1.234,50, "12 345" has 12 345. */
const numberInWords = /[-−+]?\d{1,3}(?:[ \u00a0\u202f'’]\d{3})+(?:[.,]\d+)?|[-−+]?\d[\d.,]*\d|\d/;

function numericKind(
  name: 'number' | 'integer',
  inputmode: 'decimal' | 'numeric',
  columnStyles: CSSResult,
): FieldKind {
  const render = (input: ControlInput) =>
    renderTextBox(kind, input, { numeric: true, inputmode, noSpellcheck: true });
  const kind: FieldKind = {
    name,
    fits: (schema) => primaryType(schema) === (name satisfies JsonType),
    control: render,
    fieldControl: null,
    // Text that is not a number is kept as typed, for the schema's check to speak of.
    parse: (raw, schema, options) =>
      parseTrimmed(
        raw,
        schema,
        (text) => {
          const number = parseNumber(text, options.locale);
          return Number.isFinite(number) ? number : raw;
        },
        options,
      ),
    format: displayValue,
    fromPage: (words, schema, locale) =>
      kind.parse((numberInWords.exec(words)?.[0] ?? words).trim(), schema, { locale }),
    missing: enterMessage,
    columnStyles,
  };
  return kind;
}

export const numberKind = numericKind(
  'number',
  'decimal',
  css`
    .records th.col-number {
      width: 7.5rem;
      min-width: 6rem;
      text-align: end;
      font-variant-numeric: tabular-nums;
    }
  `,
);

export const integerKind = numericKind(
  'integer',
  'numeric',
  css`
    .records th.col-integer {
      width: 7.5rem;
      min-width: 6rem;
      text-align: end;
      font-variant-numeric: tabular-nums;
    }
  `,
);
