import { describe, expect, it } from 'vitest';
import { closingAt } from './closing-bracket.js';

/** The code from just inside the first `(` to where closingAt says its bracket closes. */
const inside = (code: string, orComma = false) =>
  code.slice(code.indexOf('(') + 1, closingAt(code, code.indexOf('(') + 1, orComma));

describe('closingAt', () => {
  it('finds the bracket that closes past inner brackets, strings and comments', () => {
    expect(inside('f(a, [b], { c: (d) }) + e')).toBe('a, [b], { c: (d) }');
    expect(inside(`f(')', "(", '\\')', "\\"") )`)).toBe(`')', "(", '\\')', "\\""`);
    expect(inside('f(a /* ) */, b // )\n) + c')).toBe('a /* ) */, b // )\n');
  });

  it('reads a template literal whole, expressions and nested templates included', () => {
    const call = 'f(html`<li title="${item.name} }">${ok ? \'}`\' : `x ${`)`}`}</li>`) + 1';
    expect(inside(call)).toBe('html`<li title="${item.name} }">${ok ? \'}`\' : `x ${`)`}`}</li>`');
  });

  it('stops at a comma between the brackets when asked to', () => {
    expect(inside('f(() => g(a, b), [c, d])', true)).toBe('() => g(a, b)');
  });

  it('stops at code that does not end, rather than run on', () => {
    expect(() => closingAt('f(a', 2)).toThrow(/does not end/);
    expect(() => closingAt('f(`${a // no end', 2)).toThrow(/does not end/);
    expect(() => closingAt('f(`${a /* no end', 2)).toThrow(/does not end/);
  });
});
