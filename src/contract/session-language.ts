/**
 * The language a session asks for: a `locale` (a BCP 47 tag) and `strings`, the partner's
 * own text for any of the interface's messages by id. One schema checks them wherever they
 * come from (`POST /api/embed_sessions`, and the iFrame's `set-strings` command). Both come from a partner's server and are
 * shown to people, so they are held to sizes a message catalogue needs and to plain text.
 */
import * as z from 'zod/mini';
import { embedSessionInputSchema } from './resources.js';

/** RFC 5646 advises room for 35 characters; longer tags are not in real use. */
export const maxLocaleLength = 35;
export const maxStringOverrides = 500;
export const maxMessageIdLength = 100;
export const maxMessageLength = 500;

/**
 * Whether a tag is well-formed, judged as the browser that shows the interface will judge
 * it (`Intl` throws a RangeError on an ill-formed tag). A well-formed tag for a language
 * the interface has no catalogue for is still kept: the interface falls back.
 */
function isWellFormedLocale(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

/** `de-de` → `de-DE`: the tag as `Intl` writes it, which is how the interface compares it. */
export function canonicalLocale(tag: string): string {
  return Intl.getCanonicalLocales(tag)[0]!;
}

export const localeSchema = z.string().check(
  // A tag too long is refused for that alone (`abort`), without also being parsed.
  z.maxLength(maxLocaleLength, {
    message: `a locale is at most ${maxLocaleLength} characters`,
    abort: true,
  }),
  z.refine(isWellFormedLocale, 'not a well-formed BCP 47 language tag, like de or pt-BR'),
  z.describe(
    'A BCP 47 language tag (`de`, `pt-BR`, `ar`) for the interface. A language the interface ' +
      'has no translation for is kept, and the interface falls back to the browser’s languages, ' +
      'then English.',
  ),
);

const messageIdSchema = z
  .string()
  .check(
    z.minLength(1),
    z.maxLength(maxMessageIdLength),
    z.regex(/^[A-Za-z0-9._-]+$/, 'a message id is letters, digits, dots, dashes and underscores'),
  );

/** Control characters (C0, DEL, C1): text with them would not show as the partner meant. */
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Characters that change how the text around them shows without showing themselves: the
 * bidirectional embeddings, overrides and isolates (U+202A–202E, U+2066–2069), with which
 * `Upload \u202Efdp.exe` reads as `Upload exe.pdf`; the zero-width space, the word
 * joiner and U+FEFF, which hide inside a word; and the line and paragraph separators.
 * Kept: the zero-width joiner and non-joiner (U+200D, U+200C), which Persian and the
 * Indic scripts need to be spelt right and emoji sequences are made of, and the
 * left-to-right, right-to-left and Arabic letter marks (U+200E, U+200F, U+061C), which
 * right-to-left text needs around numbers and Latin words and which mark a position only.
 */
const invisibleFormatting = /[\u202a-\u202e\u2066-\u2069\u200b\u2060\ufeff\u2028\u2029]/;

const messageSchema = z.string().check(
  z.maxLength(maxMessageLength),
  z.refine((text) => !controlCharacter.test(text), 'text must not hold control characters'),
  z.refine(
    (text) => !invisibleFormatting.test(text),
    'text must not hold bidirectional embeddings, overrides or isolates (U+202A–U+202E, ' +
      'U+2066–U+2069), zero-width spaces (U+200B, U+2060, U+FEFF) or line separators ' +
      '(U+2028, U+2029)',
  ),
);

export const stringOverridesSchema = z
  .record(messageIdSchema, messageSchema, {
    // Zod reports a bad key as `invalid_key`, a code its types for records do not list, with
    // only "Invalid key in record" for a message; the key's own issues say what is wrong.
    error: (issue) => {
      const { code, issues } = issue as { code?: string; issues?: { message: string }[] };
      return code === 'invalid_key' && issues?.[0] ? issues[0].message : undefined;
    },
  })
  .check(
    // Counted after the entries are read: the body's own size limit bounds that work.
    z.refine(
      (strings) => Object.keys(strings).length <= maxStringOverrides,
      `at most ${maxStringOverrides} strings`,
    ),
    z.describe(
      'The partner’s own text for built-in messages, by message id (the ids of the interface’s ' +
        'catalogue, e.g. `upload.dropHint`), shown as plain text. The extractor’s own labels ' +
        `still win where they are set. At most ${maxStringOverrides} entries; ids of at most ` +
        `${maxMessageIdLength} characters of A–Z, a–z, 0–9, \`.\`, \`_\` and \`-\`; texts of at ` +
        `most ${maxMessageLength} characters without control characters.`,
    ),
  );
export type StringOverrides = z.infer<typeof stringOverridesSchema>;

/**
 * The body of `POST /api/embed_sessions`, with the session's language. It lives here, apart
 * from resources.ts, because the checks above are the server's to make: the interface reads
 * a session's `locale` and `strings`, it never checks them, and resources.ts is in what
 * loads before the introduction shows (a 35 KB budget).
 */
export const embedSessionInputWithLanguageSchema = /* @__PURE__ */ (() =>
  z.extend(embedSessionInputSchema, {
    locale: z.optional(localeSchema),
    strings: z.optional(stringOverridesSchema),
  }))();
export type EmbedSessionInputWithLanguage = z.infer<typeof embedSessionInputWithLanguageSchema>;
