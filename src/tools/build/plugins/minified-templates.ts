/**
 * Lit's templates minified in a production build, as Vite minifies stylesheets and scripts
 * of its own: Lit hands `css` and `html` templates to the browser as written, indentation
 * and all, and the views' budgets (build.ts) count every byte (Lit's documentation advises
 * minifying template literals for production). Lit's own plugin does it: html-minifier-next
 * for `html` and `svg` templates (whitespace that means nothing, comments), lightningcss for
 * `css` ones. It replaced a minifier of ours that only took out indentation and CSS
 * whitespace, because it is smaller by every budget (docs/decisions/0005-template-minifying.md).
 */
import { minifyHTMLLiterals } from '@lit-labs/rollup-plugin-minify-html-literals/lib/minify-html-literals.js';
import type { Plugin } from 'vite';

/**
 * The library's function in a Vite plugin of a few lines: its Rollup plugin is typed for
 * Rollup's plugin context, not Rolldown's, and turns a failure into a warning by default.
 * Here a template it cannot read fails the build rather than ship unminified unnoticed.
 */
export function minifiedTemplates(): Plugin {
  return {
    name: 'extractor-minified-templates',
    // The dev server and the browser tests serve the sources as they are.
    apply: 'build',
    async transform(code, id) {
      if (!id.endsWith('.ts') || !/\b(css|html|svg)`/.test(code)) return null;
      // No source map: the build writes none (and the library's type of one is not Vite's).
      const minified = await minifyHTMLLiterals(code, { fileName: id, generateSourceMap: false });
      return minified && { code: minified.code, map: null };
    },
  };
}
