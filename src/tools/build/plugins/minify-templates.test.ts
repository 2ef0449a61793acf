import { describe, expect, it } from 'vitest';
import { minifyCss, minifyTemplates } from './minify-templates.js';

describe('minifyTemplates', () => {
  it("drops only the whitespace of Lit's css templates that means nothing", () => {
    const source = [
      "import { css } from 'lit';",
      'export const styles = css`',
      '  /* The element is a box. */',
      '  :host {',
      '    display: block; /* not inline */',
      "    font-family: 'Segoe UI', sans-serif;",
      '  }',
      '  .field :focus-visible,',
      '  .a > .b {',
      '    margin: 0 auto;',
      '  }',
      '  @media (width >= 64rem) {',
      '    .review { grid-template-columns: minmax(0, 1fr) minmax(0, 1.2fr); }',
      '  }',
      '`;',
    ].join('\n');
    expect(minifyTemplates(source)).toBe(
      "import { css } from 'lit';\nexport const styles = css`" +
        ":host{display:block;font-family:'Segoe UI',sans-serif}" +
        '.field :focus-visible,.a>.b{margin:0 auto}' +
        '@media (width>= 64rem){.review{grid-template-columns:minmax(0,1fr) minmax(0,1.2fr)}}`;',
    );
    expect(minifyCss('  a  {  }  ')).toBe('a{}');
    expect(minifyCss('a /* x */ b{/* one\n two */color:red}')).toBe('a b{color:red}');
  });

  it('drops the indentation of html templates, nested ones too, and nothing else', () => {
    const source = [
      'const a = `keep\n    this`;',
      'render() {',
      '  return html`<ul>',
      '    ${items.map(',
      '      (item) => html`<li title="${item.name} }">',
      "        ${item.done ? '}`' : `x\n  y`} ${{ a: 1 }.a}",
      '      </li>`,',
      '    )}',
      "    ${/* it's */ 1} ${a // it's",
      '    }',
      '  </ul>`;',
      '}',
      'const b = `keep\n    that`; css`a { color: ${c}; }`;',
    ].join('\n');
    expect(minifyTemplates(source)).toBe(
      [
        'const a = `keep\n    this`;',
        'render() {',
        '  return html`<ul>',
        '${items.map(',
        '      (item) => html`<li title="${item.name} }">',
        "${item.done ? '}`' : `x\n  y`} ${{ a: 1 }.a}",
        '</li>`,',
        '    )}',
        "${/* it's */ 1} ${a // it's",
        '    }',
        '</ul>`;',
        '}',
        'const b = `keep\n    that`; css`a { color: ${c}; }`;',
      ].join('\n'),
    );
  });

  it('stops at a template that does not end, rather than run on', () => {
    expect(() => minifyTemplates('html`<p>${a // no end')).toThrow(/does not end/);
    expect(() => minifyTemplates('html`<p>${a /* no end')).toThrow(/does not end/);
  });
});
