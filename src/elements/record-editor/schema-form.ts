/**
 * The results editor, generated from the run's target schema: an object becomes labelled
 * fields (title and description from the schema), a nested object a group of them, a list
 * of plain values a list of inputs, a list of flat objects a table (record-table.ts) and a
 * list of richer objects a stack of groups. Each control shows the schema's messages for
 * its value right under it. Everything from the schema and the data is rendered as text.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { primaryType, resolveRef, type TargetSchema } from '../../contract/json-schema.js';
import { fieldTitle } from '../internal/field-names.js';
import { closeIcon, plusIcon } from '../internal/icons.js';
import { fieldKindOf, renderControl, type ControlForm } from '../field-kinds/index.js';
import { allowsNull, pointerOf, type Path } from '../internal/values.js';
import { fieldStateText } from '../wording/review-text.js';
import type { FieldState } from './review-state.js';

export interface SchemaForm extends ControlForm {
  readonly root: TargetSchema;
  readonly headingLevel: number;
  /** The value at a path of the record, as it stands. */
  valueAt(path: Path): unknown;
  addItem(listPath: Path, itemSchema: TargetSchema): void;
  removeItem(itemPath: Path): void;
  renderTable(path: Path, schema: TargetSchema, rows: unknown[], title: string): TemplateResult;
  /** What the review beside the document says of a value; undefined without a document. */
  stateAt?(pointer: string): FieldState | undefined;
  /** Shows a value's source in the document. */
  showSource?(pointer: string): void;
}

