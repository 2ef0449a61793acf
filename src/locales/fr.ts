/**
 * The interface's texts in French, by message id (src/locales/localization.ts).
 * `${0}`, `${1}`… are the English message's values, in its order; plural messages have
 * one id per category of Intl.PluralRules('fr'): one, many, other.
 *
 * In two parts: what the hosted page shows before the introduction (first-view/fr.ts),
 * loaded with the locale, and the rest (later/fr.ts), loaded with the later views
 * (catalogues.ts). The library builds load the whole.
 */
import type { TemplateMap } from '@lit/localize';
import { templates as firstView } from './first-view/fr.js';
import { templates as later } from './later/fr.js';

export const templates: TemplateMap = { ...firstView, ...later };
