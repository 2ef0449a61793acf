/**
 * The hosted pages' catalogues: one import() per locale, so that Vite splits each into a
 * file of its own and only the active one is fetched. The library builds replace this
 * module with catalogues-beside.ts (src/tools/build.ts).
 */
import type { LocaleModule } from '@lit/localize';
import type { SupportedLocale } from './localization.js';

const catalogues: Record<Exclude<SupportedLocale, 'en'>, () => Promise<LocaleModule>> = {
  de: () => import('./de.js'),
  fr: () => import('./fr.js'),
  es: () => import('./es.js'),
  it: () => import('./it.js'),
  nl: () => import('./nl.js'),
  pt: () => import('./pt.js'),
  pl: () => import('./pl.js'),
  ja: () => import('./ja.js'),
  ar: () => import('./ar.js'),
};

export async function loadCatalogue(locale: SupportedLocale): Promise<LocaleModule['templates']> {
  return locale === 'en' ? {} : (await catalogues[locale]()).templates;
}
