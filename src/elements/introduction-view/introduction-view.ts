import { html } from 'lit';
import { fire } from '../internal/events.js';
import { ExtractorViewElement } from '../internal/view-element.js';
import { introductionViewStyles } from './introduction-view.styles.js';

/**
 * @tagname extractor-introduction-view
 * @summary The first step: what this extractor does, and the way in.
 *
 * @fires extractor-step-requested - The person chose to go on; `detail.step` is `bucket`.
 *
 * @csspart base - The view's wrapper.
 * @csspart header - The heading and description.
 * @csspart heading - The view's heading; focus moves here when the step shows.
 * @csspart description - The text under the heading.
 * @csspart actions - The row of buttons.
 * @csspart button - Every button.
 * @csspart next-button - The button that goes on to the upload step.
 *
 * @cssproperty --extractor-color-accent - The accent: primary buttons, progress, focus.
 * @cssproperty --extractor-color-text - The text colour.
 * @cssproperty --extractor-color-text-muted - Secondary text.
 * @cssproperty --extractor-radius - Corner radius of buttons and inputs.
 * @cssproperty --extractor-radius-container - Corner radius of panels, tables and the drop zone.
 * @cssproperty --extractor-font-family - The font; the page's when unset.
 * @cssproperty --extractor-spacing - The base unit of the space between things.
 */
export class ExtractorIntroductionView extends ExtractorViewElement {
  static override styles = [...ExtractorViewElement.styles, introductionViewStyles];

  #handleNext(): void {
    fire(this, 'extractor-step-requested', { step: 'bucket' });
  }

  override render() {
    const { labels } = this;
    return html`
      <section class="view" part="base" aria-labelledby="heading">
        <div class="emblem" aria-hidden="true">
          <svg
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            stroke-width="1.6"
            stroke-linecap="round"
            stroke-linejoin="round"
          >
            <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
            <path d="M14 3v5h5" />
            <path d="M9 13h6M9 17h4" />
          </svg>
        </div>
        ${this.renderHeader(labels.introductionViewHeading, labels.introductionViewDescription)}
        <div class="actions" part="actions">
          <button
            class="button primary"
            part="button next-button"
            type="button"
            @click=${this.#handleNext}
          >
            ${labels.introductionViewNextButtonLabel}
          </button>
        </div>
      </section>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'extractor-introduction-view': ExtractorIntroductionView;
  }
}
