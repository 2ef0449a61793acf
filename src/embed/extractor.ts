/**
 * The custom element library, built to /sdk/extractor.mjs (an ES module) and
 * /sdk/extractor.js (a classic script): importing it registers the tags, guarded, and does
 * nothing else. Nothing here touches window or document while the module loads, so a
 * server-side renderer can import it.
 *
 *   <script type="module" src="https://extractor.example/sdk/extractor.mjs"></script>
 *   <extractor-app base-url="https://extractor.example" session="xses_…"></extractor-app>
 */
import { defineExtractorElements } from './define.js';

export { ExtractorApp, type AppMode } from '../elements/app/app.js';
export { ExtractorIntroductionView } from '../elements/introduction-view/introduction-view.js';
export { ExtractorBucketView } from '../elements/bucket-view/bucket-view.js';
export { ExtractorExtractionView } from '../elements/extraction-view/extraction-view.js';
export { ExtractorResultsView } from '../elements/results-view/results-view.js';
export type * from '../elements/internal/events.js';
export type { Step } from '../elements/internal/steps.js';
export { defineAllExtractorElements } from './define.js';

defineExtractorElements();
