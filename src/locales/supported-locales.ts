/**
 * The languages the interface has a complete catalogue for; English is the source. The
 * ground floor of src/locales/: the catalogues' loaders and the localisation both read it.
 */
export const supportedLocales = [
  'en',
  'de',
  'fr',
  'es',
  'it',
  'nl',
  'pt',
  'pl',
  'ja',
  'ar',
] as const;
export type SupportedLocale = (typeof supportedLocales)[number];
