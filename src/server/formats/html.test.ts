import { describe, expect, it } from 'vitest';
import { readDefinitions, scanHtml } from './html.js';

describe('readDefinitions', () => {
  it('reads the <dt>/<dd> pairs the service writes, character references decoded', () => {
    expect(
      readDefinitions(
        '<dl><dt> label </dt><dd>A &amp; B &lt;x&gt; &#39;q&#39; &eacute;</dd>' +
          '<dt>description</dt>\n<dd data-null></dd><dt>note</dt><dd><b>bold</b> text</dd></dl>',
      ),
    ).toEqual({ label: "A & B <x> 'q' é", description: null, note: 'bold text' });
  });

  it('pairs a term only with the element right after it, and finds none in other markup', () => {
    expect(readDefinitions('<dl><dt>a</dt><p>x</p><dd>b</dd></dl>')).toBeUndefined();
    expect(readDefinitions('<p>no list here</p><!-- <dt>a</dt><dd>b</dd> -->')).toBeUndefined();
  });

  it('reads a body nested far deeper than any stack, and many pairs, without failing', () => {
    const deep = `${'<div>'.repeat(150_000)}<dl><dt>a</dt><dd>b</dd></dl>`;
    expect(readDefinitions(deep)).toEqual({ a: 'b' });
    const many = `<dl>${'<dt>x</dt><dd>y</dd>'.repeat(20_000)}</dl>`;
    expect(readDefinitions(many)).toEqual({ x: 'y' });
  });
});

describe('scanHtml', () => {
  function events(html: string): string[] {
    const seen: string[] = [];
    scanHtml(html, {
      onOpenTag: (name, attributes) =>
        seen.push(
          `<${name}${Object.keys(attributes).length ? ` ${JSON.stringify(attributes)}` : ''}>`,
        ),
      onCloseTag: (name) => seen.push(`</${name}>`),
      onText: (text) => {
        if (seen.at(-1)?.startsWith('"'))
          seen[seen.length - 1] = `${seen.at(-1)!.slice(0, -1)}${text}"`;
        else seen.push(`"${text}"`);
      },
    });
    return seen;
  }

  it('gives tags and decoded text, script and style text as text, comments not at all', () => {
    expect(
      events('<P Class=a>A&amp;B&nbsp;<!-- <b>x</b> --><script>if (a<b) "</p>"</script><br/></p>'),
    ).toEqual([
      '<p {"class":"a"}>',
      '"A&B\u00a0"',
      '<script>',
      '"if (a<b) "</p>""',
      '</script>',
      '<br>',
      '</br>',
      '</p>',
    ]);
  });

  it('ends elements as a browser would: implied ends, end tags of outer elements, the end', () => {
    expect(
      events('<ul><li>a<li>b</ul><table><tr><td>1<td>2<tr><td>3</table><div><p>x<div>y'),
    ).toEqual([
      '<ul>',
      '<li>',
      '"a"',
      '</li>',
      '<li>',
      '"b"',
      '</li>',
      '</ul>',
      '<table>',
      '<tr>',
      '<td>',
      '"1"',
      '</td>',
      '<td>',
      '"2"',
      '</td>',
      '</tr>',
      '<tr>',
      '<td>',
      '"3"',
      '</td>',
      '</tr>',
      '</table>',
      '<div>',
      '<p>',
      '"x"',
      '</p>',
      '<div>',
      '"y"',
      '</div>',
      '</div>',
    ]);
    // An end tag of an element that is not open is ignored.
    expect(events('<b>x</i></b>')).toEqual(['<b>', '"x"', '</b>']);
  });
});
