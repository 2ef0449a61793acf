/**
 * The interface's texts in Dutch, by message id (src/locales/localization.ts).
 * `${0}`, `${1}`… are the English message's values, in its order; plural messages have
 * one id per category of Intl.PluralRules('nl'): one, other.
 *
 * In two parts: what the hosted page shows before the introduction (first-view/nl.ts),
 * loaded with the locale, and the rest (later/nl.ts), loaded with the later views
 * (catalogues.ts). The library builds load the whole.
 */
import type { TemplateMap } from '@lit/localize';
import { templates as firstView } from './first-view/nl.js';
import { templates as later } from './later/nl.js';

export const templates: TemplateMap = { ...firstView, ...later };
