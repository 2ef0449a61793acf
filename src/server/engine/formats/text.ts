/**
 * What the readers of text share. Each format becomes plain lines a person would read:
 * markup goes, structure stays as line breaks, and table rows become one line each with
 * their cells separated by tabs, the same shape spreadsheets get, so that the local
 * strategy reads tables of every format alike.
 *
 * Every reader is linear in its input: Markdown and HTML go through maintained parsers
 * (markdown-it, parse5's tokenizer), never through regular expressions over the whole text, which
 * a hostile file can make quadratic (a 240 KB Markdown file once took half a minute).
 */
import { checkCharacters, type DocumentLimits } from '../limits.js';

/** A text file's bytes as UTF-8, refused past the limit of characters. */
export function textOf(bytes: Buffer, fileName: string, limits: DocumentLimits): string {
  const decoded = bytes.toString('utf8');
  checkCharacters(fileName, decoded.length, limits);
  return decoded;
}

/** Without a byte-order mark, and with every line break a line feed. */
export function normaliseNewlines(source: string): string {
  return source.replace(/^\ufeff/, '').replace(/\r\n?/g, '\n');
}

/** A table as lines of tab-separated cells; line breaks inside a cell become spaces. */
export function tableToText(rows: readonly (readonly string[])[]): string {
  return rows
    .map((row) =>
      row
        .map((cell) => cell.replace(/\s+/g, ' ').trim())
        .join('\t')
        .replace(/\t+$/, ''),
    )
    .join('\n');
}
