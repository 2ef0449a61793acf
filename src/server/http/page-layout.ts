/**
 * The one layout of the service's own pages, `/api/docs` and `/developers`: written with
 * Hono's `html`, which escapes what it is given. The pages run no script and load
 * nothing; their one inline stylesheet is allowed by its hash (`pageCsp`).
 */
import { createHash } from 'node:crypto';
import { html, raw } from 'hono/html';

export interface StaticPage {
  title: string;
  /** The page's stylesheet; it must be the one its `pageCsp` allows. */
  style: string;
  /** The marked-up content of `<body>`, every text in it escaped already. */
  body: string;
  /** Whether the page asks browsers to send no Referer from its links. */
  noReferrer?: boolean;
}

export function renderPage(page: StaticPage): string {
  const referrer = page.noReferrer ? raw('<meta name="referrer" content="no-referrer">\n') : '';
  // Sent as written: Prettier would reflow the markup.
  // prettier-ignore
  return String(html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
${referrer}<title>${page.title}</title><style>${raw(page.style)}</style></head>
<body>
${raw(page.body)}
</body>
</html>
`);
}

/** The Content-Security-Policy of a page whose only resource is the inline `style`. */
export function pageCsp(style: string): string {
  const hash = createHash('sha256').update(style).digest('base64');
  return (
    `default-src 'none'; style-src 'sha256-${hash}'; ` +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
  );
}
