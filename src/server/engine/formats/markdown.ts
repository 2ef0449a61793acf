/** Markdown: the text without its markup. */
import MarkdownIt, { type Token } from 'markdown-it';
import { embeddedImageMarker } from '../markers.js';
import type { ContentOptions } from '../types.js';
import type { DocumentFormat, TextPage } from './format.js';
import { normaliseNewlines, textOf } from './text.js';

export const markdownFormat: DocumentFormat = {
  name: 'Markdown',
  types: [
    {
      mediaType: 'text/markdown',
      extensions: ['.md', '.markdown'],
      recognise: { text: looksLikeMarkdown },
    },
  ],
  pageCount: { by: 'type', pages: 1 },
  read: async (bytes, file, { options, limits }) =>
    readMarkdown(textOf(bytes, file.name, limits), file.name, options),
};

/** A heading, or two other marks of Markdown's syntax. */
function looksLikeMarkdown(text: string): boolean {
  const markers = [
    /^#{1,6}\s+\S/m, // headings
    /^\s*[-*+]\s+\S/m, // bullet lists
    /^\s*\d+\.\s+\S/m, // numbered lists
    /\[[^\]]+\]\([^)]+\)/, // links
    /^```/m, // fenced code
    /^\|.*\|\s*$/m, // tables
    /\*\*[^*]+\*\*/, // bold
  ];
  return markers.filter((marker) => marker.test(text)).length >= 2 || /^#{1,6}\s+\S/m.test(text);
}

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
