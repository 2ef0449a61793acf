/**
 * The one layout of the service's own pages, `/api/docs` and `/developers`, and what they
 * are written with: Hono's `html`, which escapes every value it is given, and markdown-it
 * for the Markdown of descriptions, with HTML in it shown as text. The pages run no inline
 * script (/developers loads one script file of its own, for its copy buttons); their one
 * inline stylesheet is allowed by its hash (`pageCsp`).
 */
import { createHash } from 'node:crypto';
import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import MarkdownIt from 'markdown-it';

/** Markup whose every text is escaped already. */
export type Markup = HtmlEscapedString;

/**
 * Hono's `html`, for markup without a promise in it, which it returns as it is (it awaits
 * promises only when it is given one).
 */
export const markup = html as (strings: TemplateStringsArray, ...values: unknown[]) => Markup;

const markdownIt = new MarkdownIt({ html: false, linkify: false, typographer: false });
// Links go nowhere but this site: a path or an anchor, never `//host` or a scheme.
markdownIt.validateLink = (url) => /^(\/(?![/\\])|#)/.test(url);
// A description's headings sit inside the page's own sections, which are <h2>.
markdownIt.core.ruler.push('headings_under_sections', (state) => {
  for (const token of state.tokens) {
    if (token.type === 'heading_open' || token.type === 'heading_close')
      token.tag = `h${Math.min(Number(token.tag.slice(1)) + 1, 6)}`;
  }
});

// A table scrolls within its own box (a page's `.scroll`), so a narrow screen keeps the
// page's margins instead of the table running past them.
markdownIt.renderer.rules.table_open = (tokens, index, options, _env, renderer) =>
  `<div class="scroll">${renderer.renderToken(tokens, index, options)}`;
markdownIt.renderer.rules.table_close = (tokens, index, options, _env, renderer) =>
  `${renderer.renderToken(tokens, index, options)}</div>`;

/** Markdown as blocks (paragraphs, lists, code, headings). */
export const markdown = (text: string): Markup => raw(markdownIt.render(text));

/** Markdown within a line (`code`, [links](/path), emphasis). */
export const markdownInline = (text: string): Markup => raw(markdownIt.renderInline(text));

export interface StaticPage {
  title: string;
  /** The page's stylesheet; it must be the one its `pageCsp` allows. */
  style: string;
  body: Markup;
  /** Whether the page asks browsers to send no Referer from its links. */
  noReferrer?: boolean;
  /** Addresses of the page's own scripts (same origin, run after parsing), if it has any. */
  scripts?: readonly string[];
}

export function renderPage(page: StaticPage): string {
  const referrer = page.noReferrer && markup`<meta name="referrer" content="no-referrer">\n`;
  const scripts = (page.scripts ?? []).map((src) => markup`<script src="${src}" defer></script>`);
  // Sent as written: Prettier would reflow the markup.
  // prettier-ignore
  return String(markup`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
${referrer}<title>${page.title}</title><style>${raw(page.style)}</style>${scripts}</head>
<body>
${page.body}
</body>
</html>
`);
}

/**
 * The Content-Security-Policy of a page whose only resources are the inline `style` and,
 * with `scripts`, script files of its own origin (never inline script).
 */
export function pageCsp(style: string, options: { scripts?: boolean } = {}): string {
  const hash = createHash('sha256').update(style).digest('base64');
  return (
    `default-src 'none'; style-src 'sha256-${hash}'; ` +
    (options.scripts ? "script-src 'self'; " : '') +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
  );
}
