/**
 * The library's catalogues (/sdk/extractor.mjs and /sdk/extractor.js, which are one file
 * each): ES modules beside it, /sdk/locales/de.js and so on, imported by address only when
 * their locale is the active one, so the library carries none of them. src/tools/build/build.ts
 * puts this module in place of catalogues.ts for those builds.
 *
 * The address is the library's own: the module's `import.meta.url`, or for the classic
 * script the `<script>` that is running it (read now: `document.currentScript` is only set
 * while the script first runs). A page's CSP that allows the library allows its folder.
 */
import type { LocaleModule } from '@lit/localize';
import type { CataloguePart } from './catalogues.js';
import type { SupportedLocale } from './supported-locales.js';

const libraryAddress =
  (typeof document !== 'undefined' && (document.currentScript as HTMLScriptElement | null)?.src) ||
  import.meta.url;

/** The whole catalogue comes with the first part (one file each): the later part is empty. */
export async function loadCatalogue(
  locale: SupportedLocale,
  part: CataloguePart,
): Promise<LocaleModule['templates']> {
  if (locale === 'en' || part === 'later') return {};
  const address = new URL(`locales/${locale}.js`, libraryAddress).href;
  return ((await import(/* @vite-ignore */ address)) as LocaleModule).templates;
}
