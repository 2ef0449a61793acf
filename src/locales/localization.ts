/**
 * Which language the interface speaks, and the words it says in it.
 *
 * Every built-in text goes through `@lit/localize`'s `msg()` with a stable id, in runtime
 * mode: English is written inline in the source, and each other language is a catalogue in
 * src/locales/ that is imported only when it is the active one. A partner may put any text
 * of their own in place of a built-in one by its id (`strings` on the session and on the
 * element); the extractor's labels stay above both, as they are not built-in texts.
 *
 * The locale comes from, in this order: the element's `locale` attribute (embed.js's
 * `locale` option sets it on the frame), the session's `locale`, the browser's languages
 * matched by their language subtag, then English.
 *
 * @lit/localize keeps one active locale per page (its `msg` is a module-level function), so
 * two apps on one page speak the language of whichever set it last.
 */
import {
  configureLocalization,
  LOCALE_STATUS_EVENT,
  msg,
  type LocaleModule,
  type StrResult,
} from '@lit/localize';

/** The languages the interface has a complete catalogue for; English is the source. */
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

/** Texts by message id; a partner's replacements for built-in ones. */
export type MessageOverrides = Readonly<Record<string, string>>;

type Templates = LocaleModule['templates'];

/** Languages written right to left, by language subtag. */
const rightToLeft = new Set(['ar', 'fa', 'he', 'ur', 'ps', 'yi', 'dv', 'ckb']);

/**
 * The source locale is a private-use tag no one asks for, and English is one of the
 * targets: @lit/localize uses no templates at all for its source locale, and a partner's
 * overrides must apply in English too. The English "catalogue" is empty (its texts are the
 * source's); the overrides are laid over it like over any other.
 */
const sourceLocale = 'en-x-source';

/** The templates @lit/localize reads from, per locale: the catalogue with the overrides over it. */
const activeTemplates: Record<string, Templates> = {};
let overrides: MessageOverrides = {};
let formattingTag = 'en';
let setLocale: ((locale: string) => Promise<void>) | undefined;
let configured = false;

async function loadCatalogue(locale: SupportedLocale): Promise<Templates> {
  // One import() per locale, so that the bundler splits each into a file of its own and
  // only the active one is fetched.
  switch (locale) {
    case 'en':
      return {};
    case 'de':
      return (await import('./de.js')).templates;
    case 'fr':
      return (await import('./fr.js')).templates;
    case 'es':
      return (await import('./es.js')).templates;
    case 'it':
      return (await import('./it.js')).templates;
    case 'nl':
      return (await import('./nl.js')).templates;
    case 'pt':
      return (await import('./pt.js')).templates;
    case 'pl':
      return (await import('./pl.js')).templates;
    case 'ja':
      return (await import('./ja.js')).templates;
    case 'ar':
      return (await import('./ar.js')).templates;
  }
}

const catalogues = new Map<SupportedLocale, Promise<Templates>>();

function catalogueOf(locale: SupportedLocale): Promise<Templates> {
  let catalogue = catalogues.get(locale);
  if (!catalogue) {
    catalogue = loadCatalogue(locale);
    // A failed fetch (offline for a moment) may be tried again on the next change.
    catalogue.catch(() => catalogues.delete(locale));
    catalogues.set(locale, catalogue);
  }
  return catalogue;
}

function configure(): boolean {
  if (configured) return setLocale !== undefined;
  configured = true;
  try {
    ({ setLocale } = configureLocalization({
      sourceLocale,
      targetLocales: supportedLocales,
      loadLocale: async (locale) => {
        const templates = { ...(await catalogueOf(locale as SupportedLocale)) };
        Object.assign(templates, compileOverrides(overrides));
        activeTemplates[locale] = templates;
        return { templates };
      },
    }));
  } catch {
    // The page configured @lit/localize for itself already (it can be configured once per
    // page): our texts then follow its locale, and English where it has none of ours.
  }
  return setLocale !== undefined;
}

