/** HTML: the text a browser shows. */
import { scanHtml } from '../../formats/html.js';
import { embeddedImageMarker } from '../markers.js';
import type { ContentOptions, PageImage } from '../types.js';
import { withCheckedImageSizes, type DocumentFormat, type TextPage } from './format.js';
import { normaliseNewlines, textOf } from './text.js';

export const htmlFormat: DocumentFormat = {
  name: 'HTML',
  types: [
    { mediaType: 'text/html', extensions: ['.html', '.htm'], recognise: { text: looksLikeHtml } },
  ],
  pageCount: { by: 'type', pages: 1 },
  read: async (bytes, file, { options, limits }) =>
    withCheckedImageSizes(readHtml(textOf(bytes, file.name, limits), file.name, options), limits),
};

/** A document that starts as HTML does, or closes an element only HTML has. */
function looksLikeHtml(text: string): boolean {
  return (
    /^<!doctype html|^<html[\s>]|^<head[\s>]|^<body[\s>]/i.test(text) ||
    /<\/(html|body|p|div|table)>/i.test(text)
  );
}

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
