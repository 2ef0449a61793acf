/**
 * A theme: values for the public `--extractor-*` custom properties of the elements, named
 * without the prefix (`{ "color-accent": "#0a7d5a" }` sets `--extractor-color-accent`).
 * One schema checks a theme wherever it comes from: `POST /api/embed_sessions` and the
 * iFrame's `extractor:set-theme` command. A theme is set through the CSSOM
 * (`style.setProperty`), so a value cannot close the declaration; the checks below still
 * refuse anything that is not a plain value, and anything that would load a resource,
 * because a theme comes from outside (a partner's server or page).
 */
import * as z from 'zod/mini';

/** The tokens the elements read (src/elements/styles/theme.styles.ts), without `--extractor-`. */
export const themeTokens = [
  'color-accent',
  'color-on-accent',
  'color-text',
  'color-text-muted',
  'color-background',
  'color-surface',
  'color-surface-subtle',
  'color-border',
  'color-danger',
  'color-success',
  'color-focus',
  'radius',
  'radius-container',
  'font-family',
  'spacing',
] as const;
export type ThemeToken = (typeof themeTokens)[number];

/** `url(` and the other functions that fetch (`image-set(`, `src(`, …), or old IE's `expression(`. */
const loadingValue = /(?:url|src|image|image-set|cross-fade|element|expression)\s*\(|@import/i;

export const themeValueSchema = z.string().check(
  z.maxLength(200),
  z.regex(/^[^;{}<>\\]*$/, 'theme values must be plain CSS values, without ; { } < > or \\'),
  z.refine((value) => !loadingValue.test(value), 'theme values must not load anything (no url())'),
);

export const themeSchema = z.partialRecord(z.enum(themeTokens), themeValueSchema, {
  // Zod reports the unknown keys of a partial record as `unrecognized_keys`, a code its
  // types for records do not list; its own message would only say "Invalid input".
  error: (issue) => {
    const { code, keys } = issue as { code?: string; keys?: string[] };
    if (code !== 'unrecognized_keys' || !keys) return undefined;
    return `not theme tokens: ${keys.join(', ')}. The tokens are the --extractor-* properties without the prefix: ${themeTokens.join(', ')}`;
  },
});
export type Theme = z.infer<typeof themeSchema>;
