/**
 * What the editor knows of one kind of plain value (text, a date, a number, a choice…):
 * which schemas it takes, the control that edits it, how typed text and words picked on
 * the page become its value and how the value shows, what it asks for when it is missing,
 * and how wide its column is in a table. Every member is required, so a new kind that
 * lacks one does not compile. The kinds are listed, in the order they are asked, in
 * index.ts.
 */
import type { CSSResult, TemplateResult } from 'lit';
import type { TargetSchema } from '../../contract/json-schema.js';
import type { Path } from '../internal/values.js';

/** What a control reads of the form it is in, and how it writes its value back. */
export interface ControlForm {
  readonly readOnly: boolean;
  /** The person's locale for numbers; the browser's when undefined. */
  readonly locale: string | undefined;
  /** The schema's complaints about the value at a JSON pointer. */
  violationsAt(pointer: string): readonly string[] | undefined;
  setValue(path: Path, value: unknown): void;
}

export interface ControlOptions {
  id: string;
  /** The value must be filled in (see `mustBeFilled` in record-editor/schema-form.ts). */
  required?: boolean;
  /** For controls without a visible label (table cells, list items). */
  ariaLabel?: string;
  describedBy?: string;
  /** In a grid cell: out of the Tab order, since the cell takes focus (record-table.ts). */
  inGrid?: boolean;
}

/** One value's control, as a kind renders it. */
export interface ControlInput {
  form: ControlForm;
  /** The value's schema, its `$ref` resolved. */
  schema: TargetSchema;
  value: unknown;
  path: Path;
  options: ControlOptions;
}

export interface InputOptions {
  /** The field must have a value (the schema requires it and does not allow null). */
  required?: boolean | undefined;
  /** The locale numbers are typed in; the interface's when undefined. */
  locale?: string | undefined;
}

export interface FieldKind {
  /** The kind's name; a table's header cell of its column has the class `col-<name>`. */
  readonly name: string;
  /**
   * Whether a value of this schema is of this kind. The registry asks the kinds in its
   * order; the last, text, takes whatever no other did.
   */
  fits(schema: TargetSchema): boolean;
  /** The control in a table's cell or a list's item, wired to `form.setValue`. */
  control(input: ControlInput): TemplateResult;
  /**
   * A labelled field's own control in a form: a group of controls (radio buttons) that
   * the field's title labels by the id `<id>-label`. Null for a kind whose field shows its
   * `control`, which the title's `<label for>` points at.
   */
  readonly fieldControl: ((input: ControlInput) => TemplateResult) | null;
  /**
   * The value for what was typed. Text that does not read as the kind's value is kept as
   * typed, so the schema's check says what is expected next to the field instead of the
   * text silently vanishing; an emptied field is null where the schema allows it.
   */
  parse(raw: string, schema: TargetSchema, options: InputOptions): unknown;
  /** How a value shows as text in the kind's control. */
  format(value: unknown, locale: string | undefined): string;
  /**
   * The value for words a person picked on the page ("fill from the document"), read as
   * typed text is; null for a kind that words on a page do not fill.
   */
  readonly fromPage: ((words: string, schema: TargetSchema, locale?: string) => unknown) | null;
  /** What a missing value asks for ("Enter the invoice number."); `title` may be empty. */
  missing(schema: TargetSchema, title: string): string;
  /** The width of its column in a table: a rule for `.records th.col-<name>`. */
  readonly columnStyles: CSSResult;
}
