/**
 * The colour scheme the interface is drawn in: `light`, `dark`, or `auto` (the person's
 * system setting). A host page decides, since only it knows its own colours: the element's
 * `color-scheme` attribute, embed.js's `colorScheme` option (which reaches the frame as the
 * `color-scheme` address parameter), and the hosted full page's same parameter. Without
 * one it is `light`: an interface that followed the system on a light page with a dark
 * system was a dark box on a white page.
 *
 * Constants and a function only: embed.js imports this file and must stay tiny.
 */
export const colorSchemes = ['light', 'dark', 'auto'] as const;
export type ColorScheme = (typeof colorSchemes)[number];

export const defaultColorScheme: ColorScheme = 'light';

/** The address parameter of the hosted pages that carries the scheme. */
export const colorSchemeParameter = 'color-scheme';

export function isColorScheme(value: unknown): value is ColorScheme {
  return (colorSchemes as readonly unknown[]).includes(value);
}

/**
 * The scheme to use: the first of the candidates that names one, most specific first (the
 * element's attribute, then, once sessions carry one, the session's), else the default.
 */
export function resolveColorScheme(...candidates: unknown[]): ColorScheme {
  return candidates.find(isColorScheme) ?? defaultColorScheme;
}
