/**
 * The one place the elements are registered. The app and its first view are registered
 * at once, so the introduction shows without waiting; the later views register when the
 * app first needs them (elements/app/registry.ts), which lets the hosted page load them lazily.
 */
import { ExtractorApp } from '../elements/app/app.js';
import { ExtractorIntroductionView } from '../elements/introduction-view/introduction-view.js';
import { defineElement, loadStepView } from '../elements/app/registry.js';
import { steps } from '../elements/internal/steps.js';

export function defineExtractorElements(): void {
  defineElement('extractor-app', ExtractorApp);
  defineElement('extractor-introduction-view', ExtractorIntroductionView);
}

/** Registers every view now, for a page that uses a view on its own. */
export async function defineAllExtractorElements(): Promise<void> {
  defineExtractorElements();
  await Promise.all(steps.map((step) => loadStepView(step)));
}
