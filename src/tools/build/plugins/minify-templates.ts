/**
 * A Vite plugin that minifies Lit's templates in a production build, as Vite minifies
 * stylesheets and scripts of its own: Lit hands `css` and `html` templates to the browser as
 * written, indentation and all, and the views' budgets (build.ts) count every byte (Lit's
 * documentation advises minifying template literals for production). Only whitespace that
 * means nothing goes:
 *
 *   - in `css` templates, comments go (they are for the source's readers; no stylesheet of
 *     ours has `/*` inside a string), runs of whitespace become one space, and none is kept
 *     beside `{`, `}`, `;`, `,` or `>`, nor after `:` (a space before one is a descendant
 *     combinator);
 *   - in `html` templates (and those nested in their expressions), the indentation after a
 *     line break: HTML collapses it with the break, and no template indents text inside a
 *     `<pre>` or `<textarea>`. Other templates, and the code of expressions, are left to
 *     the script's minifier.
 *
 * A `css` template with an expression is left as it is, since what it gives is not known.
 */
import type { Plugin } from 'vite';

/** A stylesheet's text without its comments and the whitespace that means nothing. */
export function minifyCss(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/ ?([{};,>]) ?/g, '$1')
    .replace(/: /g, ':')
    .replace(/;}/g, '}')
    .trim();
}

/** Where the template literal whose text starts at `from` ends (its closing backtick). */
function templateEnd(code: string, from: number): number {
  let at = from;
  while (at < code.length) {
    const char = code[at];
    if (char === '\\') at += 2;
    else if (char === '`') return at;
    else if (char === '$' && code[at + 1] === '{') at = closingAt(code, at + 2) + 1;
    else at += 1;
  }
  throw new Error('A template literal does not end.');
}

/** Where `what` next is from `from`, or the end of the code. */
const endOf = (code: string, what: string, from: number) => {
  const at = code.indexOf(what, from);
  return at < 0 ? code.length : at;
};

/**
 * Where the code from `from`, inside brackets, meets the one that closes them (or, with
 * `orComma`, a comma between them), past strings, templates, comments and inner brackets.
 */
export function closingAt(code: string, from: number, orComma = false): number {
  let depth = 0;
  let at = from;
  while (at < code.length) {
    const char = code[at]!;
    if (char === "'" || char === '"') {
      at += 1;
      while (at < code.length && code[at] !== char) at += code[at] === '\\' ? 2 : 1;
      at += 1;
    } else if (char === '`') at = templateEnd(code, at + 1) + 1;
    else if (code.startsWith('//', at)) at = endOf(code, '\n', at);
    else if (code.startsWith('/*', at)) at = endOf(code, '*/', at + 2) + 2;
    else if ('([{'.includes(char)) {
      depth += 1;
      at += 1;
    } else if (')]}'.includes(char) || (orComma && char === ',')) {
      if (depth === 0) return at;
      if (char !== ',') depth -= 1;
      at += 1;
    } else at += 1;
  }
  throw new Error('A template expression or a call does not end.');
}

/** The module's source with each `css` and `html` template minified. */
export function minifyTemplates(code: string): string {
  let out = '';
  let copied = 0;
  for (const match of code.matchAll(/\b(css|html)`/g)) {
    const start = match.index + match[0].length;
    if (start <= copied) continue; // Inside a template already minified.
    const end = templateEnd(code, start);
    const text = code.slice(start, end);
    out += code.slice(copied, start);
    if (match[1] === 'html') out += minifyHtml(text);
    else out += text.includes('${') ? text : minifyCss(text);
    copied = end;
  }
  return out + code.slice(copied);
}

/** An html template's text without indentation; its expressions' own templates minified. */
function minifyHtml(text: string): string {
  let out = '';
  let from = 0;
  let at = 0;
  while (at < text.length) {
    if (text[at] === '\\') at += 2;
    else if (text[at] === '$' && text[at + 1] === '{') {
      const end = closingAt(text, at + 2) + 1;
      out += text.slice(from, at).replace(/\n[ \t]+/g, '\n');
      out += `\${${minifyTemplates(text.slice(at + 2, end - 1))}}`;
      from = at = end;
    } else at += 1;
  }
  return out + text.slice(from).replace(/\n[ \t]+/g, '\n');
}

export function minifiedTemplates(): Plugin {
  return {
    name: 'extractor-minified-templates',
    apply: 'build',
    transform(code, id) {
      if (!id.endsWith('.ts') || !/\b(css|html)`/.test(code)) return null;
      return { code: minifyTemplates(code), map: null };
    },
  };
}
