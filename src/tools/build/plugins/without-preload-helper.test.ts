import { describe, expect, it } from 'vitest';
import { withoutPreloadCalls } from './without-preload-helper.js';

describe('withoutPreloadCalls', () => {
  it('calls what each __vitePreload call was given, and leaves the rest as it is', () => {
    const chunk = [
      'const a = { de: () => __vitePreload(() => import("./de.js"), __VITE_PRELOAD__) };',
      'const b = () => __vitePreload(() => import("./b.js").then((m) => f(m, "),")), __VITE_PRELOAD__);',
      'const { c } = await __vitePreload(async () => {\n\tconst { c } = await import("./c.js");\n\treturn { c };\n}, __VITE_PRELOAD__);',
    ].join('\n');
    expect(withoutPreloadCalls(chunk)).toBe(
      [
        'const a = { de: () => (() => import("./de.js"))() };',
        'const b = () => (() => import("./b.js").then((m) => f(m, "),")))();',
        'const { c } = await (async () => {\n\tconst { c } = await import("./c.js");\n\treturn { c };\n})();',
      ].join('\n'),
    );
  });

  it('fails on a call whose dependencies it does not know to be none', () => {
    expect(() => withoutPreloadCalls('__vitePreload(() => import("./x.js"), ["a.css"])')).toThrow(
      /unexpected __vitePreload call/,
    );
  });
});
