/**
 * The formats that are text already: plain text, Markdown, CSV and HTML. Each becomes plain
 * lines a person would read: markup goes, structure stays as line breaks, and table rows
 * become one line each with their cells separated by tabs, the same shape spreadsheets get,
 * so that the local strategy reads tables of every format alike.
 *
 * Every reader is linear in its input: Markdown and HTML go through maintained parsers
 * (markdown-it, parse5's tokenizer), never through regular expressions over the whole text, which
 * a hostile file can make quadratic (a 240 KB Markdown file once took half a minute).
 */
import MarkdownIt, { type Token } from 'markdown-it';
import { scanHtml } from '../../formats/html.js';
import { embeddedImageMarker } from '../markers.js';
import type { ContentOptions, PageImage } from '../types.js';

export interface TextPage {
  text: string;
  images: PageImage[];
}

/** Plain text; a form feed starts a new page, as printers and `pdftotext` agree. */
export function readPlainText(source: string): TextPage[] {
  return normaliseNewlines(source)
    .split('\f')
    .map((text) => ({ text, images: [] }));
}

function normaliseNewlines(source: string): string {
  return source.replace(/^\ufeff/, '').replace(/\r\n?/g, '\n');
}

// ---------------------------------------------------------------------------------------
// CSV

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

export function readCsv(source: string): TextPage[] {
  return [{ text: tableToText(parseCsv(source)), images: [] }];
}

// ---------------------------------------------------------------------------------------
// Markdown

const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

/**
 * Markdown without its markup: headings, emphasis and code marks go, links keep their
 * address in brackets, list items keep their bullet or number, tables become tab-separated
 * rows. Underscores inside words (`invoice_number_1`) are text, not emphasis, and stay.
 * Blocks stay on the lines they had in the file, so blank lines between them stay too.
 */
export function readMarkdown(
  source: string,
  fileName: string,
  options: ContentOptions,
): TextPage[] {
  const text = normaliseNewlines(source);
  const tokens = markdown.parse(text, {});
  const out: string[] = [];
  let line = '';
  let imageCount = 0;
  let cells: string[] | undefined;
  const lists: { ordered: boolean }[] = [];
  const endLine = () => {
    out.push(line);
    line = '';
  };
  const inline = (children: Token[]): string => {
    let result = '';
    const links: string[] = [];
    for (const child of children) {
      switch (child.type) {
        case 'text':
        case 'code_inline':
        case 'html_inline':
          result += child.content;
          break;
        case 'softbreak':
        case 'hardbreak':
          result += '\n';
          break;
        case 'link_open':
          links.push(String(child.attrGet('href') ?? ''));
          break;
        case 'link_close': {
          const href = links.pop();
          if (href) result += ` (${href})`;
          break;
        }
        case 'image': {
          imageCount++;
          const alt = child.content;
          result += options.markEmbeddedImages
            ? embeddedImageMarker(`${fileName}, image ${imageCount}${alt ? ` (${alt})` : ''}`)
            : alt;
          break;
        }
      }
    }
    return result;
  };
  const sourceLines = text.split('\n');
  const isBlank = (index: number) => sourceLines[index]!.trim() === '';
  let previousStart = 0;
  for (const token of tokens) {
    // A top-level block starts on its own line, after as many blank lines as the file had
    // there (a list's extent may take in the blank line after it, so they are counted).
    if (token.level === 0 && token.nesting !== -1 && token.map) {
      const start = token.map[0];
      if (line !== '') endLine();
      if (out.length > 0) {
        let blanks = 0;
        for (let index = start - 1; index > previousStart && isBlank(index); index--) blanks++;
        for (let blank = 0; blank < blanks; blank++) out.push('');
      }
      previousStart = start;
    }
    switch (token.type) {
      case 'inline':
        if (cells) cells.push(inline(token.children ?? []).trim());
        else line += inline(token.children ?? []);
        break;
      case 'bullet_list_open':
      case 'ordered_list_open':
        lists.push({ ordered: token.type === 'ordered_list_open' });
        break;
      case 'bullet_list_close':
      case 'ordered_list_close':
        lists.pop();
        break;
      case 'list_item_open':
        if (line !== '') endLine();
        line += lists.at(-1)?.ordered ? `${token.info}${token.markup} ` : '- ';
        break;
      case 'paragraph_close':
      case 'heading_close':
        if (line !== '' && !/^(- |\d+[.)] )$/.test(line)) endLine();
        break;
      case 'code_block':
      case 'fence':
        if (line !== '') endLine();
        line = token.content.replace(/\n$/, '');
        endLine();
        break;
      case 'tr_open':
        cells = [];
        break;
      case 'tr_close':
        line = (cells ?? []).join('\t');
        cells = undefined;
        endLine();
        break;
    }
  }
  if (line !== '') endLine();
  // As many line breaks after the last block as the file had.
  for (let index = sourceLines.length - 1; index > previousStart && isBlank(index); index--)
    out.push('');
  return [{ text: out.join('\n'), images: [] }];
}

// ---------------------------------------------------------------------------------------
// HTML

const blockElements = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'caption',
  'dd',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'html',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'tbody',
  'tfoot',
  'thead',
  'title',
  'tr',
  'ul',
]);
const skippedElements = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'head',
  'iframe',
  'object',
]);

const dataImage = /^data:(image\/(?:png|jpeg|webp));base64,([a-z0-9+/=\s]+)$/i;

/** Trailing spaces and tabs off a line, without a regular expression anchored at its end. */
function withoutTrailingBlanks(text: string, blanks = ' \t'): string {
  let end = text.length;
  while (end > 0 && blanks.includes(text[end - 1]!)) end--;
  return end === text.length ? text : text.slice(0, end);
}

