/**
 * One of the schema's options (`enum`), in a select. The empty choice is "None" where the
 * schema allows nothing, and a prompt where something must be chosen but nothing is yet.
 * Words picked on a page choose the option they name, whatever its case.
 */
import { msg, str } from '@lit/localize';
import { css } from 'lit';
import { allowsNull } from '../internal/values.js';
import { inSentence } from '../../locales/sentence.js';
import { choiceText, chooseOption, formatChoice, parseText, renderSelect } from './controls.js';
import type { ControlInput, FieldKind } from './field-kind.js';

function renderChoice(input: ControlInput) {
  const options = (input.schema.enum ?? []).filter((option) => option !== null);
  const empty = allowsNull(input.schema) ? choiceText.none : choiceText.prompt;
  return renderSelect(choiceKind, input, options, empty);
}

export const choiceKind: FieldKind = {
  name: 'choice',
  fits: (schema) => !!schema.enum,
  control: renderChoice,
  fieldControl: null,
  parse: parseText,
  format: formatChoice,
  fromPage: (words, schema) =>
    (schema.enum ?? []).find((option) => String(option).toLowerCase() === words.toLowerCase()) ??
    words,
  missing: (_schema, title) =>
    title
      ? msg(str`Choose the ${inSentence(title)}.`, { id: 'form.choose-named' })
      : chooseOption(),
  columnStyles: css`
    .records th.col-choice {
      width: 9rem;
      min-width: 7rem;
    }
  `,
};
