/**
 * What the four views have in common: the labels, client, extractor, bucket and run from
 * context, the heading a step moves focus to, and the frame of heading, description and
 * actions. Not an element of its own.
 */
import { consume } from '@lit/context';
import { updateWhenLocaleChanges } from '@lit/localize';
import { html, LitElement, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { labelDefaults, type Labels } from '../../contract/labels.js';
import type { ExtractorClient } from '../../client/client.js';
import type { Bucket, Extractor, Run } from '../../contract/resources.js';
import {
  bucketContext,
  clientContext,
  extractorContext,
  labelsContext,
  runContext,
} from './context.js';
import { controlStyles, tokenStyles, viewStyles } from '../styles/theme.styles.js';

export abstract class ExtractorViewElement extends LitElement {
  static override styles = [tokenStyles, controlStyles, viewStyles];

  @consume({ context: labelsContext, subscribe: true })
  @state()
  protected labels: Labels = { ...labelDefaults };

  // What the app provides to every view; the introduction needs none of it, the others most.
  @consume({ context: clientContext, subscribe: true })
  @state()
  protected client: ExtractorClient | undefined;

  @consume({ context: extractorContext, subscribe: true })
  @state()
  protected extractor: Extractor | undefined;

  @consume({ context: bucketContext, subscribe: true })
  @state()
  protected bucket: Bucket | undefined;

  @consume({ context: runContext, subscribe: true })
  @state()
  protected run: Run | undefined;

  /** The level of the view's heading: 1 on the full page, 2 inside someone else's page. */
  @property({ type: Number, attribute: 'heading-level' }) headingLevel = 2;

  constructor() {
    super();
    // The built-in texts follow the language the app chose (src/locales/localization.ts).
    updateWhenLocaleChanges(this);
  }

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
