/**
 * The formats that are text already: plain text, Markdown, CSV and HTML. Each becomes plain
 * lines a person would read: markup goes, structure stays as line breaks, and table rows
 * become one line each with their cells separated by tabs, the same shape spreadsheets get,
 * so that the local strategy reads tables of every format alike.
 */
import { embeddedImageMarker } from './markers.js';
import type { ContentOptions, PageImage } from './types.js';

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
  const firstLine = text
    .slice(0, text.indexOf('\n') === -1 ? undefined : text.indexOf('\n'))
    .replace(/"[^"]*"/g, '');
  const delimiter = [',', ';', '\t'].reduce((best, candidate) =>
    firstLine.split(candidate).length > firstLine.split(best).length ? candidate : best,
  );
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === delimiter) {
      row.push(field);
      field = '';
    } else if (char === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
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

/**
 * Markdown without its markup: headings, emphasis and code marks go, links keep their
 * address in brackets, tables become tab-separated rows. Underscores inside words
 * (`invoice_number_1`) are text, not emphasis, and stay.
 */
export function readMarkdown(
  source: string,
  fileName: string,
  options: ContentOptions,
): TextPage[] {
  let imageCount = 0;
  const lines = normaliseNewlines(source)
    .split('\n')
    .filter((line) => !/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line)) // table rule rows
    .map((line) => {
      let text = line.replace(/^\s{0,3}#{1,6}\s+/, '').replace(/\s+#+\s*$/, '');
      if (/^\s*\|.*\|\s*$/.test(text)) {
        text = text
          .trim()
          .replace(/^\||\|$/g, '')
          .split('|')
          .map((cell) => cell.trim())
          .join('\t');
      }
      text = text.replace(/!\[([^\]]*)\]\(([^)]*)\)/g, (_, alt: string) => {
        imageCount++;
        return options.markEmbeddedImages
          ? embeddedImageMarker(`${fileName}, image ${imageCount}${alt ? ` (${alt})` : ''}`)
          : alt;
      });
      return text
        .replace(/\[([^\]]+)\]\(([^)\s]+)[^)]*\)/g, '$1 ($2)')
        .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
        .replace(/(^|[\s(])([*_])(?=\S)(.+?)(?<=\S)\2(?=[\s).,;:!?]|$)/g, '$1$3')
        .replace(/`([^`]+)`/g, '$1');
    });
  return [{ text: lines.join('\n'), images: [] }];
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

const namedEntities: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  euro: '€',
  pound: '£',
  yen: '¥',
  cent: '¢',
  copy: '©',
  reg: '®',
  trade: '™',
  deg: '°',
  sect: '§',
  para: '¶',
  middot: '·',
  bull: '•',
  hellip: '…',
  ndash: '–',
  mdash: '—',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  times: '×',
  divide: '÷',
  plusmn: '±',
  frac12: '½',
  frac14: '¼',
  frac34: '¾',
  sup2: '²',
  sup3: '³',
  micro: 'µ',
  shy: '',
  zwnj: '',
  zwj: '',
  ensp: ' ',
  emsp: ' ',
  thinsp: ' ',
  iexcl: '¡',
  iquest: '¿',
  ordm: 'º',
  ordf: 'ª',
  agrave: 'à',
  aacute: 'á',
  acirc: 'â',
  atilde: 'ã',
  auml: 'ä',
  aring: 'å',
  aelig: 'æ',
  ccedil: 'ç',
  egrave: 'è',
  eacute: 'é',
  ecirc: 'ê',
  euml: 'ë',
  igrave: 'ì',
  iacute: 'í',
  icirc: 'î',
  iuml: 'ï',
  ntilde: 'ñ',
  ograve: 'ò',
  oacute: 'ó',
  ocirc: 'ô',
  otilde: 'õ',
  ouml: 'ö',
  oslash: 'ø',
  ugrave: 'ù',
  uacute: 'ú',
  ucirc: 'û',
  uuml: 'ü',
  yacute: 'ý',
  yuml: 'ÿ',
  szlig: 'ß',
  Agrave: 'À',
  Aacute: 'Á',
  Acirc: 'Â',
  Atilde: 'Ã',
  Auml: 'Ä',
  Aring: 'Å',
  AElig: 'Æ',
  Ccedil: 'Ç',
  Egrave: 'È',
  Eacute: 'É',
  Ecirc: 'Ê',
  Euml: 'Ë',
  Igrave: 'Ì',
  Iacute: 'Í',
  Icirc: 'Î',
  Iuml: 'Ï',
  Ntilde: 'Ñ',
  Ograve: 'Ò',
  Oacute: 'Ó',
  Ocirc: 'Ô',
  Otilde: 'Õ',
  Ouml: 'Ö',
  Oslash: 'Ø',
  Ugrave: 'Ù',
  Uacute: 'Ú',
  Ucirc: 'Û',
  Uuml: 'Ü',
  Yacute: 'Ý',
};

/** Character references: numeric ones all, named ones those that invoices and letters use. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);?/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X'
          ? parseInt(name.slice(2), 16)
          : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : '\ufffd';
    }
    return namedEntities[name] ?? namedEntities[name.toLowerCase()] ?? whole;
  });
}

const dataImage = /^data:(image\/(?:png|jpeg|webp));base64,([a-z0-9+/=\s]+)$/i;

/**
 * HTML as the text a browser shows: scripts, styles and the head are dropped, block
 * elements and `<br>` end lines, table cells are separated by tabs and rows by lines,
 * list items start with "- ", and whitespace collapses as it does on screen (except in
 * `<pre>`). Pictures given inline as data: URLs are embedded images.
 */
export function readHtml(source: string, fileName: string, options: ContentOptions): TextPage[] {
  const html = normaliseNewlines(source)
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '')
    .replace(/<![^>]*>|<\?[^>]*>/g, ''); // doctype and processing instructions
  const tagPattern = /<(\/?)([a-z][a-z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/gi;
  let out = '';
  let skipping: string | undefined;
  let preDepth = 0;
  let cellInRow = 0;
  // Inside a table cell, paragraphs (Word puts one in every cell) are not new lines.
  let cellDepth = 0;
  let imageCount = 0;
  const images: PageImage[] = [];
  let last = 0;
  const newline = () => {
    out = out.replace(/[ \t]+$/, '');
    if (!out.endsWith('\n')) out += '\n';
  };
  const appendText = (raw: string) => {
    if (skipping || raw === '') return;
    // Collapsing as browsers do: ASCII whitespace only, a no-break space stays.
    const text = decodeEntities(preDepth > 0 ? raw : raw.replace(/[ \t\n\f\r]+/g, ' '));
    if (preDepth === 0 && (out === '' || /[\s]$/.test(out)) && text.startsWith(' '))
      out += text.slice(1);
    else out += text;
  };
  for (const match of html.matchAll(tagPattern)) {
    appendText(html.slice(last, match.index));
    last = match.index + match[0].length;
    const closing = match[1] === '/';
    const name = match[2]!.toLowerCase();
    if (skipping) {
      if (closing && name === skipping) skipping = undefined;
      continue;
    }
    if (skippedElements.has(name)) {
      if (!closing && !/\/\s*$/.test(match[3]!)) skipping = name;
      continue;
    }
    if (name === 'br') newline();
    else if (name === 'pre') {
      preDepth += closing ? -1 : 1;
      newline();
    } else if (name === 'tr') {
      newline();
      cellInRow = 0;
    } else if (name === 'td' || name === 'th') {
      if (!closing) {
        if (cellInRow > 0) out = out.replace(/[ ]+$/, '') + '\t';
        cellInRow++;
        cellDepth++;
      } else cellDepth = Math.max(0, cellDepth - 1);
    } else if (name === 'li' && !closing) {
      newline();
      out += '- ';
    } else if (name === 'img' && !closing) {
      imageCount++;
      const attribute = (key: string) =>
        new RegExp(`\\s${key}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i')
          .exec(match[3]!)
          ?.slice(1)
          .find((v) => v !== undefined);
      const alt = decodeEntities(attribute('alt') ?? '').trim();
      const label = `${fileName}, image ${imageCount}${alt ? ` (${alt})` : ''}`;
      if (options.markEmbeddedImages) out += ` ${embeddedImageMarker(label)} `;
      else if (alt) out += ` ${alt} `;
      const inline = dataImage.exec(attribute('src') ?? '');
      if (options.includeEmbeddedImages && inline) {
        images.push({
          kind: 'embedded',
          label,
          mediaType: inline[1]!.toLowerCase() as PageImage['mediaType'],
          data: inline[2]!.replace(/\s+/g, ''),
          width: 0,
          height: 0,
          offset: out.length,
        });
      }
    } else if (blockElements.has(name)) {
      if (cellDepth === 0) newline();
      else if (!/[\s]$/.test(out)) out += ' ';
    }
  }
  appendText(html.slice(last));

  // Tidy the lines without moving the images' offsets out of step: trim each line, then
  // squeeze blank runs, and find each image's marker again afterwards.
  const text = out
    .split('\n')
    .map((line) => line.replace(/^[ ]+|[ ]+$/g, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  for (const image of images) {
    const at = text.indexOf(embeddedImageMarker(image.label));
    image.offset = at >= 0 ? at : Math.min(image.offset, text.length);
  }
  return [{ text, images }];
}
