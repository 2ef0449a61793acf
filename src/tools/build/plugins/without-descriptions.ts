/**
 * A Vite plugin that leaves the contract's schema descriptions out of the browser's
 * builds. `z.describe('…')` in src/contract says what a field means for the service's
 * OpenAPI document and GraphQL schema, which only the server writes; the browser checks
 * answers with the same schemas and never reads a description, yet would carry every one
 * (some 8 KB of prose, much of it in the first view) inside the budgets of build.ts.
 * `z.meta(…)` (a timestamp's `format: date-time`) is the document's alone too, and goes
 * the same way.
 */
import type { Plugin } from 'vite';
import { closingAt } from './closing-bracket.js';

/** The checks that only annotate a schema for its JSON Schema: a description, a `format`. */
const annotation = /z\.(?:describe|meta)\(/g;

function nextAnnotation(code: string, from: number): RegExpExecArray | null {
  annotation.lastIndex = from;
  return annotation.exec(code);
}

/**
 * The module's code without the annotations of its schemas: each `z.describe(…)` and
 * `z.meta(…)` goes, with the `.check(…)` around it when it was the check's one argument,
 * else with a comma beside it. What built a description (a helper of strings) is then
 * unused, and goes too.
 */
export function withoutDescriptions(code: string): string {
  let out = code;
  let found: RegExpExecArray | null;
  let from = 0;
  while ((found = nextAnnotation(out, from))) {
    let start = found.index;
    let end = closingAt(out, start + found[0].length) + 1;
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
    from = start;
  }
  return out;
}

export function withoutSchemaDescriptions(): Plugin {
  return {
    name: 'extractor-without-schema-descriptions',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]src[\\/]contract[\\/][^?]*\.ts$/.test(id) || !nextAnnotation(code, 0)) {
        return null;
      }
      return { code: withoutDescriptions(code), map: null };
    },
  };
}
