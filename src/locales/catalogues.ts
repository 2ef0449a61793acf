/**
 * The hosted pages' catalogues, each in two parts: what the page shows before the
 * introduction (`first-view`, loaded with the locale) and the rest (`later`, loaded with
 * the later views). One import() per part, so that Vite splits each into a file of its own
 * and only the active locale's are fetched, the later part only once a later view is. The
 * library builds replace this module with catalogues-beside.ts (src/tools/build/build.ts).
 */
import type { LocaleModule } from '@lit/localize';
import type { SupportedLocale } from './supported-locales.js';

export type CataloguePart = 'first-view' | 'later';

type Loaders = Record<CataloguePart, () => Promise<LocaleModule>>;

const catalogues: Record<Exclude<SupportedLocale, 'en'>, Loaders> = {
  de: { 'first-view': () => import('./first-view/de.js'), later: () => import('./later/de.js') },
  fr: { 'first-view': () => import('./first-view/fr.js'), later: () => import('./later/fr.js') },
  es: { 'first-view': () => import('./first-view/es.js'), later: () => import('./later/es.js') },
  it: { 'first-view': () => import('./first-view/it.js'), later: () => import('./later/it.js') },
  nl: { 'first-view': () => import('./first-view/nl.js'), later: () => import('./later/nl.js') },
  pt: { 'first-view': () => import('./first-view/pt.js'), later: () => import('./later/pt.js') },
  pl: { 'first-view': () => import('./first-view/pl.js'), later: () => import('./later/pl.js') },
  ja: { 'first-view': () => import('./first-view/ja.js'), later: () => import('./later/ja.js') },
  ar: { 'first-view': () => import('./first-view/ar.js'), later: () => import('./later/ar.js') },
};

export async function loadCatalogue(
  locale: SupportedLocale,
  part: CataloguePart,
): Promise<LocaleModule['templates']> {
  return locale === 'en' ? {} : (await catalogues[locale][part]()).templates;
}
