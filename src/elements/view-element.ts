/**
 * What the four views have in common: the labels from context, the heading a step moves
 * focus to, and the frame of heading, description and actions. Not an element of its own.
 */
import { consume } from '@lit/context';
import { html, LitElement, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { labelDefaults, type Labels } from '../contract/labels.js';
import { labelsContext } from './context.js';
import { controlStyles, tokenStyles, viewStyles } from './theme.styles.js';

export abstract class ExtractorViewElement extends LitElement {
  static override styles = [tokenStyles, controlStyles, viewStyles];

  @consume({ context: labelsContext, subscribe: true })
  @state()
  protected labels: Labels = { ...labelDefaults };

  /** The level of the view's heading: 1 on the full page, 2 inside someone else's page. */
  @property({ type: Number, attribute: 'heading-level' }) headingLevel = 2;

  /** Moves focus to the heading, so a screen reader announces the new step. */
  focusHeading(): void {
    this.renderRoot.querySelector<HTMLElement>('.heading')?.focus({ preventScroll: false });
  }

  protected renderHeader(heading: string, description: string): TemplateResult {
    return html`
      <header class="header" part="header">
        <div
          id="heading"
          class="heading"
          part="heading"
          role="heading"
          aria-level=${this.headingLevel}
          tabindex="-1"
        >
          ${heading}
        </div>
        ${description ? html`<p class="description" part="description">${description}</p>` : null}
      </header>
    `;
  }
}
