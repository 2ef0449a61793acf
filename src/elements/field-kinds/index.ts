/**
 * The field kinds, in the order they are asked which takes a schema: a schema with options
 * is a choice whatever its type, and text takes what is left. To add a kind, write its file
 * (field-kind.ts says what it must have) and put it in this list.
 */
import { resolveRef, type TargetSchema } from '../../contract/json-schema.js';
import { booleanKind } from './boolean.js';
import { choiceKind } from './choice.js';
import { dateKind } from './date.js';
import type { ControlForm, ControlOptions, FieldKind, InputOptions } from './field-kind.js';
import { integerKind, numberKind } from './number.js';
import { textKind } from './text.js';
import type { Path } from '../internal/values.js';

export type { ControlForm, ControlOptions, FieldKind, InputOptions } from './field-kind.js';

export const fieldKinds: readonly FieldKind[] = [
  choiceKind,
  booleanKind,
  integerKind,
  numberKind,
  dateKind,
  textKind,
];

/** The kind of a plain value of this schema (its `$ref` resolved). */
export function fieldKindOf(schema: TargetSchema): FieldKind {
  return fieldKinds.find((kind) => kind.fits(schema)) ?? textKind;
}

/** The value for what was typed into the control of a value of this schema. */
export function valueFromInput(
  schema: TargetSchema,
  raw: string,
  options: InputOptions = {},
): unknown {
  return fieldKindOf(schema).parse(raw, schema, options);
}

/** The control for one plain value, wired to write back through `form.setValue`. */
export function renderControl(
  form: ControlForm & { readonly root: TargetSchema },
  schema: TargetSchema,
  value: unknown,
  path: Path,
  options: ControlOptions,
) {
  const resolved = resolveRef(schema, form.root);
  return fieldKindOf(resolved).control({ form, schema: resolved, value, path, options });
}

/** The widths of the kinds' columns in a table. */
export const columnStyles = fieldKinds.map((kind) => kind.columnStyles);
