/**
 * The editor of one record of results: its value as the person has edited it, the schema's
 * complaints about that value, and the generated form (schema-form.ts, record-table.ts).
 * It is a reactive controller of the view that shows it and knows nothing of runs, saving
 * or submitting: the view loads a value, hears of each edit, and reads the value back. So
 * a view can hold one editor per record (a document switcher) without anything here
 * changing.
 */
import { html, nothing, type ReactiveControllerHost, type TemplateResult } from 'lit';
import {
  decodePointerToken,
  primaryType,
  resolveRef,
  type TargetSchema,
} from '../../contract/json-schema.js';
import { fieldKindOf } from '../field-kinds/index.js';
import { findSchemaProblems, testPatternNatively } from '../../contract/schema-validation.js';
import {
  describeSchemaProblem,
  requiredNote,
  serviceRefusedMessage,
  titleAt,
} from '../wording/messages.js';
import { RecordTable, renderRecordTable } from './record-table.js';
import { controlId, hasFieldsToFill, renderObjectFields, type SchemaForm } from './schema-form.js';
import type { FieldState } from './review-state.js';
import {
  emptyValue,
  getAt,
  pointerOf,
  removeItemAt,
  setAt,
  valueAtPointer,
  type Path,
} from '../internal/values.js';

export interface RecordEditorHost extends ReactiveControllerHost, HTMLElement {
  readonly renderRoot: HTMLElement | DocumentFragment;
  /** The level of the view's heading; the editor's groups are one below. */
  readonly headingLevel: number;
}

export interface RecordEditorOptions {
  /** Whether the values may be changed right now (not once submitted, not while submitting). */
  readOnly: () => boolean;
  /** Called after every change the person makes. */
  onEdit: () => void;
  /** The person's locale for numbers; the browser's when undefined. */
  locale?: string;
  /** What the review beside the document says of a value (review-state.ts). */
  stateAt?: (pointer: string) => FieldState | undefined;
  /** Shows a value's source in the document. */
  showSource?: (pointer: string) => void;
}

export type Violations = ReadonlyMap<string, readonly string[]>;

const emptySchema: TargetSchema = { type: 'object', properties: {} };

export class RecordEditor {
  readonly #host: RecordEditorHost;
  readonly #options: RecordEditorOptions;
  readonly #tables = new Map<string, RecordTable>();
  #schema: TargetSchema = emptySchema;
  #value: unknown = {};
  #violations: Violations = new Map();

  constructor(host: RecordEditorHost, options: RecordEditorOptions) {
    this.#host = host;
    this.#options = options;
  }

  /** The record as edited. */
  get value(): unknown {
    return this.#value;
  }

  get schema(): TargetSchema {
    return this.#schema;
  }

  /** The schema's complaints, by JSON pointer; empty when the record is valid. */
  get violations(): Violations {
    return this.#violations;
  }

  /** Shows `value` under `schema`, replacing what was there. */
  load(schema: TargetSchema | undefined, value: unknown): void {
    this.#schema = schema ?? emptySchema;
    this.#value = value;
    this.#violations = this.#validate(value);
    this.#host.requestUpdate();
  }

