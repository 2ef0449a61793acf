/**
 * A partner's replacements for built-in texts (`strings` on the session and the element),
 * compiled for @lit/localize; loaded only when a partner gives some.
 */
import type { LocaleModule, StrResult } from '@lit/localize';
type Templates = LocaleModule['templates'];

/** Texts by message id; a partner's replacements for built-in ones. */
export type MessageOverrides = Readonly<Record<string, string>>;

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
