import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../project-root.js';
import { partnerGuideParts, partnerGuideSource } from './partner-guide.js';

describe('the partner guide of /developers', () => {
  it('is docs/partners/guide.md in its parts: quick start, troubleshooting, verifying webhooks', () => {
    const parts = partnerGuideParts(readFileSync(join(projectRoot, partnerGuideSource), 'utf8'));
    expect(parts.map(({ id, title }) => [id, title])).toEqual([
      ['quick-start', 'Quick start'],
      ['troubleshooting', 'Troubleshooting'],
      ['verifying-webhooks', 'Verifying webhooks'],
    ]);
    expect(parts[0]!.body).toContain('npm run --silent token -- create --name "quick start"');
    // What the repository's readers see only (the split's markers) stays off the page.
    for (const part of parts) expect(part.body).not.toContain('<!--');
  });

  it('cuts at the second-level headings only, not at a `##` inside a code block', () => {
    const parts = partnerGuideParts(
      [
        '# Guide',
        '',
        'For readers of the file.',
        '',
        '## One',
        '',
        '```sh',
        '## a comment, not a heading',
        '```',
        '',
        '### Inside one',
        '',
        '## Two: the end',
        '',
        'Last.',
      ].join('\n'),
    );
    expect(parts.map(({ id }) => id)).toEqual(['one', 'two-the-end']);
    expect(parts[0]!.body).toContain('## a comment, not a heading');
    expect(parts[0]!.body).toContain('### Inside one');
    expect(parts[1]!.body.trim()).toBe('Last.');
  });

  it('refuses a link to a file of the repository, which the page cannot serve', () => {
    expect(() =>
      partnerGuideParts('## Part\n\nSee [runs](../api/runs.md) and [docs](/api/docs).\n'),
    ).toThrow(/links to \.\.\/api\/runs\.md/);
    expect(
      partnerGuideParts('## Part\n\n[docs](/api/docs), [top](#part), [web](https://example.com)'),
    ).toHaveLength(1);
  });
});
