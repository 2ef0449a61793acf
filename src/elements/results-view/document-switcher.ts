/**
 * The switcher of a run of several documents: where you are, Previous and Next, and a tab
 * per document with its state (read, needs attention, could not be read); and, at the end
 * of a long document, a button to the next one.
 */
import { html, nothing } from 'lit';
import type { RunDocumentState } from '../../client/run-documents.js';
import { documentStatusNames, documentText } from '../internal/document-text.js';

/** What the switcher shows and how it asks the view to move. */
export interface DocumentSwitcher {
  documents: RunDocumentState[];
  /** The chosen document's place in `documents`. */
  index: number;
  /** The chosen document's file. */
  selected: string | undefined;
  /** Whether a document's values need attention (its tab says so). */
  needsAttention(file: string): boolean;
  onStep(step: -1 | 1): void;
  onSelect(file: string, options?: { focusTab?: boolean }): void;
  /** The arrow keys, Home and End on the tabs; called with the view as `this`. */
  onTabKeydown(event: KeyboardEvent): void;
}

export function renderDocumentSwitcher(switcher: DocumentSwitcher) {
  const { documents, index } = switcher;
  const last = documents.length - 1;
  return html`<div class="switcher" part="document-switcher">
    <div class="switcher-bar">
      <span class="switcher-position" aria-live="polite"
        >${documentText.position(index, documents.length)}</span
      >
      <span class="switcher-steps">
        <button
          class="button small"
          part="button previous-document-button"
          type="button"
          aria-label=${documentText.previousName}
          aria-disabled=${index === 0 ? 'true' : 'false'}
          @click=${() => switcher.onStep(-1)}
        >
          <span aria-hidden="true">‹</span> ${documentText.previous}
        </button>
        <button
          class="button small"
          part="button next-document-button"
          type="button"
          aria-label=${documentText.nextName}
          aria-disabled=${index === last ? 'true' : 'false'}
          @click=${() => switcher.onStep(1)}
        >
          ${documentText.next} <span aria-hidden="true">›</span>
        </button>
      </span>
    </div>
    <div
      class="tabs"
      part="document-tabs"
      role="tablist"
      aria-label=${documentText.documents}
      @keydown=${switcher.onTabKeydown}
    >
      ${documents.map((document, position) => renderTab(switcher, document, position))}
    </div>
  </div>`;
}

/**
 * At the end of a long document, the next one is a press away, without scrolling back up
 * to the tabs; focus goes to its tab, so the page and a screen reader follow.
 */
export function renderNextDocument({ documents, index, onSelect }: DocumentSwitcher) {
  const next = documents[index + 1];
  if (!next) return nothing;
  return html`<div class="next-document">
    <button
      class="button quiet"
      part="button next-document-button"
      type="button"
      @click=${() => onSelect(next.file, { focusTab: true })}
    >
      ${documentText.nextNamed(next.name)} <span aria-hidden="true">›</span>
    </button>
  </div>`;
}

function renderTab(switcher: DocumentSwitcher, document: RunDocumentState, position: number) {
  const chosen = document.file === switcher.selected;
  const attention = switcher.needsAttention(document.file);
  const state = attention ? 'attention' : document.status;
  return html`<button
    class="tab"
    part="document-tab"
    type="button"
    role="tab"
    id="document-tab-${position}"
    aria-selected=${chosen ? 'true' : 'false'}
    aria-controls="document-panel"
    tabindex=${chosen ? '0' : '-1'}
    @click=${() => switcher.onSelect(document.file)}
  >
    <span class="tab-name" title=${document.name}>${document.name}</span>
    <span class="badge badge-${state}"
      >${attention ? documentText.attention : documentStatusNames[document.status]}</span
    >
  </button>`;
}