/** An id for the control of a value, valid in `id` and in `aria-describedby` lists. */
export function controlId(path: Path, suffix = ''): string {
  return `v${encodeURIComponent(pointerOf(path)).replace(/[%'()*!~.]/g, '_')}${suffix}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when every property of an object schema is a plain value: such lists become tables. */
export function isFlatObject(schema: TargetSchema, root: TargetSchema): boolean {
  const resolved = resolveRef(schema, root);
  if (primaryType(resolved) !== 'object' || !resolved.properties) return false;
  return Object.values(resolved.properties).every((child) => {
    const type = primaryType(resolveRef(child, root));
    return type !== 'object' && type !== 'array';
  });
}

export function renderObjectFields(
  form: SchemaForm,
  schema: TargetSchema,
  value: unknown,
  path: Path,
): TemplateResult {
  const resolved = resolveRef(schema, form.root);
  const record = isRecord(value) ? value : {};
  const properties = Object.entries(resolved.properties ?? {});
  const simple = properties.filter(([, child]) => isPlainField(child, form.root));
  const complex = properties.filter(([, child]) => !isPlainField(child, form.root));
  return html`
    ${
      simple.length > 0
        ? html`<div class="fields">
            ${simple.map(([name, child]) =>
              renderField(
                form,
                name,
                child,
                record[name],
                [...path, name],
                mustBeFilled(resolved, name, form.root),
              ),
            )}
          </div>`
        : nothing
    }
    ${complex.map(([name, child]) => renderComplexField(form, name, child, record[name], [...path, name]))}
  `;
}

/**
 * Whether a person must fill a property in: the schema requires it and does not allow it
 * to be empty (null). Such fields are marked, and an emptied one asks for a value.
 */
export function mustBeFilled(parent: TargetSchema, name: string, root: TargetSchema): boolean {
  const child = parent.properties?.[name];
  return (
    (parent.required?.includes(name) ?? false) &&
    child !== undefined &&
    !allowsNull(resolveRef(child, root))
  );
}

/** Whether any plain field of a schema, at any depth, must be filled in. */
export function hasFieldsToFill(schema: TargetSchema, root: TargetSchema, depth = 0): boolean {
  const resolved = resolveRef(schema, root);
  if (depth > 16) return false;
  if (resolved.items) return hasFieldsToFill(resolved.items, root, depth + 1);
  return Object.entries(resolved.properties ?? {}).some(
    ([name, child]) =>
      (isPlainField(child, root) && mustBeFilled(resolved, name, root)) ||
      (!isPlainField(child, root) && hasFieldsToFill(child, root, depth + 1)),
  );
}

function isPlainField(schema: TargetSchema, root: TargetSchema): boolean {
  const type = primaryType(resolveRef(schema, root));
  return type !== 'object' && type !== 'array';
}

function renderMessages(form: SchemaForm, path: Path, id: string) {
  const messages = form.violationsAt(pointerOf(path));
  if (!messages?.length) return nothing;
  return html`<p class="field-error" id=${id} part="field-error">${messages.join(' ')}</p>`;
}

/**
 * A value's state in the review beside the document, in words and a badge (never in colour
 * alone): found (with "Show in document"), not found, edited by you, or needs review, with
 * why. Its id joins the control's description, so a screen reader reads it with the field.
 */
function renderFieldState(form: SchemaForm, pointer: string, id: string, title: string) {
  const state = form.stateAt?.(pointer);
  if (!state || state.kind === 'none') return nothing;
  const source =
    state.kind === 'found' ? state.source : state.kind === 'review' ? state.source : undefined;
  const page = source?.page ?? (state.kind === 'edited' ? state.picked?.page : undefined);
  const words =
    state.kind === 'found'
      ? fieldStateText.foundOn(state.source.page)
      : state.kind === 'not-found'
        ? fieldStateText.notFound
        : state.kind === 'edited'
          ? state.picked
            ? fieldStateText.editedFrom(state.picked.page)
            : fieldStateText.edited
          : fieldStateText.review;
  return html`<div class="field-state state-${state.kind}" part="field-state">
    <p class="field-state-text" id=${id}>
      <span class="badge badge-${state.kind}">${words}</span>
      ${state.kind === 'review' ? html`<span class="review-messages">${state.messages.join(' ')}</span>` : nothing}
    </p>
    ${
      page !== undefined && form.showSource
        ? html`<button
            class="button quiet small show-source"
            part="button show-source-button"
            type="button"
            aria-label=${fieldStateText.showInDocumentName(title)}
            @click=${() => form.showSource!(pointer)}
          >
            ${fieldStateText.showInDocument}
          </button>`
        : nothing
    }
  </div>`;
}

/** Whether a value has a state to show beside it (its id then joins the description). */
function hasState(form: SchemaForm, pointer: string): boolean {
  const state = form.stateAt?.(pointer);
  return !!state && state.kind !== 'none';
}

/** The mark of a field that must be filled in; the form says what it means above. */
const requiredMark = html`<span class="required-mark" aria-hidden="true">*</span>`;

function renderField(
  form: SchemaForm,
  name: string,
  schema: TargetSchema,
  value: unknown,
  path: Path,
  required: boolean,
): TemplateResult {
  const resolved = resolveRef(schema, form.root);
  const id = controlId(path);
  const title = fieldTitle(name, resolved);
  const description = resolved.description?.trim();
  const pointer = pointerOf(path);
  const invalid = !!form.violationsAt(pointer)?.length;
  const stated = hasState(form, pointer);
  const describedBy = [
    description ? `${id}-description` : '',
    invalid ? `${id}-error` : '',
    stated ? `${id}-state` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const stateText = stated ? renderFieldState(form, pointer, `${id}-state`, title) : nothing;
  const descriptionText = description
    ? html`<p class="field-description" id="${id}-description">${description}</p>`
    : nothing;
  const kind = fieldKindOf(resolved);
  const mark = required ? requiredMark : nothing;
  const input = { form, schema: resolved, value, path, options: { id, describedBy, required } };
  // A group of controls (yes or no) is labelled by the title's id, one control by its label.
  return html`<div class="field" part="field" data-pointer=${pointer}>
    ${
      kind.fieldControl
        ? html`<span class="field-label" id="${id}-label">${title}${mark}</span>`
        : html`<label class="field-label" for=${id}>${title}${mark}</label>`
    }
    ${descriptionText} ${(kind.fieldControl ?? kind.control)(input)}
    ${renderMessages(form, path, `${id}-error`)} ${stateText}
  </div>`;
}

function renderGroupHeading(
  form: SchemaForm,
  title: string,
  description: string | undefined,
  id: string,
  extra?: unknown,
) {
  return html`<div class="group-head">
    <div class="group-title" role="heading" aria-level=${form.headingLevel + 1} id=${id}>
      <span class="group-name">${title}</span>${extra ?? nothing}
    </div>
    ${description ? html`<p class="field-description">${description}</p>` : nothing}
  </div>`;
}

function renderComplexField(
  form: SchemaForm,
  name: string,
  schema: TargetSchema,
  value: unknown,
  path: Path,
) {
  const resolved = resolveRef(schema, form.root);
  const title = fieldTitle(name, resolved);
  const headingId = controlId(path, '-heading');
  const description = resolved.description?.trim();
  if (primaryType(resolved) === 'object') {
    return html`<section class="group" part="group" aria-labelledby=${headingId}>
      ${renderGroupHeading(form, title, description, headingId)}
      ${renderObjectFields(form, resolved, value, path)}
      ${renderMessages(form, path, controlId(path, '-error'))}
    </section>`;
  }
  const items = Array.isArray(value) ? value : [];
  const itemSchema = resolveRef(resolved.items ?? {}, form.root);
  if (isFlatObject(itemSchema, form.root)) return form.renderTable(path, resolved, items, title);
  const listMessages = renderMessages(form, path, controlId(path, '-error'));
  const count = html`<span class="count"
    >${items.length === 1 ? '1 item' : `${items.length} items`}</span
  >`;
  if (primaryType(itemSchema) === 'object') {
    return html`<section class="group" part="group" aria-labelledby=${headingId}>
      ${renderGroupHeading(form, title, description, headingId, count)} ${listMessages}
      ${items.map(
        (item, index) =>
          html`<section class="item-card" part="list-item" aria-label="${title} ${index + 1}">
            <div class="item-card-head">
              <span class="item-card-title">${title} ${index + 1}</span>
              ${form.readOnly ? nothing : removeButton(form, [...path, index], `Remove ${title} ${index + 1}`)}
            </div>
            ${renderObjectFields(form, itemSchema, item, [...path, index])}
          </section>`,
      )}
      ${form.readOnly ? nothing : addButton(form, path, itemSchema, `Add ${title.toLowerCase()}`)}
    </section>`;
  }
  return html`<section class="group" part="group" aria-labelledby=${headingId}>
    ${renderGroupHeading(form, title, description, headingId, count)} ${listMessages}
    ${
      items.length > 0
        ? html`<ol class="value-list" part="value-list">
            ${items.map((item, index) => {
              const itemPath = [...path, index];
              const id = controlId(itemPath);
              const invalid = !!form.violationsAt(pointerOf(itemPath))?.length;
              return html`<li class="value-item" data-pointer=${pointerOf(itemPath)}>
                <div class="value-row">
                  ${renderControl(form, itemSchema, item, itemPath, {
                    id,
                    ariaLabel: `${title} ${index + 1}`,
                    describedBy: invalid ? `${id}-error` : undefined,
                  })}
                  ${form.readOnly ? nothing : removeButton(form, itemPath, `Remove ${title} ${index + 1}`)}
                </div>
                ${renderMessages(form, itemPath, `${id}-error`)}
              </li>`;
            })}
          </ol>`
        : nothing
    }
    ${form.readOnly ? nothing : addButton(form, path, itemSchema, `Add ${title.toLowerCase()}`)}
  </section>`;
}

function removeButton(form: SchemaForm, itemPath: Path, label: string) {
  return html`<button
    class="button quiet small icon-button"
    part="button remove-item-button"
    type="button"
    aria-label=${label}
    @click=${() => form.removeItem(itemPath)}
  >
    ${closeIcon()}
  </button>`;
}

function addButton(form: SchemaForm, listPath: Path, itemSchema: TargetSchema, label: string) {
  return html`<div>
    <button
      class="button small"
      part="button add-item-button"
      type="button"
      @click=${() => form.addItem(listPath, itemSchema)}
    >
      ${plusIcon()} ${label}
    </button>
  </div>`;
}
