/**
 * A list of flat objects (invoice line items, say) as an editable grid, after the ARIA
 * grid pattern: the whole table is one Tab stop, and inside it
 *
 *   - the arrow keys move between cells, Home and End to the first and last cell of the
 *     row, Ctrl+Home and Ctrl+End to the first and last cell of the table, Page Up and
 *     Page Down by a screenful;
 *   - Enter or F2 edits the cell (typing a character starts over with it), Escape leaves
 *     it as it was before and goes back to the cell, Enter or F2 again keeps the edit;
 *     Up and Down in a text keep the edit and move on, as in a spreadsheet;
 *   - Enter or Space on a row's remove button removes the row.
 *
 * Only the cell that was last active is in the Tab order (a roving tabindex), so a table
 * of thousands of rows costs one Tab. Beyond a few dozen rows only the rows in view (plus
 * a margin) are in the DOM, between two spacer rows that keep the scrollbar honest;
 * `aria-rowcount` and `aria-rowindex` tell assistive technology the real size. A filter
 * narrows the rows to those with problems. Narrower than 600 px (the element's own width,
 * not the window's) each row is a card of labelled values, and nothing scrolls sideways.
 */
import {
  html,
  noChange,
  nothing,
  type ReactiveController,
  type ReactiveControllerHost,
  type TemplateResult,
} from 'lit';
import { Directive, directive, type ElementPart } from 'lit/directive.js';
import { repeat } from 'lit/directives/repeat.js';
import { resolveRef, type TargetSchema } from '../../contract/json-schema.js';
import { deepEqual } from '../../contract/schema-validation.js';
import { fieldKindOf, renderControl } from '../field-kinds/index.js';
import { fieldTitle } from '../internal/field-names.js';
import { closeIcon, plusIcon } from '../internal/icons.js';
import { styleProperties } from '../internal/style-properties.js';
import { tableText } from '../wording/messages.js';
import { controlId, mustBeFilled, type SchemaForm } from './schema-form.js';
import { fieldStateText } from '../wording/review-text.js';
import { getAt, pointerOf, type Path } from '../internal/values.js';

/** Up to this many rows, all are rendered; a small table needs no window. */
export const windowThreshold = 60;
const overscan = 8;

interface Cell {
  /** The row's index in the list (not its place on screen, which a filter changes). */
  row: number;
  column: number;
}

interface Column {
  name: string;
  schema: TargetSchema;
  title: string;
  required: boolean;
}

/** What the last render drew, for the keys to act on. */
interface Drawn {
  form: SchemaForm;
  path: Path;
  columns: Column[];
  /** The rows on screen, in order, by their index in the list. */
  rows: readonly number[];
  /** Cells per row a person can move to: the values, and the remove button unless read-only. */
  cellsPerRow: number;
}

export class RecordTable implements ReactiveController {
  readonly #host: ReactiveControllerHost & { updateComplete: Promise<unknown> };
  #scroller: HTMLElement | undefined;
  #stride = 44;
  #headerHeight = 40;
  #viewportHeight = 480;
  #scrollTop = 0;
  #frame = 0;
  #resizeObserver: ResizeObserver | undefined;
  #drawn: Drawn | undefined;
  /** The cell in the Tab order, and where focus goes back to after an edit. */
  #active: Cell = { row: 0, column: 0 };
  /** The cell being edited and its value before, for Escape. */
  #editing: (Cell & { before: unknown }) | undefined;
  /** While the filter is on: the rows that had problems when it was turned on. */
  #filtered: number[] | undefined;

  constructor(host: ReactiveControllerHost & { updateComplete: Promise<unknown> }) {
    this.#host = host;
    host.addController(this);
  }

