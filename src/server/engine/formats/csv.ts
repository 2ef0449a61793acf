/** CSV (RFC 4180): each record a line of tab-separated cells. */
import type { DocumentFormat, TextPage } from './format.js';
import { normaliseNewlines, tableToText, textOf } from './text.js';

export const csvFormat: DocumentFormat = {
  name: 'CSV',
  types: [{ mediaType: 'text/csv', extensions: ['.csv'], recognise: { text: looksLikeCsv } }],
  pageCount: { by: 'type', pages: 1 },
  read: async (bytes, file, { limits }) => readCsv(textOf(bytes, file.name, limits)),
};

/** At least two lines (of the first twenty) with the same number of one separator. */
function looksLikeCsv(text: string): boolean {
  const lines = text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .slice(0, 20);
  if (lines.length < 2) return false;
  for (const separator of [',', ';', '\t']) {
    const counts = lines.map((line) => line.replace(/"[^"]*"/g, '').split(separator).length - 1);
    if (counts[0]! >= 1 && counts.every((count) => count === counts[0])) return true;
  }
  return false;
}

/** RFC 4180 fields, with the delimiter (comma, semicolon or tab) taken from the first line. */
export function parseCsv(source: string): string[][] {
  const text = normaliseNewlines(source);
  const firstEnd = text.indexOf('\n');
  const firstLine = text.slice(0, firstEnd === -1 ? undefined : firstEnd).replace(/"[^"]*"/g, '');
  const delimiter = [',', ';', '\t'].reduce((best, candidate) =>
    firstLine.split(candidate).length > firstLine.split(best).length ? candidate : best,
  );
  // Fields are sliced out of the text, not built a character at a time: a 45 MB file
  // would otherwise become millions of one-character strings.
  const rows: string[][] = [];
  let row: string[] = [];
  let index = 0;
  while (index < text.length) {
    const field: string[] = [];
    if (text[index] === '"') {
      // A quoted field; a doubled quote inside it is one quote.
      index++;
      for (;;) {
        const close = text.indexOf('"', index);
        if (close === -1) {
          field.push(text.slice(index));
          index = text.length;
          break;
        }
        field.push(text.slice(index, close));
        index = close + 1;
        if (text[index] !== '"') break;
        field.push('"');
        index++;
      }
    }
    let end = index;
    while (end < text.length && text[end] !== delimiter && text[end] !== '\n') end++;
    field.push(text.slice(index, end));
    row.push(field.length === 1 ? field[0]! : field.join(''));
    if (end >= text.length || text[end] === '\n') {
      rows.push(row);
      row = [];
    } else if (end === text.length - 1) {
      // A delimiter that ends the text leaves one empty field after it.
      row.push('');
      rows.push(row);
    }
    index = end + 1;
  }
  return rows;
}

export function readCsv(source: string): TextPage[] {
  return [{ text: tableToText(parseCsv(source)), images: [] }];
}
