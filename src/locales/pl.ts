/**
 * The interface's texts in Polish, by message id (src/locales/localization.ts).
 * `${0}`, `${1}`… are the English message's values, in its order; plural messages have
 * one id per category of Intl.PluralRules('pl'): one, few, many, other.
 *
 * In two parts: what the hosted page shows before the introduction (first-view/pl.ts),
 * loaded with the locale, and the rest (later/pl.ts), loaded with the later views
 * (catalogues.ts). The library builds load the whole.
 */
import type { TemplateMap } from '@lit/localize';
import { templates as firstView } from './first-view/pl.js';
import { templates as later } from './later/pl.js';

export const templates: TemplateMap = { ...firstView, ...later };