  hostConnected(): void {
    // Back in the page (moved, say): its box is watched again.
    if (this.#scroller?.isConnected) this.#observe();
  }

  hostUpdated(): void {
    // The box left the page with the table (another document shows, say).
    if (this.#scroller && !this.#scroller.isConnected) this.attach(undefined);
  }

  hostDisconnected(): void {
    cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    this.#resizeObserver?.disconnect();
  }

  get filtered(): boolean {
    return this.#filtered !== undefined;
  }

  get active(): Cell {
    return this.#active;
  }

  /** The table's scrolling box, on every render (scrollerOf), or undefined once it is gone. */
  attach(element: HTMLElement | undefined): void {
    if (element === this.#scroller) return;
    this.#scroller = element;
    this.#observe();
  }

  #observe(): void {
    this.#resizeObserver?.disconnect();
    if (!this.#scroller) return;
    // Sizes are read after layout, outside the host's update, and again whenever the box
    // changes size (a narrower window turns rows into cards, a larger font).
    this.#resizeObserver = new ResizeObserver(() => this.#measure());
    this.#resizeObserver.observe(this.#scroller);
  }

  #measure(): void {
    const scroller = this.#scroller;
    if (!scroller || (this.#drawn?.rows.length ?? 0) <= windowThreshold) return;
    const [first, second] = scroller.querySelectorAll<HTMLElement>('tbody tr.row');
    const header = scroller.querySelector('thead');
    // From one row's top to the next: a card's margin counts as much as its height.
    const stride = second
      ? second.getBoundingClientRect().top - first!.getBoundingClientRect().top
      : (first?.getBoundingClientRect().height ?? 0);
    const headerHeight = header?.getBoundingClientRect().height ?? 0;
    const viewportHeight = scroller.clientHeight;
    let changed = false;
    if (stride > 0 && Math.abs(stride - this.#stride) > 0.5) {
      this.#stride = stride;
      changed = true;
    }
    if (Math.abs(headerHeight - this.#headerHeight) > 0.5) {
      this.#headerHeight = headerHeight;
      changed = true;
    }
    if (viewportHeight > 0 && viewportHeight !== this.#viewportHeight) {
      this.#viewportHeight = viewportHeight;
      changed = true;
    }
    if (changed) this.#host.requestUpdate();
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

  /** The places on screen to render: [start, end) of `count`. */
  range(count: number): { start: number; end: number } {
    if (count <= windowThreshold) return { start: 0, end: count };
    const first = this.#firstVisible(this.#scrollTop);
    const visible = this.#visibleRows();
    return {
      start: Math.max(0, first - overscan),
      end: Math.min(count, first + visible + overscan),
    };
  }

  get stride(): number {
    return this.#stride;
  }

  /** The rows to show, by index in the list: all, or those the filter kept. */
  rowsToShow(total: number): number[] {
    if (this.#filtered) {
      this.#filtered = this.#filtered.filter((row) => row < total);
      return this.#filtered;
    }
    return Array.from({ length: total }, (_, index) => index);
  }

  /** Shows only the rows with problems now, or all rows again. */
  toggleFilter(problemRows: ReadonlySet<number>): void {
    this.#filtered = this.#filtered ? undefined : [...problemRows].sort((a, b) => a - b);
    this.#scrollTop = 0;
    if (this.#scroller) this.#scroller.scrollTop = 0;
    const first = this.#filtered?.[0];
    if (first !== undefined) this.#active = { row: first, column: this.#active.column };
    this.#host.requestUpdate();
  }

  /** A row was added: it shows, whatever the filter said. */
  rowAdded(): void {
    this.#filtered = undefined;
  }

  /** A row was removed from the list: the rows after it move up one. */
  rowRemoved(index: number): void {
    if (this.#filtered)
      this.#filtered = this.#filtered
        .filter((row) => row !== index)
        .map((row) => (row > index ? row - 1 : row));
    this.#editing = undefined;
  }

  /** After a removal: the same cell of the row now in its place, or the one before. */
  async focusNear(index: number): Promise<boolean> {
    const rows = this.#drawn?.rows ?? [];
    if (rows.length === 0) return false;
    const place = Math.min(
      rows.findIndex((row) => row >= index),
      rows.length - 1,
    );
    const row = rows[place < 0 ? rows.length - 1 : place]!;
    await this.focusCell(row, this.#active.column);
    return true;
  }

  /** Scrolls the row at a place on screen into view and waits until it is rendered. */
  async reveal(place: number): Promise<void> {
    const scroller = this.#scroller;
    if (!scroller) return;
    const top = this.#headerHeight + place * this.#stride;
    if (top - this.#headerHeight < scroller.scrollTop)
      scroller.scrollTop = top - this.#headerHeight;
    else if (top + this.#stride > scroller.scrollTop + scroller.clientHeight)
      scroller.scrollTop = top + this.#stride - scroller.clientHeight;
    this.#scrollTop = scroller.scrollTop;
    this.#host.requestUpdate();
    await this.#host.updateComplete;
  }

  /**
   * Makes a cell the active one and focuses it: the cell itself, or with `edit` the
   * control in it, ready for typing.
   */
  async focusCell(row: number, column: number, options: { edit?: boolean } = {}): Promise<void> {
    this.#active = { row, column };
    const place = this.#drawn?.rows.indexOf(row) ?? row;
    await this.reveal(Math.max(0, place));
    const cell = this.#cellElement(row, column);
    if (!cell) return;
    const control = options.edit ? controlIn(cell) : undefined;
    (control ?? cell).focus();
  }

  /** Keeps the active cell and the editing state in step with focus, however it moved. */
  readonly handleFocusIn = (event: FocusEvent): void => {
    const target = event.target as HTMLElement;
    const cell = target.closest<HTMLElement>('[role="gridcell"]');
    if (!cell) return;
    const at = cellOf(cell);
    const moved = at.row !== this.#active.row || at.column !== this.#active.column;
    this.#active = at;
    if (target === cell) this.#editing = undefined;
    else if (!this.#editing || this.#editing.row !== at.row || this.#editing.column !== at.column)
      this.#editing = { ...at, before: this.#valueAt(at) };
    if (moved) this.#host.requestUpdate();
  };

  readonly handleFocusOut = (event: FocusEvent): void => {
    const next = event.relatedTarget as Node | null;
    if (!next || !this.#scroller?.contains(next)) this.#editing = undefined;
  };

  readonly handleKeydown = (event: KeyboardEvent): void => {
    const target = event.target as HTMLElement;
    const cell = target.closest<HTMLElement>('[role="gridcell"]');
    if (!cell || !this.#drawn) return;
    if (target === cell) this.#navigate(event, cell);
    else this.#edit(event, cell, target);
  };

  /** Keys on a cell: move, or start editing. */
  #navigate(event: KeyboardEvent, cell: HTMLElement): void {
    const drawn = this.#drawn!;
    const { row, column } = cellOf(cell);
    const place = drawn.rows.indexOf(row);
    const lastPlace = drawn.rows.length - 1;
    const lastColumn = drawn.cellsPerRow - 1;
    const control = controlIn(cell);
    const ctrl = event.ctrlKey || event.metaKey;
    let next: [place: number, column: number] | undefined;
    switch (event.key) {
      case 'ArrowUp':
        next = [place - 1, column];
        break;
      case 'ArrowDown':
        next = [place + 1, column];
        break;
      case 'ArrowLeft':
        next = [place, column - 1];
        break;
      case 'ArrowRight':
        next = [place, column + 1];
        break;
      case 'Home':
        next = ctrl ? [0, 0] : [place, 0];
        break;
      case 'End':
        next = ctrl ? [lastPlace, lastColumn] : [place, lastColumn];
        break;
      case 'PageUp':
        next = [place - this.#visibleRows(), column];
        break;
      case 'PageDown':
        next = [place + this.#visibleRows(), column];
        break;
      case 'Enter':
      case 'F2':
      case ' ':
        if (!control) return;
        event.preventDefault();
        if (control instanceof HTMLButtonElement) {
          if (event.key !== 'F2') control.click();
          return;
        }
        if (event.key === ' ' && control instanceof HTMLInputElement) return;
        control.focus();
        if (control instanceof HTMLInputElement && control.type === 'text') {
          const end = control.value.length;
          control.setSelectionRange(end, end);
        }
        return;
      default:
        // A character typed on a text cell starts editing it afresh with that character,
        // as in a spreadsheet: the key's text goes to the box focused here.
        if (
          event.key.length === 1 &&
          !ctrl &&
          !event.altKey &&
          control instanceof HTMLInputElement &&
          control.type === 'text' &&
          !control.readOnly
        ) {
          control.focus();
          control.select();
        }
        return;
    }
    event.preventDefault();
    const [toPlace, toColumn] = next;
    const clampedPlace = Math.min(Math.max(toPlace, 0), lastPlace);
    const clampedColumn = Math.min(Math.max(toColumn, 0), lastColumn);
    void this.focusCell(drawn.rows[clampedPlace]!, clampedColumn);
  }

  /** Keys in a cell's control: leave, keep or give up the edit. */
  #edit(event: KeyboardEvent, cell: HTMLElement, control: HTMLElement): void {
    const at = cellOf(cell);
    const text = control instanceof HTMLInputElement && control.type === 'text';
    if (event.key === 'Escape') {
      event.preventDefault();
      const editing = this.#editing;
      if (editing && !deepEqual(editing.before, this.#valueAt(at)))
        this.#setValue(at, editing.before);
      this.#editing = undefined;
      cell.focus();
    } else if (event.key === 'F2' || (event.key === 'Enter' && !event.isComposing)) {
      event.preventDefault();
      this.#editing = undefined;
      cell.focus();
    } else if (text && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
      event.preventDefault();
      this.#editing = undefined;
      cell.focus();
      this.#navigate(new KeyboardEvent('keydown', { key: event.key }), cell);
    }
  }

  #visibleRows(): number {
    return Math.max(1, Math.floor(this.#viewportHeight / this.#stride) - 1);
  }

  #firstVisible(scrollTop: number): number {
    return Math.max(0, Math.floor((scrollTop - this.#headerHeight) / this.#stride));
  }

  #cellElement(row: number, column: number): HTMLElement | null | undefined {
    return this.#scroller?.querySelector<HTMLElement>(
      `[role="gridcell"][data-row="${row}"][data-column="${column}"]`,
    );
  }

  #valueAt({ row, column }: Cell): unknown {
    const drawn = this.#drawn;
    const name = drawn?.columns[column]?.name;
    if (!drawn || name === undefined) return undefined;
    return getAt(drawn.form.valueAt(drawn.path), [row, name]);
  }

  #setValue({ row, column }: Cell, value: unknown): void {
    const drawn = this.#drawn;
    const name = drawn?.columns[column]?.name;
    if (drawn && name !== undefined) drawn.form.setValue([...drawn.path, row, name], value);
  }

  /** Remembers what a render drew (renderRecordTable calls it). */
  drew(drawn: Drawn): void {
    this.#drawn = drawn;
    const { rows, cellsPerRow } = drawn;
    // The active cell must exist, or the grid would have no Tab stop at all.
    if (rows.length > 0 && !rows.includes(this.#active.row))
      this.#active = { row: rows[0]!, column: this.#active.column };
    if (this.#active.column >= cellsPerRow) this.#active.column = Math.max(0, cellsPerRow - 1);
  }
}

function cellOf(cell: HTMLElement): Cell {
  return { row: Number(cell.dataset.row), column: Number(cell.dataset.column) };
}

function controlIn(cell: HTMLElement): HTMLElement | null {
  return cell.querySelector<HTMLElement>('input, select, button');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Hands a table its scrolling box on every render. Lit's `ref()` would also say when the
 * box goes, but brings its AsyncDirective into the views' bundle (0.7 KB gzipped): the
 * table sees that itself after each update of its host (`hostUpdated`).
 */
class ScrollerDirective extends Directive {
  render(_table: RecordTable): typeof noChange {
    return noChange;
  }

  override update(part: ElementPart, [table]: [RecordTable]): typeof noChange {
    table.attach(part.element as HTMLElement);
    return noChange;
  }
}

const scrollerOf = directive(ScrollerDirective);

export interface RecordTableOptions {
  form: SchemaForm;
  table: RecordTable;
  path: Path;
  schema: TargetSchema;
  rows: unknown[];
  title: string;
  /** Complaints about values inside the table, by pointer. */
  problems: [pointer: string, messages: readonly string[]][];
}

export function renderRecordTable(options: RecordTableOptions): TemplateResult {
  const { form, table, path, rows, title, problems } = options;
  const schema = resolveRef(options.schema, form.root);
  const itemSchema = resolveRef(schema.items ?? {}, form.root);
  const columns: Column[] = Object.entries(itemSchema.properties ?? {}).map(([name, child]) => ({
    name,
    schema: resolveRef(child, form.root),
    title: fieldTitle(name, resolveRef(child, form.root)),
    required: mustBeFilled(itemSchema, name, form.root),
  }));
  const pointer = pointerOf(path);
  const problemRows = new Set(
    problems.map(([problemPointer]) =>
      Number(problemPointer.slice(pointer.length + 1).split('/')[0]),
    ),
  );
  const shown = table.rowsToShow(rows.length);
  const cellsPerRow = columns.length + (form.readOnly ? 0 : 1);
  table.drew({ form, path, columns, rows: shown, cellsPerRow });
  const { start, end } = table.range(shown.length);
  const windowed = shown.length > windowThreshold;
  const headingId = controlId(path, '-heading');
  const hintId = controlId(path, '-keys');
  const description = schema.description?.trim();
  const active = table.active;
  const spacer = (height: number) =>
    html`<tr class="spacer" aria-hidden="true">
      <td colspan=${columns.length + 2} ${styleProperties({ height: `${height}px` })}></td>
    </tr>`;
  const listMessages = form.violationsAt(pointer);
  // The roving tabindex: only the active cell is in the Tab order.
  const tabindex = (row: number, column: number) =>
    row === active.row && column === active.column ? '0' : '-1';
  const drawing: Drawing = { form, path, columns, tabindex };
  return html`
    <section class="group table-group" part="group" aria-labelledby=${headingId}>
      <div class="group-head">
        <div class="group-title" role="heading" aria-level=${form.headingLevel + 1} id=${headingId}>
          <span class="group-name">${title}</span>
          <span class="count"
            >${table.filtered ? tableText.shownRows(shown.length, rows.length) : tableText.rows(rows.length)}</span
          >
        </div>
        ${description ? html`<p class="field-description">${description}</p>` : nothing}
        <p class="grid-hint" id=${hintId}>${tableText.keys}</p>
      </div>
      ${
        listMessages?.length
          ? html`<p class="field-error" part="field-error">${listMessages.join(' ')}</p>`
          : nothing
      }
      ${
        problems.length > 0 || table.filtered
          ? html`<div class="table-tools">
              <p class="table-problem-count">${tableText.problemCount(problemRows.size)}</p>
              <button
                class="button small"
                part="button filter-button"
                type="button"
                aria-pressed=${table.filtered ? 'true' : 'false'}
                @click=${() => table.toggleFilter(problemRows)}
              >
                ${tableText.filter}
              </button>
            </div>`
          : nothing
      }
      <div
        class="table-scroller ${windowed ? 'windowed' : ''}"
        part="table-scroller"
        ${scrollerOf(table)}
        @scroll=${table.handleScroll}
        @keydown=${table.handleKeydown}
        @focusin=${table.handleFocusIn}
        @focusout=${table.handleFocusOut}
      >
        <table
          class="records"
          part="table"
          role="grid"
          aria-labelledby=${headingId}
          aria-describedby=${hintId}
          aria-rowcount=${shown.length + 1}
          aria-readonly=${form.readOnly ? 'true' : nothing}
        >
          <thead role="rowgroup">
            <tr role="row" aria-rowindex="1">
              <th role="columnheader" class="row-number">
                <span class="visually-hidden">${tableText.row}</span>
              </th>
              ${columns.map(renderColumnHeader)}
              ${
                form.readOnly
                  ? nothing
                  : html`<th role="columnheader" class="row-actions">
                      <span class="visually-hidden">${tableText.remove}</span>
                    </th>`
              }
            </tr>
          </thead>
          <tbody role="rowgroup">
            ${start > 0 ? spacer(start * table.stride) : nothing}
            ${repeat(
              shown.slice(start, end),
              // Keyed by row: as the window moves, a focused cell keeps its row.
              (index) => index,
              (index, offset) => {
                const record = isRecord(rows[index]) ? rows[index] : {};
                return html`<tr class="row" role="row" aria-rowindex=${start + offset + 2}>
                  <th role="rowheader" class="row-number">
                    <span class="row-label">${tableText.row} </span>${index + 1}
                  </th>
                  ${columns.map((column, columnNumber) =>
                    renderCell(drawing, record, index, column, columnNumber),
                  )}
                  ${form.readOnly ? nothing : renderRemoveCell(drawing, index)}
                </tr>`;
              },
            )}
            ${end < shown.length ? spacer((shown.length - end) * table.stride) : nothing}
          </tbody>
        </table>
      </div>
      ${
        problems.length > 0
          ? html`<ul class="table-problems" part="field-error">
              ${problems.slice(0, 5).map((problem) => renderProblem(drawing, pointer, problem))}
              ${problems.length > 5 ? html`<li>${tableText.more(problems.length - 5)}</li>` : nothing}
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
                ${plusIcon()} ${tableText.addRow}
              </button>
            </div>`
      }
    </section>
  `;
}

/** A column's header: its title, and the class its field kind's width hangs on. */
function renderColumnHeader(column: Column) {
  return html`<th role="columnheader" class="col-${fieldKindOf(column.schema).name}">
    ${column.title}${column.required ? html`<span class="required-mark" aria-hidden="true">*</span>` : nothing}
  </th>`;
}

/** What the cells of a render share. */
interface Drawing {
  form: SchemaForm;
  path: Path;
  columns: Column[];
  tabindex: (row: number, column: number) => string;
}

/** One value's cell: its control, and what needs review or is wrong with it. */
function renderCell(
  { form, path, tabindex }: Drawing,
  record: Record<string, unknown>,
  index: number,
  column: Column,
  columnNumber: number,
): TemplateResult {
  const cellPath = [...path, index, column.name];
  const id = controlId(cellPath);
  const cellPointer = pointerOf(cellPath);
  const messages = form.violationsAt(cellPointer);
  const state = form.stateAt?.(cellPointer);
  const review = state?.kind === 'review' ? state.messages : undefined;
  const describedBy = [messages?.length ? `${id}-error` : '', review ? `${id}-review` : '']
    .filter(Boolean)
    .join(' ');
  return html`<td
    role="gridcell"
    class="cell ${messages?.length ? 'invalid' : ''} ${review ? 'needs-review' : ''}"
    data-pointer=${cellPointer}
    data-row=${index}
    data-column=${columnNumber}
    tabindex=${tabindex(index, columnNumber)}
  >
    <span class="cell-label" aria-hidden="true">${column.title}</span>
    ${renderControl(form, column.schema, record[column.name], cellPath, {
      id,
      ariaLabel: tableText.cellLabel(column.title, index),
      describedBy: describedBy || undefined,
      required: column.required,
      inGrid: true,
    })}
    ${
      review
        ? html`<span class="cell-review" id="${id}-review"
            ><span class="badge badge-review">${fieldStateText.review}</span>
            ${review.join(' ')}</span
          >`
        : nothing
    }
    ${
      messages?.length
        ? html`<span class="cell-error" id="${id}-error">${messages.join(' ')}</span>`
        : nothing
    }
  </td>`;
}

/** The cell of a row's remove button, the last one a person can move to in the row. */
function renderRemoveCell({ form, path, columns, tabindex }: Drawing, index: number) {
  return html`<td
    role="gridcell"
    class="row-actions"
    data-row=${index}
    data-column=${columns.length}
    tabindex=${tabindex(index, columns.length)}
  >
    <button
      class="button quiet small icon-button"
      part="button remove-row-button"
      type="button"
      tabindex="-1"
      aria-label=${tableText.removeRow(index)}
      @click=${() => form.removeItem([...path, index])}
    >
      ${closeIcon()}
    </button>
  </td>`;
}

/** One problem of the list under a table: its row and column, then what is wrong. */
function renderProblem(
  { columns }: Drawing,
  pointer: string,
  [problemPointer, messages]: [pointer: string, messages: readonly string[]],
) {
  const [rowText, name] = problemPointer.slice(pointer.length + 1).split('/');
  const column = columns.find((each) => each.name === decodeToken(name ?? ''));
  const columnTitle = column?.title ?? '';
  return html`<li>
    <span class="problem-place">${tableText.problemPlace(Number(rowText), columnTitle)}</span>
    ${messages.join(' ')}
  </li>`;
}

function decodeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}