/** The supported locale of the first of these language tags that has one, else English. */
export function matchLocale(candidates: readonly (string | null | undefined)[]): {
  locale: SupportedLocale;
  /** The tag as asked for (`de-CH`), for numbers and dates; the locale when none was. */
  tag: string;
} {
  for (const candidate of candidates) {
    const tag = candidate?.trim();
    if (!tag) continue;
    let canonical: string;
    try {
      canonical = Intl.getCanonicalLocales(tag)[0]!;
    } catch {
      continue;
    }
    const language = canonical.split('-')[0]!.toLowerCase();
    const locale = supportedLocales.find((supported) => supported === language);
    if (locale) return { locale, tag: canonical };
  }
  return { locale: 'en', tag: 'en' };
}

/** The browser's languages, most wanted first. */
export function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language];
}

/** `rtl` for a language written right to left, else `ltr`. */
export function directionOf(tag: string): 'ltr' | 'rtl' {
  return rightToLeft.has(tag.split('-')[0]!.toLowerCase()) ? 'rtl' : 'ltr';
}

/** The language tag numbers, dates and plural forms follow. */
export function formattingLocale(): string {
  return formattingTag;
}

/**
 * Makes `locale` the interface's language, with these overrides over its catalogue. Resolves
 * when the texts are there to render; elements that `updateWhenLocaleChanges` redraw then.
 */
export async function applyLocale(
  choice: { locale: SupportedLocale; tag: string },
  strings: MessageOverrides = {},
): Promise<void> {
  if (!configure()) return;
  const changed = !sameOverrides(strings, overrides);
  overrides = strings;
  formattingTag = choice.tag;
  const templates = activeTemplates[choice.locale];
  if (changed && templates) {
    // @lit/localize loads a locale once and keeps its templates object; new overrides for
    // the same locale are laid over that object and the elements told to redraw.
    const catalogue = await catalogueOf(choice.locale);
    for (const id of Object.keys(templates)) delete templates[id];
    Object.assign(templates, catalogue, compileOverrides(strings));
  }
  await setLocale!(choice.locale);
  if (changed && templates && typeof window !== 'undefined')
    window.dispatchEvent(
      new CustomEvent(LOCALE_STATUS_EVENT, {
        detail: { status: 'ready', readyLocale: choice.locale },
      }),
    );
}

function sameOverrides(a: MessageOverrides, b: MessageOverrides): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/**
 * A partner's texts as @lit/localize templates. `{0}`, `{1}`… stand for the values of the
 * built-in message in their English order ("Schritt {0} von {1}"), the form the catalogues'
 * `${0}` takes. The text is only ever rendered as text.
 */
export function compileOverrides(strings: MessageOverrides): Templates {
  const templates: Templates = {};
  for (const [id, text] of Object.entries(strings)) {
    if (typeof text !== 'string' || !text.trim()) continue;
    const pieces = text.split(/\{(\d)\}/);
    if (pieces.length === 1) {
      templates[id] = text;
      continue;
    }
    const strings = pieces.filter((_, index) => index % 2 === 0);
    const values = pieces.filter((_, index) => index % 2 === 1).map(Number);
    templates[id] = {
      strTag: true,
      strings: Object.assign([...strings], { raw: [...strings] }),
      values,
    } as unknown as StrResult;
  }
  return templates;
}

const pluralRules = new Map<string, Intl.PluralRules>();

/**
 * Picks the plural form of a message for `count` in the active locale: the message id is
 * `id.category` (`documents.one`, and in Arabic also `.zero`, `.two`, `.few`, `.many`), with
 * the categories of Intl.PluralRules. English gives `one` and `other`; a category English
 * lacks falls back to its `other` text until a catalogue has it.
 */
export function plural(
  count: number,
  forms: { one: StrResult; other: StrResult },
  options: { id: string },
): string {
  let rules = pluralRules.get(formattingTag);
  if (!rules) {
    rules = new Intl.PluralRules(formattingTag);
    pluralRules.set(formattingTag, rules);
  }
  const category = rules.select(count);
  const template = category === 'one' ? forms.one : forms.other;
  return msg(template, { id: `${options.id}.${category}` });
}
