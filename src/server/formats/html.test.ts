import { describe, expect, it } from 'vitest';
import { readDefinitions } from './html.js';

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
