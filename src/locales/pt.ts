/**
 * The interface's texts in Portuguese, by message id (src/locales/localization.ts).
 * `${0}`, `${1}`… are the English message's values, in its order; plural messages have
 * one id per category of Intl.PluralRules('pt'): one, many, other.
 *
 * In two parts: what the hosted page shows before the introduction (first-view/pt.ts),
 * loaded with the locale, and the rest (later/pt.ts), loaded with the later views
 * (catalogues.ts). The library builds load the whole.
 */
import type { TemplateMap } from '@lit/localize';
import { templates as firstView } from './first-view/pt.js';
import { templates as later } from './later/pt.js';

export const templates: TemplateMap = { ...firstView, ...later };