const isWhitespace = (char: string | undefined) => char !== undefined && /\s/.test(char);

/**
 * The line being written, as the pieces it was written in: its end is looked at and trimmed
 * after every tag, and doing that on one long string would copy it each time.
 */
class LineBuilder {
  #pieces: string[] = [];
  length = 0;

  append(text: string): void {
    if (text === '') return;
    this.#pieces.push(text);
    this.length += text.length;
  }

  get lastChar(): string | undefined {
    return this.#pieces.at(-1)?.at(-1);
  }

  trimEnd(blanks = ' \t'): void {
    for (let last = this.#pieces.at(-1); last !== undefined; last = this.#pieces.at(-1)) {
      const trimmed = withoutTrailingBlanks(last, blanks);
      this.length -= last.length - trimmed.length;
      if (trimmed !== '') {
        this.#pieces[this.#pieces.length - 1] = trimmed;
        return;
      }
      this.#pieces.pop();
    }
  }

  /** The line's text; the builder starts a new line. */
  take(): string {
    const text = this.#pieces.join('');
    this.#pieces = [];
    this.length = 0;
    return text;
  }
}

/**
 * HTML as the text a browser shows: scripts, styles and the head are dropped, block
 * elements and `<br>` end lines, table cells are separated by tabs and rows by lines,
 * list items start with "- ", and whitespace collapses as it does on screen (except in
 * `<pre>`). Pictures given inline as data: URLs are embedded images. The markup is read,
 * and character references decoded, in one pass (formats/html.ts, `scanHtml`).
 */
export function readHtml(source: string, fileName: string, options: ContentOptions): TextPage[] {
  const lines: string[] = [];
  /** Characters in `lines` so far, each line with its line break. */
  let linesLength = 0;
  const line = new LineBuilder();
  let skipping: string | undefined;
  let preDepth = 0;
  let cellInRow = 0;
  // Inside a table cell, paragraphs (Word puts one in every cell) are not new lines.
  let cellDepth = 0;
  let imageCount = 0;
  const images: PageImage[] = [];
  /** The last character written, the line break between lines included. */
  const lastChar = () => line.lastChar ?? (lines.length > 0 ? '\n' : undefined);
  const newline = () => {
    line.trimEnd();
    if (line.length > 0 || lines.length === 0) {
      const text = line.take();
      lines.push(text);
      linesLength += text.length + 1;
    }
  };
  const block = (name: string) => {
    if (skipping) return;
    if (name === 'br') newline();
    else if (name === 'pre') newline();
    else if (name === 'tr') {
      newline();
      cellInRow = 0;
    } else if (blockElements.has(name)) {
      if (cellDepth === 0) newline();
      else if (!isWhitespace(lastChar())) line.append(' ');
    }
  };
  scanHtml(normaliseNewlines(source), {
    onOpenTag(name, attributes) {
      if (skipping) return;
      if (skippedElements.has(name)) {
        skipping = name;
        return;
      }
      if (name === 'pre') preDepth++;
      if (name === 'td' || name === 'th') {
        if (cellInRow > 0) {
          line.trimEnd(' ');
          line.append('\t');
        }
        cellInRow++;
        cellDepth++;
      } else if (name === 'li') {
        newline();
        line.append('- ');
      } else if (name === 'img') {
        imageCount++;
        const alt = (attributes.alt ?? '').trim();
        const label = `${fileName}, image ${imageCount}${alt ? ` (${alt})` : ''}`;
        if (options.markEmbeddedImages) line.append(` ${embeddedImageMarker(label)} `);
        else if (alt) line.append(` ${alt} `);
        const inline = dataImage.exec(attributes.src ?? '');
        if (options.includeEmbeddedImages && inline) {
          images.push({
            kind: 'embedded',
            label,
            mediaType: inline[1]!.toLowerCase() as PageImage['mediaType'],
            data: inline[2]!.replace(/\s+/g, ''),
            width: 0,
            height: 0,
            offset: linesLength + line.length,
          });
        }
      } else block(name);
    },
    onCloseTag(name) {
      if (skipping) {
        if (name === skipping) skipping = undefined;
        return;
      }
      if (name === 'pre') preDepth = Math.max(0, preDepth - 1);
      if (name === 'td' || name === 'th') cellDepth = Math.max(0, cellDepth - 1);
      else if (name !== 'br' && name !== 'li' && name !== 'img') block(name);
    },
    onText(raw) {
      if (skipping || raw === '') return;
      // Collapsing as browsers do: ASCII whitespace only, a no-break space stays.
      const text = preDepth > 0 ? raw : raw.replace(/[ \t\n\f\r]+/g, ' ');
      if (preDepth > 0) {
        // Line by line, so the lines of a <pre> are lines here too.
        const parts = text.split('\n');
        parts.forEach((part, index) => {
          if (index > 0) newline();
          line.append(part);
        });
      } else if (text.startsWith(' ') && (lastChar() === undefined || isWhitespace(lastChar())))
        line.append(text.slice(1));
      else line.append(text);
    },
  });
  newline();

  // Tidy the lines: trim each, squeeze blank runs, then find each image's marker again.
  const text = lines
    .map((each) => withoutTrailingBlanks(each, ' ').replace(/^[ ]+/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  let searchFrom = 0;
  for (const image of images) {
    const at = text.indexOf(embeddedImageMarker(image.label), searchFrom);
    if (at >= 0) searchFrom = at;
    image.offset = at >= 0 ? at : Math.min(image.offset, text.length);
  }
  return [{ text, images }];
}
