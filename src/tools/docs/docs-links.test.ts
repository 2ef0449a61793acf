/**
 * Every link of the documentation leads somewhere: README.md, each Markdown file under
 * docs/ and the READMEs beside the code (src/server/engine/README.md), parsed with
 * markdown-it as a renderer reads them. A relative link must name a file
 * or folder of the repository, and its `#anchor` a heading of that Markdown file (by
 * GitHub's rule for a heading's anchor); a link to a heading of the same file must find it.
 * Links to the web are not followed: whether a site answers is not the repository's to say.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../project-root.js';

const parser = new MarkdownIt({ html: true });

/** README.md, every Markdown file under docs/ and the READMEs beside the code, from the root. */
function documentation(root: string): string[] {
  const under = (folder: string, wanted: (name: string) => boolean): string[] =>
    existsSync(join(root, folder))
      ? readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
          const path = join(folder, entry.name);
          if (entry.isDirectory()) return under(path, wanted);
          return wanted(entry.name) ? [path] : [];
        })
      : [];
  return [
    'README.md',
    ...under('docs', (name) => name.endsWith('.md')),
    ...under('src', (name) => name === 'README.md'),
  ];
}

/**
 * The anchors of a Markdown file's headings, as GitHub makes them: the heading's text in
 * lower case, without punctuation, spaces as hyphens; a repeated one gets `-1`, `-2`….
 */
function anchorsOf(markdown: string): Set<string> {
  const tokens = parser.parse(markdown, {});
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  tokens.forEach((token, index) => {
    if (token.type !== 'heading_open') return;
    const text = (tokens[index + 1]!.children ?? [])
      .filter((child) => child.type === 'text' || child.type === 'code_inline')
      .map((child) => child.content)
      .join('');
    const base = text
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  });
  return anchors;
}

/** Every link and image of a Markdown file, as written. */
function targetsOf(markdown: string): string[] {
  return parser
    .parse(markdown, {})
    .flatMap((token) => token.children ?? [])
    .flatMap((token) => {
      if (token.type === 'link_open') return [String(token.attrGet('href') ?? '')];
      if (token.type === 'image') return [String(token.attrGet('src') ?? '')];
      return [];
    });
}

/** What is wrong with the links of the documentation under `root`: one line each. */
function brokenLinks(root: string): string[] {
  const anchors = new Map<string, Set<string>>();
  const anchorsAt = (path: string) => {
    if (!anchors.has(path)) anchors.set(path, anchorsOf(readFileSync(path, 'utf8')));
    return anchors.get(path)!;
  };
  return documentation(root).flatMap((file) =>
    targetsOf(readFileSync(join(root, file), 'utf8')).flatMap((target): string[] => {
      const broken = (why: string) => [`${file}: (${target}) ${why}`];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return []; // the web, mail
      if (target.startsWith('/'))
        return broken(
          'starts at the root, which is the repository’s on GitHub and the service’s elsewhere',
        );
      const [path = '', anchor] = target.split('#', 2);
      const resolved = path === '' ? join(root, file) : resolve(dirname(join(root, file)), path);
      if (relative(root, resolved).startsWith('..')) return broken('leaves the repository');
      if (!existsSync(resolved)) return broken('names no file');
      if (anchor === undefined) return [];
      if (statSync(resolved).isDirectory() || !resolved.endsWith('.md'))
        return broken('has an anchor on something that is not a Markdown file');
      if (!anchorsAt(resolved).has(decodeURIComponent(anchor)))
        return broken(`names no heading of ${relative(root, resolved)}`);
      return [];
    }),
  );
}

describe('the documentation’s links', () => {
  it('lead to a file or folder of the repository, and a heading there', () => {
    const files = documentation(projectRoot);
    expect(files).toContain('docs/architecture.md');
    expect(files).toContain('src/server/engine/README.md');
    expect(brokenLinks(projectRoot)).toEqual([]);
  });

  it('are found broken when a file or a heading is missing', () => {
    const root = mkdtempSync(join(tmpdir(), 'extractor-docs-links-'));
    try {
      mkdirSync(join(root, 'docs', 'api'), { recursive: true });
      writeFileSync(join(root, 'src.ts'), '');
      writeFileSync(
        join(root, 'README.md'),
        [
          '# Extractor',
          '',
          '[runs](docs/api/runs.md#statuses) [gone](docs/api/gone.md) [code](src.ts)',
          '[here](#extractor) [not here](#nowhere) [web](https://example.com)',
          '[root](/docs/api/runs.md) [folder](docs/api/)',
        ].join('\n'),
      );
      writeFileSync(
        join(root, 'docs', 'api', 'runs.md'),
        '# Runs\n\n## Statuses\n\n## Statuses\n\n[the second](#statuses-1) [no](#why-it-failed)\n' +
          '[back](../../README.md#extractor) [`Live` updates](#live-updates)\n\n## `Live` updates\n',
      );
      expect(brokenLinks(root)).toEqual([
        'README.md: (docs/api/gone.md) names no file',
        'README.md: (#nowhere) names no heading of README.md',
        'README.md: (/docs/api/runs.md) starts at the root, which is the repository’s on GitHub and the service’s elsewhere',
        'docs/api/runs.md: (#why-it-failed) names no heading of docs/api/runs.md',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
