/**
 * Custom element registration, guarded so that a page that loads the bundle twice (a
 * partner's script tag and our iframe's module, say) does not throw. Importing an element
 * class never registers it: entry modules (src/embed) call `defineElement`, and the app
 * calls `loadStepView` so that views after the first are fetched only when needed.
 */
import { loadLaterTexts } from '../../locales/localization.js';
import { ExtractorIntroductionView } from '../introduction-view/introduction-view.js';
import type { Step } from '../internal/steps.js';

export function defineElement(tag: string, constructor: CustomElementConstructor): void {
  // Without a document (server-side rendering) nothing is registered, not even in the
  // registry shim Lit's node build puts on globalThis: a server renderer that found the tag
  // there would draw the element's loading state into the page, and the browser would then
  // draw the element a second time beside it. The server sends the bare tag; the browser
  // upgrades it.
  if (typeof document === 'undefined') return;
  if (!customElements.get(tag)) customElements.define(tag, constructor);
}

const stepViewLoaders: Record<Step, () => Promise<void>> = {
  // The first view is part of the first load anyway (src/embed/define.ts registers it).
  introduction: async () => defineElement('extractor-introduction-view', ExtractorIntroductionView),
  bucket: () =>
    import('../bucket-view/bucket-view.js').then((module) =>
      defineElement('extractor-bucket-view', module.ExtractorBucketView),
    ),
  extraction: () =>
    import('../extraction-view/extraction-view.js').then((module) =>
      defineElement('extractor-extraction-view', module.ExtractorExtractionView),
    ),
  results: () =>
    import('../results-view/results-view.js').then((module) =>
      defineElement('extractor-results-view', module.ExtractorResultsView),
    ),
};

/**
 * Fetches and registers the view of a step, with the texts of the views after the first (so
 * none draws in English before its words are there); resolves at once when it is there
 * already.
 */
export async function loadStepView(step: Step): Promise<void> {
  if (step === 'introduction') return stepViewLoaders[step]();
  await Promise.all([stepViewLoaders[step](), loadLaterTexts()]);
}
