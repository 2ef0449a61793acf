/**
 * CSV as RFC 4180 says: CRLF between records, fields quoted when they hold a comma, a
 * quote or a line break, quotes doubled inside. Cells are neutralised against formula
 * injection (OWASP): one that starts with =, +, -, @, tab or carriage return is prefixed
 * with an apostrophe so a spreadsheet shows it as text instead of running it. Numbers are
 * written as they are: a negative amount is data, not a formula.
 */
const formulaStart = /^[=+\-@\t\r]/;

export function neutraliseCell(value: string): string {
  return formulaStart.test(value) ? `'${value}` : value;
}

export function formatCsvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
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
