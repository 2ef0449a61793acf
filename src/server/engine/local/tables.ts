/**
 * Lists of objects read from tables: a line whose cells are column labels of the item
 * properties is a header, and the lines under it are rows until a total or a gap ends it.
 */
import type { FieldPlan, ListPlan } from './fields.js';
import { foldText } from './fit.js';
import { cellAt } from './labels.js';
import type { Cell, Line, Reading } from './reading.js';
import { readValue, type ValueHit } from './values.js';
export interface Column {
  /** Undefined for a column the schema has no property for (its cells are not misread as others). */
  plan: FieldPlan | undefined;
  weight: number;
  from: number;
  to: number;
  position: number;
}

export const summaryConcepts = new Set(['total', 'subtotal', 'tax']);
export const maxRowsPerTable = 200;

/** The rows of every item table in the chunk, each as the column values it holds. */
export function readTables(list: ListPlan, reading: Reading): Map<FieldPlan, ValueHit>[] {
  const rows: Map<FieldPlan, ValueHit>[] = [];
  let index = 0;
  while (index < reading.lines.length) {
    const header = reading.lines[index]!;
    let columns = headerColumns(list, header, reading);
    if (!columns) {
      index++;
      continue;
    }
    index++;
    let blanks = 0;
    let rowsRead = 0;
    for (let count = 0; index < reading.lines.length && count < maxRowsPerTable; index++, count++) {
      const line = reading.lines[index]!;
      if (line.text.trim() === '') {
        if (++blanks >= 3) break;
        continue;
      }
      blanks = 0;
      const more = headerColumns(list, line, reading, true);
      if (more) {
        // A header may take several lines ("Cena" over "brutto"); before any row, a line
        // of column labels adds to it, after rows it starts the next table.
        if (rowsRead > 0) break;
        columns = [...columns, ...more];
        continue;
      }
      // A total, subtotal or tax line with an amount ends the table; "Tax: 0.2%" under an
      // item is a note of that item.
      const summary = reading.labels.some(
        (label) =>
          label.line === line && summaryConcepts.has(label.concept.id) && label.weight >= 5,
      );
      if (
        summary &&
        reading.amounts.some((amount) => amount.start >= line.start && amount.end <= line.end)
      )
        break;
      const row = readRow(list, columns, header, line, reading);
      if (row) {
        rows.push(row);
        rowsRead++;
      }
    }
  }
  return rows;
}

/**
 * The columns a line heads, when its column labels name at least two different item
 * properties (or, continuing a header, any) and are most of the line: a sentence that
 * mentions "price" and "quantity" is not a header.
 */
export function headerColumns(
  list: ListPlan,
  line: Line,
  reading: Reading,
  continuing = false,
): Column[] | undefined {
  const columns: Column[] = [];
  for (const label of reading.labels) {
    if (label.line !== line || label.concept.scope !== 'item') continue;
    const plan = list.columns.find((column) => column.concept === label.concept);
    columns.push({
      plan,
      weight: label.weight,
      from: label.start - line.start,
      to: label.end - line.start,
      position: cellAt(line, label.start)?.position ?? -1,
    });
  }
  // A header cell that is an item property's own name or title ("Balance", "Money In"),
  // in any table: not only the invoice's columns.
  for (const cell of line.cells) {
    if (columns.some((column) => column.from < cell.end - line.start && column.to > cell.column))
      continue;
    const folded = foldText(cell.text.replace(/\([^)]*\)/g, ''));
    const plan = list.columns.find((column) =>
      column.ownLabels.some((label) => foldText(label) === folded),
    );
    if (plan)
      columns.push({
        plan,
        weight: 8,
        from: cell.column,
        to: cell.column + cell.text.length,
        position: cell.position,
      });
  }
  const named = new Set(columns.map((column) => column.plan).filter(Boolean)).size;
  if (continuing ? columns.length === 0 : named < 2) return undefined;
  if (
    continuing &&
    reading.amounts.some((amount) => amount.start >= line.start && amount.end <= line.end)
  )
    return undefined;
  const labelled = columns.reduce((sum, column) => sum + column.to - column.from, 0);
  if (labelled < line.text.replace(/\s/g, '').length * 0.4) return undefined;
  return columns;
}

export function readRow(
  list: ListPlan,
  columns: Column[],
  header: Line,
  line: Line,
  reading: Reading,
): Map<FieldPlan, ValueHit> | undefined {
  const byPlan = new Map<FieldPlan, ValueHit[]>();
  const tabbed = header.tabbed && line.tabbed;
  const unassigned: Cell[] = [];
  for (const cell of line.cells) {
    if (cell.text === '') continue;
    const column = tabbed
      ? columns.find((candidate) => candidate.position === cell.position)
      : columnOf(columns, cell);
    if (!column) {
      unassigned.push(cell);
      continue;
    }
    if (!column.plan) continue;
    const hit = readValue(column.plan, reading, cell.start, cell.end);
    if (!hit) continue;
    byPlan.set(column.plan, [...(byPlan.get(column.plan) ?? []), hit]);
  }
  const row = new Map<FieldPlan, ValueHit>();
  for (const [plan, hits] of byPlan) {
    let best = hits[0]!;
    // Two columns that both mean "description" (code and name): the longer text tells
    // more. Several amount columns (net, tax, gross): the rightmost is the line's total.
    if (plan.kind === 'text')
      best = [...hits].sort((a, b) => String(b.value).length - String(a.value).length)[0]!;
    else if (plan.concept?.id === 'itemAmount') best = hits[hits.length - 1]!;
    row.set(plan, best);
  }
  const description = list.columns.find((column) => column.kind === 'text');
  if (description && !row.has(description)) {
    // A table without a description column still starts its rows with what they are.
    const first = unassigned.find((cell) => cell.position === 0 && /\p{L}{2}/u.test(cell.text));
    if (first) row.set(description, { value: first.text, start: first.start, end: first.end });
  }
  const hasFigure = [...row.keys()].some(
    (plan) => plan.kind === 'amount' || plan.kind === 'number' || plan.kind === 'integer',
  );
  const hasText = !description || row.has(description);
  return hasFigure && hasText ? row : undefined;
}

/** The header column a cell sits under: the one it overlaps most, else the nearest (within a few columns). */
export function columnOf(columns: Column[], cell: Cell): Column | undefined {
  const start = cell.column;
  const end = cell.column + cell.text.length;
  let best: { column: Column; score: number } | undefined;
  for (const column of columns) {
    const overlap = Math.min(end, column.to) - Math.max(start, column.from);
    const score =
      overlap > 0 ? overlap : -Math.min(Math.abs(start - column.to), Math.abs(column.from - end));
    if (score > -4 && (!best || score > best.score)) best = { column, score };
  }
  return best?.column;
}
