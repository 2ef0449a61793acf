import { css } from 'lit';

export const resultsViewStyles = css`
  .toolbar {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: 0.75rem;
    min-height: 2.25rem;
  }

  .save-status {
    margin: 0;
    color: var(--_extractor-muted);
    font-size: 0.875rem;
  }

  .save-status.invalid,
  .save-status.failed {
    color: var(--_extractor-danger);
  }

  .downloads {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem;
    margin-inline-start: auto;
  }

  .downloads-label {
    display: inline-flex;
    align-items: center;
    gap: 0.375rem;
    color: var(--_extractor-muted);
    font-size: 0.875rem;
  }

  .downloads-label .icon {
    width: 1rem;
    height: 1rem;
  }

  .button .icon {
    width: 1rem;
    height: 1rem;
  }

  .message.success {
    border-color: color-mix(in srgb, var(--_extractor-success) 45%, transparent);
    border-inline-start-color: var(--_extractor-success);
    background: color-mix(in srgb, var(--_extractor-success) 9%, transparent);
  }

  .message.success .message-title {
    display: inline-flex;
    align-items: center;
    gap: 0.375rem;
  }

  .message.success .icon {
    width: 1.125rem;
    height: 1.125rem;
    color: var(--_extractor-success);
  }

  /* Some documents could not be read: said plainly, with a mark of the problem. */
  .message.partial {
    display: grid;
    gap: 0.25rem;
    border-inline-start-color: var(--_extractor-danger);
  }

  /* The document switcher: where you are, Previous and Next, then a tab per document. */
  .switcher {
    display: grid;
    gap: 0.75rem;
  }

  .switcher-bar {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: 0.5rem 1rem;
  }

  .switcher-position {
    color: var(--_extractor-muted);
    font-size: 0.875rem;
    font-variant-numeric: tabular-nums;
  }

  .switcher-steps {
    display: flex;
    gap: 0.5rem;
  }

  .switcher-steps .button[aria-disabled='true'] {
    opacity: 0.55;
    cursor: default;
  }

  /*
   * Wide, every tab shows, in as many rows as it takes. Narrow, the tabs keep their size and
   * the row scrolls (the chosen one is scrolled to), rather than squeezing names to nothing.
   */
  .tabs {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    margin: -0.25rem;
    padding: 0.25rem;
  }

  @container (max-width: 36rem) {
    .tabs {
      flex-wrap: nowrap;
      overflow-x: auto;
      scroll-snap-type: x proximity;
      scrollbar-width: thin;
    }
  }

  .tab {
    display: grid;
    flex: 0 0 auto;
    justify-items: start;
    gap: 0.375rem;
    min-width: 9rem;
    max-width: 16rem;
    padding: 0.625rem 0.875rem;
    border: 1px solid var(--_extractor-border);
    border-radius: var(--_extractor-radius-container);
    background: var(--_extractor-surface);
    color: var(--_extractor-text);
    font: inherit;
    text-align: start;
    cursor: pointer;
    scroll-snap-align: start;
  }

  .tab:hover {
    border-color: color-mix(in srgb, var(--_extractor-text) 35%, var(--_extractor-border));
  }

  .tab[aria-selected='true'] {
    border-color: var(--_extractor-accent);
    background: var(--_extractor-accent-soft);
    box-shadow: inset 0 -3px 0 var(--_extractor-accent);
  }

  .tab-name {
    max-width: 100%;
    overflow: hidden;
    font-weight: 600;
    text-overflow: ellipsis;
    white-space: nowrap;
  }

  .tab .badge {
    font-size: 0.8125rem;
  }

  .badge-attention {
    background: var(--_extractor-danger-soft);
  }

  .badge-attention::before {
    background: var(--_extractor-danger);
  }

  /*
   * Review beside the document: wide, the fields and the document's pages side by side, the
   * pages staying in sight as the fields scroll; narrow, one or the other, with a toggle.
   */
  .review {
    display: grid;
    gap: 1rem;
    min-width: 0;
  }

  .review-toggle {
    display: flex;
    gap: 0.5rem;
  }

  .review-toggle .button[aria-pressed='true'] {
    border-color: var(--_extractor-accent);
    background: color-mix(in srgb, var(--_extractor-accent) 12%, var(--_extractor-surface));
    color: var(--_extractor-text);
  }

  .review.showing-fields .review-document,
  .review.showing-document .review-fields {
    display: none;
  }

  .review-fields {
    display: grid;
    gap: 1rem;
    align-content: start;
    min-width: 0;
  }

  .review-document {
    min-width: 0;
    --_pane-height: calc(100vh - 9rem);
  }

  @container (min-width: 50rem) {
    .review {
      grid-template-columns: minmax(0, 1fr) minmax(0, 1.15fr);
      align-items: start;
    }

    .review-toggle {
      display: none;
    }

    .review.showing-fields .review-document,
    .review.showing-document .review-fields {
      display: grid;
    }

    .review-document {
      position: sticky;
      top: 0.75rem;
      order: 2;
    }
  }

  /* The field of the highlight the pointer is over, on the page beside it. */
  .form .pointed {
    outline: 2px dashed var(--_extractor-accent);
    outline-offset: 0.375rem;
    border-radius: 0.25rem;
  }

  .review-count {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem;
    margin: 0;
    color: var(--_extractor-muted);
    font-size: 0.875rem;
  }

  .review-count.some {
    color: var(--_extractor-text);
    font-weight: 600;
  }

  .next-document {
    display: flex;
    justify-content: flex-end;
    min-width: 0;
  }

  .next-document .button {
    max-width: 100%;
    overflow-wrap: anywhere;
  }

  .document-panel {
    display: grid;
    gap: var(--_extractor-space);
  }

  /* Nothing found: its own state above the empty form, with the two ways on. */
  .message.nothing-found {
    display: grid;
    gap: 0.5rem;
    margin-block-end: var(--_extractor-space);
    border-inline-start-color: var(--_extractor-accent);
  }

  .nothing-found-actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
  }

  .failed-document {
    display: grid;
    justify-items: start;
    gap: var(--_extractor-space);
  }

  .failed-document .message {
    display: grid;
    gap: 0.25rem;
    justify-self: stretch;
  }

  .form {
    display: grid;
    gap: calc(var(--_extractor-space) * 1.5);
    margin: 0;
  }

  @media (forced-colors: active) {
    .tab {
      border: 1px solid ButtonText;
    }
    .tab[aria-selected='true'] {
      border: 3px solid Highlight;
    }
  }
`;
