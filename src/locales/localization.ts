/**
 * Which language the interface speaks, and the words it says in it.
 *
 * Every built-in text goes through `@lit/localize`'s `msg()` with a stable id, in runtime
 * mode: English is written inline in the source, and each other language is a catalogue in
 * src/locales/ that is imported only when it is the active one, in two parts: what the
 * page shows before the introduction loads with the locale, the rest with the later views
 * (`loadLaterTexts`), so the first view waits for no more words than it shows. A partner may put any text
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
import { configureLocalization, LOCALE_STATUS_EVENT, type LocaleModule } from '@lit/localize';
import { loadCatalogue, type CataloguePart } from './catalogues.js';
import type { MessageOverrides } from './overrides.js';
import { supportedLocales, type SupportedLocale } from './supported-locales.js';

// The elements import a partner's texts' type with the rest of the localisation.
export type { MessageOverrides };

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
let getLocale: (() => string) | undefined;
/** The last change of locale, which the later texts wait for. */
let localeChange: Promise<void> = Promise.resolve();
let configured = false;

/**
 * Whether the later views' texts are wanted (a later view or notice has loaded): then every
 * locale loads both parts of its catalogue at once.
 */
let laterWanted = false;

const catalogueParts = new Map<string, Promise<Templates>>();

function catalogueOf(locale: SupportedLocale): Promise<Templates> {
  const parts: CataloguePart[] = laterWanted ? ['first-view', 'later'] : ['first-view'];
  return Promise.all(parts.map((part) => partOf(locale, part))).then((loaded) =>
    Object.assign({}, ...loaded),
  );
}

function partOf(locale: SupportedLocale, part: CataloguePart): Promise<Templates> {
  const key = `${locale}/${part}`;
  let catalogue = catalogueParts.get(key);
  if (!catalogue) {
    catalogue = loadCatalogue(locale, part);
    // A failed fetch (offline for a moment) may be tried again on the next change.
    catalogue.catch(() => catalogueParts.delete(key));
    catalogueParts.set(key, catalogue);
  }
  return catalogue;
}

function configure(): boolean {
  if (configured) return setLocale !== undefined;
  configured = true;
  try {
    ({ setLocale, getLocale } = configureLocalization({
      sourceLocale,
      targetLocales: supportedLocales,
      loadLocale: async (locale) => {
        const templates = { ...(await catalogueOf(locale as SupportedLocale)) };
        Object.assign(templates, await templatesOf(overrides));
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
export function applyLocale(
  choice: { locale: SupportedLocale; tag: string },
  strings: MessageOverrides = {},
): Promise<void> {
  const change = changeLocale(choice, strings);
  localeChange = change.catch(() => {});
  return change;
}

async function changeLocale(
  choice: { locale: SupportedLocale; tag: string },
  strings: MessageOverrides,
): Promise<void> {
  if (!configure()) return;
  const changed = !sameOverrides(strings, overrides);
  overrides = strings;
  formattingTag = choice.tag;
  const templates = activeTemplates[choice.locale];
  if (changed && templates) {
    // @lit/localize loads a locale once and keeps its templates object; new overrides for
    // the same locale are laid over that object and the elements told to redraw.
    const [catalogue, replaced] = await Promise.all([
      catalogueOf(choice.locale),
      templatesOf(strings),
    ]);
    for (const id of Object.keys(templates)) delete templates[id];
    Object.assign(templates, catalogue, replaced);
  }
  await setLocale!(choice.locale);
  if (changed && templates && typeof window !== 'undefined')
    window.dispatchEvent(
      new CustomEvent(LOCALE_STATUS_EVENT, {
        detail: { status: 'ready', readyLocale: choice.locale },
      }),
    );
}

/**
 * Loads the texts of the views after the introduction into the active locale's templates.
 * The app awaits it with each later view or notice it loads, before that renders; the
 * locales applied after it load them at once. Rejects when the catalogue cannot be fetched,
 * as the view's own file would.
 */
export async function loadLaterTexts(): Promise<void> {
  laterWanted = true;
  if (!configure()) return;
  // A locale still loading loads the later part with it now; one loaded has it laid in.
  await localeChange;
  const locale = getLocale!();
  const templates = activeTemplates[locale];
  if (!templates) return;
  const [later, replaced] = await Promise.all([
    partOf(locale as SupportedLocale, 'later'),
    templatesOf(overrides),
  ]);
  // The overrides stay above the catalogue, as in loadLocale.
  Object.assign(templates, later, replaced);
}

/** A partner's texts as templates; their compiler loads only when there are some. */
async function templatesOf(strings: MessageOverrides): Promise<Templates> {
  if (Object.keys(strings).length === 0) return {};
  return (await import('./overrides.js')).compileOverrides(strings);
}

function sameOverrides(a: MessageOverrides, b: MessageOverrides): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}
