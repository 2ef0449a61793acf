/**
 * The interface's texts in Arabic, by message id (src/locales/localization.ts).
 * `${0}`, `${1}`… are the English message's values, in its order; plural messages have
 * one id per category of Intl.PluralRules('ar'): zero, one, two, few, many, other.
 *
 * In two parts: what the hosted page shows before the introduction (first-view/ar.ts),
 * loaded with the locale, and the rest (later/ar.ts), loaded with the later views
 * (catalogues.ts). The library builds load the whole.
 */
import type { TemplateMap } from '@lit/localize';
import { templates as firstView } from './first-view/ar.js';
import { templates as later } from './later/ar.js';

export const templates: TemplateMap = { ...firstView, ...later };
