/**
 * The partner guide at the top of /developers, made when the interface is built (build.ts):
 * docs/partners/guide.md, cut at its `##` headings into parts, written as
 * dist/developers/partner-guide.json, which the service reads
 * (src/server/http/partner-guide.ts). One text of the guide, then: the Markdown file people
 * read in the repository is the one the page shows, and the one e2e/partner-guide.spec.ts
 * follows step by step. The service reads no Markdown file of the repository at run time,
 * and a deployment that ships dist/ without the sources has the guide too.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import MarkdownIt from 'markdown-it';
import { partnerGuideFile, type GuidePart } from '../../server/http/partner-guide.js';

/** The guide's source, from the project's root. */
export const partnerGuideSource = 'docs/partners/guide.md';

const parser = new MarkdownIt();

/** A link the page can follow: to an address of the service, a heading on it, or the web. */
const servedLink = /^(\/(?![/\\])|#|https?:)/;

/**
 * The parts (`## …`) of the guide, each a section of the page; what stands before the first
 * is the guide's introduction, for readers of the file only. HTML comments are left out. A
 * link to another file of the repository is refused: the page has no such file to link to.
 */
export function partnerGuideParts(markdown: string): GuidePart[] {
  const tokens = parser.parse(markdown, {});
  const refused = tokens
    .flatMap((token) => token.children ?? [])
    .filter((token) => token.type === 'link_open')
    .map((token) => String(token.attrGet('href') ?? ''))
    .filter((href) => !servedLink.test(href));
  if (refused.length > 0)
    throw new Error(
      `${partnerGuideSource} links to ${refused.join(', ')}: /developers shows the guide and ` +
        'has no such file. Link to an address of the service or of the web instead.',
    );

  const lines = markdown.split('\n');
  const headings = tokens.flatMap((token, index) =>
    token.type === 'heading_open' && token.tag === 'h2' && token.map
      ? [{ line: token.map[0], title: tokens[index + 1]!.content.trim() }]
      : [],
  );
  return headings.map(({ line, title }, index) => {
    const body = lines
      .slice(line + 1, headings[index + 1]?.line ?? lines.length)
      .filter((text) => !/^\s*<!--.*-->\s*$/.test(text))
      .join('\n');
    const id = title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    return { id, title, body };
  });
}

/** Writes the guide's parts into the build at `distDir`; returns them. */
export function writePartnerGuide(projectRoot: string, distDir: string): GuidePart[] {
  const parts = partnerGuideParts(readFileSync(join(projectRoot, partnerGuideSource), 'utf8'));
  if (parts.length === 0) throw new Error(`${partnerGuideSource} has no part (## heading).`);
  const file = join(distDir, partnerGuideFile);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(parts, null, 2)}\n`);
  return parts;
}
