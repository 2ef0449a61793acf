/**
 * A Vite plugin that leaves the contract's schema descriptions out of the browser's
 * builds. `z.describe('…')` in src/contract says what a field means for the service's
 * OpenAPI document and GraphQL schema, which only the server writes; the browser checks
 * answers with the same schemas and never reads a description, yet would carry every one
 * (some 8 KB of prose, much of it in the first view) inside the budgets of build.ts.
 *
 */
import type { Plugin } from 'vite';
import { closingAt } from './minify-templates.js';

/**
 * The module's code without the descriptions of its schemas: each `z.describe(…)` goes,
 * with the `.check(…)` around it when it was the check's one argument, else with a comma
 * beside it. What built a description (a helper of strings) is then unused, and goes too.
 */
export function withoutDescriptions(code: string): string {
  let out = code;
  for (let at = out.indexOf('z.describe('); at >= 0; at = out.indexOf('z.describe(', at)) {
    let start = at;
    let end = closingAt(out, at + 'z.describe('.length) + 1;
    const before = /\.check\(\s*$/.exec(out.slice(Math.max(0, start - 200), start));
    const after = /^\s*,?\s*\)/.exec(out.slice(end));
    if (before && after) {
      start -= before[0].length;
      end += after[0].length;
    } else {
      const comma = /,\s*$/.exec(out.slice(Math.max(0, start - 200), start));
      if (comma) start -= comma[0].length;
      else end += /^\s*,?\s*/.exec(out.slice(end))![0].length;
    }
    out = out.slice(0, start) + out.slice(end);
    at = start;
  }
  return out;
}

export function withoutSchemaDescriptions(): Plugin {
  return {
    name: 'extractor-without-schema-descriptions',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]src[\\/]contract[\\/][^?]*\.ts$/.test(id) || !code.includes('z.describe(')) {
        return null;
      }
      return { code: withoutDescriptions(code), map: null };
    },
  };
}
