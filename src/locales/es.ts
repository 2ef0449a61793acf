/**
 * The interface's texts in Spanish, by message id (src/locales/localization.ts).
 * `${0}`, `${1}`… are the English message's values, in its order; plural messages have
 * one id per category of Intl.PluralRules('es'): one, many, other.
 *
 * In two parts: what the hosted page shows before the introduction (first-view/es.ts),
 * loaded with the locale, and the rest (later/es.ts), loaded with the later views
 * (catalogues.ts). The library builds load the whole.
 */
import type { TemplateMap } from '@lit/localize';
import { templates as firstView } from './first-view/es.js';
import { templates as later } from './later/es.js';

export const templates: TemplateMap = { ...firstView, ...later };
