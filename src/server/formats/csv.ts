/**
 * CSV as RFC 4180 says: CRLF between records, fields quoted when they hold a comma, a
 * quote or a line break (or are empty text, to tell it from null), quotes doubled inside.
 *
 * Cells are neutralised against formula injection (OWASP, "CSV injection"): a cell a
 * spreadsheet could take for a formula is written with an apostrophe before it, which
 * spreadsheets show as text instead of running it. That is a cell that starts with tab or
 * carriage return, or whose first character after any leading blanks is `=`, `+`, `-` or
 * `@`, in any of their forms (the full-width `＝` and `＋` of East Asian keyboards, which
 * spreadsheets read as `=` and `+`, included). A cell that starts with an apostrophe gets
 * one more, so that reading the CSV back (`restoreCell`, for CSV request bodies) drops
 * exactly the one that was added and gives back the value as it was. Numbers are written
 * as they are: a negative amount is data, not a formula.
 */

/** Whether a spreadsheet could read `text` as the start of a formula. */
function formulaLike(text: string): boolean {
  if (/^[\t\r]/.test(text)) return true;
  // NFKC folds the full-width and small forms (＝, ﹢, －, ＠) into the ASCII ones.
  return /^[=+\-@]/.test(text.normalize('NFKC').trimStart());
}

export function neutraliseCell(value: string): string {
  return formulaLike(value) || value.startsWith("'") ? `'${value}` : value;
}

/** The value a neutralised cell was written from: without the apostrophe it was given. */
export function restoreCell(cell: string): string {
  return cell.startsWith("'") ? cell.slice(1) : cell;
}

/**
 * A cell as RFC 4180 writes it. Null (and undefined) is an empty field, empty text a quoted
 * empty field (`""`): RFC 4180 readers that report quoting (csv-parse's `cast` context has
 * `quoting`) tell them apart, and the others read both as empty.
 */
export function formatCsvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value === '') return '""';
  // A JSON number is never a formula: -12.5 stays a number a spreadsheet can add up.
  if (typeof value === 'number') return String(value);
  const text = neutraliseCell(
    typeof value === 'string'
      ? value
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value),
  );
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function formatCsv(
  header: readonly string[],
  rows: readonly (readonly unknown[])[],
): string {
  const lines = [header.map(formatCsvCell).join(',')];
  for (const row of rows) lines.push(row.map(formatCsvCell).join(','));
  return lines.join('\r\n') + '\r\n';
}

/** Parses CSV text into rows of cells; `undefined` when a quoted field never closes. */
export function parseCsv(text: string): string[][] | undefined {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let index = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (; index < text.length; index++) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"') {
        if (text[index + 1] === '"') {
          cell += '"';
          index++;
        } else quoted = false;
      } else cell += char;
      continue;
    }
    if (char === '"' && cell === '') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += char;
  }
  if (quoted) return undefined;
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows.filter((cells) => !(cells.length === 1 && cells[0] === ''));
}
