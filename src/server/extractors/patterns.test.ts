import { describe, expect, it } from 'vitest';
import { testPatternNatively } from '../../contract/schema-validation.js';
import { patternProblem, patternsOf, testPatternLinearly } from './patterns.js';

describe('testPatternLinearly', () => {
  it('means what RegExp means where RE2 reads the same text otherwise', () => {
    const cases: [string, string][] = [
      ['^\\d+\\s€$', '12\u00a0€'], // RE2's \s has no no-break space
      ['^\\S+$', 'a\u00a0b'],
      ['^[\\s\\d]+$', '1\u2003 2'],
      ['^a.b$', 'a\rb'], // RE2's . takes \r and U+2028
      ['^a.b$', 'a\u2028b'],
      ['^a.b$', 'a😀b'],
      ['[.]', 'x'],
      ['^\\\\s$', '\\s'],
      ['^(?<year>\\d{4})$', '2024'],
      ['^\\u0041\\u{1F600}$', 'A😀'],
      ['(?<=€)\\d', '€5'],
      ['^\\p{Lu}\\p{Ll}+$', 'Émile'],
    ];
    for (const [pattern, text] of cases) {
      expect(testPatternLinearly(pattern, text), `${pattern} on ${JSON.stringify(text)}`).toBe(
        testPatternNatively(pattern, text),
      );
    }
  });
});

describe('patternProblem', () => {
  it('refuses a backreference, and only a backreference, before RE2 reads the pattern', () => {
    expect(patternProblem('(a)(b)(c)(d)(e)(f)(g)(h)\\8')).toMatch(/backreference/);
    expect(patternProblem('(?<x>a)\\k<x>')).toMatch(/backreference/);
    expect(patternProblem('^\\\\1$')).toBeUndefined(); // a backslash, then 1
    expect(patternProblem('^[\\\\]k<$')).toBeUndefined();
  });
});

describe('patternsOf', () => {
  it('finds the patterns of every subschema with their pointers', () => {
    expect(
      patternsOf({
        type: 'object',
        properties: {
          'a/b': { type: 'string', pattern: 'x' },
          list: { type: 'array', items: { type: 'string', pattern: 'y' } },
        },
        $defs: { code: { pattern: 'z' } },
      }),
    ).toEqual(
      expect.arrayContaining([
        { pointer: '/properties/a~1b', pattern: 'x' },
        { pointer: '/properties/list/items', pattern: 'y' },
        { pointer: '/$defs/code', pattern: 'z' },
      ]),
    );
  });
});
