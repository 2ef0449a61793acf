/**
 * The views' private custom properties (`--_extractor-accent`, set from the public
 * `--extractor-…` ones in theme.styles.ts) renamed `--_accent` in a production build:
 * the minifier shortens names of scripts but not of CSS, and the views name them some three
 * hundred times, which the budgets of build.ts count. No page outside sets them (they are
 * private); the hosted page's own stylesheet is renamed alike.
 */
import type { Plugin } from 'vite';

const privateProperty = /--_extractor-/g;

export function shortPrivateProperties(): Plugin {
  return {
    name: 'extractor-short-private-properties',
    // The dev server and the browser tests serve the sources as they are.
    apply: 'build',
    // Before Vite reads a stylesheet, so its CSS and the views' templates agree.
    enforce: 'pre',
    transform(code, id) {
      if (!/\.(ts|css)$/.test(id) || !code.includes('--_extractor-')) return null;
      return { code: code.replace(privateProperty, '--_'), map: null };
    },
  };
}
