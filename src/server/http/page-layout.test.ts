import { describe, expect, it } from 'vitest';
import { markdown, markdownInline, markup, renderPage } from './page-layout.js';

describe('markdown', () => {
  it('marks up the Markdown of descriptions: code, links, lists, fences', () => {
    expect(
      String(markdown('A `code` and [a link](/api/docs#problem-conflict).\n\n- one\n- two')),
    ).toBe(
      '<p>A <code>code</code> and <a href="/api/docs#problem-conflict">a link</a>.</p>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n',
    );
    expect(String(markdown('```\n<b>x</b>\n```'))).toBe(
      '<pre><code>&lt;b&gt;x&lt;/b&gt;\n</code></pre>\n',
    );
  });

  it('shows HTML as text, and links nowhere but this site', () => {
    expect(String(markdown('<img src=x onerror=alert(1)>'))).toBe(
      '<p>&lt;img src=x onerror=alert(1)&gt;</p>\n',
    );
    expect(String(markdown('[x](javascript:alert(1))'))).toBe('<p>[x](javascript:alert(1))</p>\n');
    expect(String(markdownInline('[x](//evil.example/) [y](https://evil.example/)'))).toBe(
      '[x](//evil.example/) [y](https://evil.example/)',
    );
    expect(String(markdownInline('[top](#overview)'))).toBe('<a href="#overview">top</a>');
  });

  it('puts a description’s headings under the page’s own <h2> sections', () => {
    expect(String(markdown('## Paging\n\ntext'))).toBe('<h3>Paging</h3>\n<p>text</p>\n');
  });
});

describe('renderPage', () => {
  it('escapes the title and takes the body as the markup it is', () => {
    const page = renderPage({
      title: '<script>"x"</script>',
      style: 'body{}',
      body: markup`<p>${'<b>&'}</p>`,
    });
    expect(page).toContain('<title>&lt;script&gt;&quot;x&quot;&lt;/script&gt;</title>');
    expect(page).toContain('<p>&lt;b&gt;&amp;</p>');
    expect(page).toContain('<style>body{}</style>');
    expect(page).not.toContain('referrer');
  });
});