  /**
   * Marks values the service refused although the editor's own check passed them. The
   * service's words are the API's ("must match the pattern …"), so the person is told
   * plainly that it did not accept the value.
   */
  addViolations(found: readonly { pointer: string }[]): void {
    const violations = new Map(this.#violations);
    for (const { pointer } of found)
      violations.set(pointer, [...(violations.get(pointer) ?? []), serviceRefusedMessage()]);
    this.#violations = violations;
    this.#host.requestUpdate();
  }

  render(): TemplateResult {
    const form = this.#form();
    return html`${
      !form.readOnly && hasFieldsToFill(this.#schema, this.#schema)
        ? html`<p class="form-note">${requiredNote()}</p>`
        : nothing
    }
    ${renderObjectFields(form, this.#schema, this.#value, [])}`;
  }

  /**
   * What the generated controls call, as it stands for this render. It is kept off the
   * element, so none of it becomes the element's public API.
   */
  #form(): SchemaForm {
    return {
      root: this.#schema,
      readOnly: this.#options.readOnly(),
      headingLevel: this.#host.headingLevel,
      locale: this.#options.locale,
      violationsAt: (pointer) => this.#violations.get(pointer),
      valueAt: (path) => getAt(this.#value, path),
      setValue: (path, value) => this.#setValue(path, value),
      addItem: (listPath, itemSchema) => this.#addItem(listPath, itemSchema),
      removeItem: (itemPath) => this.#removeItem(itemPath),
      renderTable: (path, schema, rows, title) => this.#renderTable(path, schema, rows, title),
      stateAt: this.#options.stateAt,
      showSource: this.#options.showSource,
    };
  }

  /**
   * Fills the plain value at `pointer` with text a person picked in the document, read as
   * its field kind reads words from a page (`fromPage`): a number from the number in it
   * ("EUR 1.234,50" gives 1234.5), a date from an ISO date in it, a choice by its option's
   * words. False when the pointer names no plain value a page can fill (a yes or no), or
   * the form is read-only.
   */
  fill(pointer: string, text: string): boolean {
    if (this.#options.readOnly()) return false;
    const found = this.schemaAt(pointer);
    if (!found) return false;
    const { fromPage } = fieldKindOf(found.schema);
    if (!fromPage) return false;
    this.#setValue(found.path, fromPage(text.trim(), found.schema, this.#options.locale));
    return true;
  }

  /** The path and schema of the plain value at a JSON pointer, if it names one. */
  schemaAt(pointer: string): { path: Path; schema: TargetSchema } | undefined {
    const root = this.#schema;
    let schema = resolveRef(root, root);
    const path: (string | number)[] = [];
    for (const raw of pointer.split('/').slice(1)) {
      const token = decodePointerToken(raw);
      if (primaryType(schema) === 'array') {
        if (!/^\d+$/.test(token) || !schema.items) return undefined;
        path.push(Number(token));
        schema = resolveRef(schema.items, root);
      } else {
        const child = schema.properties?.[token];
        if (!child) return undefined;
        path.push(token);
        schema = resolveRef(child, root);
      }
    }
    const type = primaryType(schema);
    return path.length > 0 && type !== 'object' && type !== 'array' ? { path, schema } : undefined;
  }

  #setValue(path: Path, value: unknown): void {
    this.#value = setAt(this.#value, path, value);
    this.#edited();
  }

  #addItem(listPath: Path, itemSchema: TargetSchema): void {
    const list = getAt(this.#value, listPath);
    const items = Array.isArray(list) ? list : [];
    const index = items.length;
    const table = this.#tables.get(pointerOf(listPath));
    table?.rowAdded();
    this.#value = setAt(this.#value, listPath, [...items, emptyValue(itemSchema, this.#schema)]);
    this.#edited();
    void this.#afterUpdate(() => {
      // Straight into the new row's first value, ready for typing.
      if (table) return table.focusCell(index, 0, { edit: true });
      const id = controlId([...listPath, index]);
      this.#host.renderRoot.querySelector<HTMLElement>(`[id="${id}"], [id^="${id}_2F"]`)?.focus();
    });
  }

  #removeItem(itemPath: Path): void {
    const listPath = itemPath.slice(0, -1);
    const index = itemPath[itemPath.length - 1] as number;
    const table = this.#tables.get(pointerOf(listPath));
    table?.rowRemoved(index);
    this.#value = removeItemAt(this.#value, itemPath);
    this.#edited();
    void this.#afterUpdate(async () => {
      // Focus stays where the person was: the next row's cell, else the button to add one.
      if (await table?.focusNear(index)) return;
      const heading = this.#host.renderRoot.querySelector(
        `[id="${controlId(listPath, '-heading')}"]`,
      );
      heading
        ?.closest('section')
        ?.querySelector<HTMLElement>('[part~="add-row-button"], [part~="add-item-button"]')
        ?.focus();
    });
  }

  #renderTable(path: Path, schema: TargetSchema, rows: unknown[], title: string): TemplateResult {
    const pointer = pointerOf(path);
    let table = this.#tables.get(pointer);
    if (!table) {
      table = new RecordTable(this.#host);
      this.#tables.set(pointer, table);
    }
    const problems = [...this.#violations].filter(([key]) => key.startsWith(`${pointer}/`));
    return renderRecordTable({
      form: this.#form(),
      table,
      path,
      schema,
      rows,
      title,
      problems,
    });
  }

  #edited(): void {
    this.#violations = this.#validate(this.#value);
    this.#host.requestUpdate();
    this.#options.onEdit();
  }

  async #afterUpdate(then: () => unknown): Promise<void> {
    await (this.#host as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    await then();
  }

  #validate(data: unknown): Violations {
    const grouped = new Map<string, string[]>();
    for (const problem of findSchemaProblems(this.#schema, data, testPatternNatively)) {
      const { pointer } = problem;
      const message = describeSchemaProblem(problem, {
        title: titleAt(pointer, problem.schema),
        value: valueAtPointer(data, pointer),
        locale: this.#options.locale,
      });
      const list = grouped.get(pointer);
      if (list) list.push(message);
      else grouped.set(pointer, [message]);
    }
    return grouped;
  }
}
