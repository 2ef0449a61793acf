/**
 * A list of flat objects (invoice line items, say) as an editable table. Tables can hold
 * thousands of rows, so beyond a few dozen only the rows in view (plus a margin) are in
 * the DOM, between two spacer rows that keep the scrollbar honest; `aria-rowcount` and
 * `aria-rowindex` tell assistive technology the real size. Arrow keys move between cells
 * like a spreadsheet: up and down always, left and right once the caret is at the edge of
 * the text.
 */
import {
  html,
  nothing,
  type ReactiveController,
  type ReactiveControllerHost,
  type TemplateResult,
} from 'lit';
import { ref } from 'lit/directives/ref.js';
import { repeat } from 'lit/directives/repeat.js';
import { resolveRef, type TargetSchema } from '../../contract/json-schema.js';
import { fieldTitle } from '../field-names.js';
import { closeIcon, plusIcon } from '../icons.js';
import {
  controlId,
  mustBeFilled,
  renderControl,
  sentence,
  type SchemaForm,
} from './schema-form.js';
import { editorKind, pointerOf, type Path } from './values.js';
import { styleProperties } from '../style-properties.js';

/** Up to this many rows, all are rendered; a small table needs no window. */
export const windowThreshold = 60;
const overscan = 8;

export class RecordTableWindow implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  #scroller: HTMLElement | undefined;
  #rowHeight = 44;
  #headerHeight = 40;
  #viewportHeight = 480;
  #scrollTop = 0;
  #frame = 0;
  #resizeObserver: ResizeObserver | undefined;
  /** The number of rows last rendered, for keyboard moves. */
  count = 0;

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    host.addController(this);
  }

  readonly scrollerRef = (element: Element | undefined): void => {
    if (element === this.#scroller) return;
    this.#resizeObserver?.disconnect();
    this.#scroller = element as HTMLElement | undefined;
    if (!this.#scroller) return;
    // Sizes are read after layout, outside the host's update, and again whenever the box
    // changes size (a narrower window, a larger font).
    this.#resizeObserver = new ResizeObserver(() => this.#measure());
    this.#resizeObserver.observe(this.#scroller);
  };

  #measure(): void {
    const scroller = this.#scroller;
    if (!scroller || this.count <= windowThreshold) return;
    const row = scroller.querySelector('tbody tr.row');
    const header = scroller.querySelector('thead');
    const rowHeight = row?.getBoundingClientRect().height ?? 0;
    const headerHeight = header?.getBoundingClientRect().height ?? 0;
    const viewportHeight = scroller.clientHeight;
    let changed = false;
    if (rowHeight > 0 && Math.abs(rowHeight - this.#rowHeight) > 0.5) {
      this.#rowHeight = rowHeight;
      changed = true;
    }
    if (headerHeight > 0) this.#headerHeight = headerHeight;
    if (viewportHeight > 0 && viewportHeight !== this.#viewportHeight) {
      this.#viewportHeight = viewportHeight;
      changed = true;
    }
    if (changed) this.#host.requestUpdate();
  }

  hostDisconnected(): void {
    cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    this.#resizeObserver?.disconnect();
    this.#scroller = undefined;
  }

  readonly handleScroll = (): void => {
    if (this.#frame) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      const top = this.#scroller?.scrollTop ?? 0;
      const before = this.#firstVisible(this.#scrollTop);
      this.#scrollTop = top;
      if (this.#firstVisible(top) !== before) this.#host.requestUpdate();
    });
  };

  /** The rows to render: [start, end). */
  range(count: number): { start: number; end: number } {
    this.count = count;
    if (count <= windowThreshold) return { start: 0, end: count };
    const first = this.#firstVisible(this.#scrollTop);
    const visible = Math.ceil(this.#viewportHeight / this.#rowHeight);
    return {
      start: Math.max(0, first - overscan),
      end: Math.min(count, first + visible + overscan),
    };
  }

  get rowHeight(): number {
    return this.#rowHeight;
  }

  /** Scrolls a row into view and waits until it is rendered. */
  async reveal(row: number): Promise<void> {
    const scroller = this.#scroller;
    if (!scroller) return;
    const top = this.#headerHeight + row * this.#rowHeight;
    if (top - this.#headerHeight < scroller.scrollTop)
      scroller.scrollTop = top - this.#headerHeight;
    else if (top + this.#rowHeight > scroller.scrollTop + scroller.clientHeight) {
      scroller.scrollTop = top + this.#rowHeight - scroller.clientHeight;
    }
    this.#scrollTop = scroller.scrollTop;
    this.#host.requestUpdate();
    await (this.#host as ReactiveControllerHost & { updateComplete: Promise<unknown> })
      .updateComplete;
  }

  /** Focuses a cell's control, scrolling it into the window first. */
  async focusCell(row: number, column: number): Promise<void> {
    await this.reveal(row);
    this.#scroller
      ?.querySelector<HTMLElement>(`[data-row="${row}"][data-column="${column}"]`)
      ?.focus();
  }

  readonly handleKeydown = (event: KeyboardEvent): void => {
    const target = event.target as HTMLElement;
    const row = Number(target.dataset.row);
    const column = Number(target.dataset.column);
    if (!Number.isInteger(row) || !Number.isInteger(column)) return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    let nextRow = row;
    let nextColumn = column;
    if (event.key === 'ArrowUp') nextRow--;
    else if (event.key === 'ArrowDown') nextRow++;
    else if (event.key === 'ArrowLeft' && caretAtEdge(target, 'start')) nextColumn--;
    else if (event.key === 'ArrowRight' && caretAtEdge(target, 'end')) nextColumn++;
    else return;
    if (nextRow < 0 || nextRow >= this.count || nextColumn < 0) return;
    const exists =
      nextColumn === column ||
      this.#scroller?.querySelector(`[data-row="${row}"][data-column="${nextColumn}"]`);
    if (!exists) return;
    event.preventDefault();
    void this.focusCell(nextRow, nextColumn);
  };

  #firstVisible(scrollTop: number): number {
    return Math.max(0, Math.floor((scrollTop - this.#headerHeight) / this.#rowHeight));
  }
}

/** Whether the caret sits at the start or end of a text box (other controls: always). */
function caretAtEdge(element: HTMLElement, edge: 'start' | 'end'): boolean {
  if (!(element instanceof HTMLInputElement)) return true;
  if (element.type === 'checkbox') return true;
  const { selectionStart, selectionEnd } = element;
  // Date inputs move between their day, month and year with the arrows; leave them be.
  if (selectionStart === null || selectionEnd === null) return false;
  if (selectionStart !== selectionEnd) return false;
  return edge === 'start' ? selectionStart === 0 : selectionEnd === element.value.length;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface RecordTableOptions {
  form: SchemaForm;
  window: RecordTableWindow;
  path: Path;
  schema: TargetSchema;
  rows: unknown[];
  title: string;
  /** Complaints about values inside the table, by pointer. */
  problems: [pointer: string, messages: readonly string[]][];
}

export function renderRecordTable(options: RecordTableOptions): TemplateResult {
  const { form, window, path, rows, title, problems } = options;
  const schema = resolveRef(options.schema, form.root);
  const itemSchema = resolveRef(schema.items ?? {}, form.root);
  const columns = Object.entries(itemSchema.properties ?? {}).map(([name, child]) => ({
    name,
    schema: resolveRef(child, form.root),
    title: fieldTitle(name, resolveRef(child, form.root)),
    required: mustBeFilled(itemSchema, name, form.root),
  }));
  const { start, end } = window.range(rows.length);
  const windowed = rows.length > windowThreshold;
  const headingId = controlId(path, '-heading');
  const description = schema.description?.trim();
  const pointer = pointerOf(path);
  const columnIndex = new Map(columns.map((column, index) => [column.name, index]));
  const spacer = (height: number) =>
    html`<tr class="spacer" aria-hidden="true">
      <td colspan=${columns.length + 2} ${styleProperties({ height: `${height}px` })}></td>
    </tr>`;
  const listMessages = form.violationsAt(pointer);
  return html`
    <section class="group table-group" part="group" aria-labelledby=${headingId}>
      <div class="group-head">
        <div class="group-title" role="heading" aria-level=${form.headingLevel + 1} id=${headingId}>
          <span class="group-name">${title}</span>
          <span class="count">${rows.length === 1 ? '1 row' : `${rows.length} rows`}</span>
        </div>
        ${description ? html`<p class="field-description">${description}</p>` : nothing}
      </div>
      ${
        listMessages?.length
          ? html`<p class="field-error" part="field-error">
              ${listMessages.map(sentence).join(' ')}
            </p>`
          : nothing
      }
      <div
        class="table-scroller ${windowed ? 'windowed' : ''}"
        part="table-scroller"
        ${ref(window.scrollerRef)}
        @scroll=${window.handleScroll}
        @keydown=${window.handleKeydown}
      >
        <table
          class="records"
          part="table"
          aria-labelledby=${headingId}
          aria-rowcount=${rows.length + 1}
        >
          <thead>
            <tr aria-rowindex="1">
              <th scope="col" class="row-number"><span class="visually-hidden">Row</span></th>
              ${columns.map(
                (column) =>
                  html`<th scope="col" class="col-${editorKind(column.schema)}">
                    ${column.title}${column.required ? html`<span class="required-mark" aria-hidden="true">*</span>` : nothing}
                  </th>`,
              )}
              <th scope="col" class="row-actions"><span class="visually-hidden">Remove</span></th>
            </tr>
          </thead>
          <tbody>
            ${start > 0 ? spacer(start * window.rowHeight) : nothing}
            ${repeat(
              rows.slice(start, end),
              // Keyed by row number: as the window moves, a focused cell keeps its row.
              (_, offset) => start + offset,
              (row, offset) => {
                const index = start + offset;
                const record = isRecord(row) ? row : {};
                return html`<tr class="row" aria-rowindex=${index + 2}>
                  <th scope="row" class="row-number">${index + 1}</th>
                  ${columns.map((column, columnNumber) => {
                    const cellPath = [...path, index, column.name];
                    const id = controlId(cellPath);
                    const messages = form.violationsAt(pointerOf(cellPath));
                    return html`<td class=${messages?.length ? 'invalid' : ''}>
                      ${renderControl(form, column.schema, record[column.name], cellPath, {
                        id,
                        ariaLabel: `${column.title}, row ${index + 1}`,
                        required: column.required,
                        describedBy: messages?.length ? `${id}-error` : undefined,
                        row: index,
                        column: columnNumber,
                      })}
                      ${
                        messages?.length
                          ? html`<span class="visually-hidden" id="${id}-error"
                              >${messages.map(sentence).join(' ')}</span
                            >`
                          : nothing
                      }
                    </td>`;
                  })}
                  <td class="row-actions">
                    ${
                      form.readOnly
                        ? nothing
                        : html`<button
                            class="button quiet small icon-button"
                            part="button remove-row-button"
                            type="button"
                            aria-label="Remove row ${index + 1}"
                            data-row=${index}
                            data-column=${columns.length}
                            @click=${() => form.removeItem([...path, index])}
                          >
                            ${closeIcon()}
                          </button>`
                    }
                  </td>
                </tr>`;
              },
            )}
            ${end < rows.length ? spacer((rows.length - end) * window.rowHeight) : nothing}
          </tbody>
        </table>
      </div>
      ${
        problems.length > 0
          ? html`<ul class="table-problems" part="field-error">
              ${problems.slice(0, 5).map(([problemPointer, messages]) => {
                const [rowText, name] = problemPointer.slice(pointer.length + 1).split('/');
                const row = Number(rowText);
                const column = columnIndex.get(decodeToken(name ?? '')) ?? 0;
                const columnTitle = columns[column]?.title ?? '';
                return html`<li>
                  <button
                    class="problem-link"
                    type="button"
                    @click=${() => window.focusCell(row, column)}
                  >
                    Row ${row + 1}${columnTitle && name ? html` · ${columnTitle}` : nothing}:
                  </button>
                  ${messages.map(sentence).join(' ')}
                </li>`;
              })}
              ${problems.length > 5 ? html`<li>And ${problems.length - 5} more.</li>` : nothing}
            </ul>`
          : nothing
      }
      ${
        form.readOnly
          ? nothing
          : html`<div>
              <button
                class="button small"
                part="button add-row-button"
                type="button"
                @click=${() => form.addItem(path, itemSchema)}
              >
                ${plusIcon()} Add row
              </button>
            </div>`
      }
    </section>
  `;
}

function decodeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}
