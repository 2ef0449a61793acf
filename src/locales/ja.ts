/**
 * The interface's texts in Japanese, by message id (src/locales/localization.ts).
 * `${0}`, `${1}`… are the English message's values, in its order; plural messages have
 * one id per category of Intl.PluralRules('ja'): other.
 *
 * In two parts: what the hosted page shows before the introduction (first-view/ja.ts),
 * loaded with the locale, and the rest (later/ja.ts), loaded with the later views
 * (catalogues.ts). The library builds load the whole.
 */
import type { TemplateMap } from '@lit/localize';
import { templates as firstView } from './first-view/ja.js';
import { templates as later } from './later/ja.js';

export const templates: TemplateMap = { ...firstView, ...later };
