import { css } from 'lit';

export const extractionViewStyles = css`
  .status {
    display: grid;
    gap: 0.75rem;
    padding: var(--_extractor-space);
    border: 1px solid var(--_extractor-border);
    border-radius: var(--_extractor-radius-container);
    background: var(--_extractor-surface);
  }

  .status:focus {
    outline: none;
  }

  .status:focus-visible {
    outline: 2px solid var(--_extractor-focus);
    outline-offset: 2px;
  }

  /* A run that stopped keeps its bar where it got to, in a quiet colour. */
  .progress.stopped .progress-fill {
    background: var(--_extractor-muted);
  }

  .status-head {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: 0.5rem;
  }

  .time {
    color: var(--_extractor-muted);
    font-size: 0.875rem;
    font-variant-numeric: tabular-nums;
  }

  .status-line {
    margin: 0;
    color: var(--_extractor-muted);
    font-size: 0.875rem;
    font-variant-numeric: tabular-nums;
  }

  .message.error {
    display: grid;
    gap: 0.25rem;
  }

  .found {
    display: grid;
    gap: 0.75rem;
  }

  .found-heading {
    display: flex;
    align-items: baseline;
    justify-content: space-between;
    gap: 1rem;
    margin: 0;
    font-size: 1rem;
    font-weight: 600;
  }

  .found-count {
    color: var(--_extractor-muted);
    font-size: 0.875rem;
    font-weight: 400;
    font-variant-numeric: tabular-nums;
  }

  .found-list {
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    column-gap: 2rem;
    margin: 0;
    padding: 0 1rem;
    border: 1px solid var(--_extractor-border);
    border-radius: var(--_extractor-radius-container);
    background: var(--_extractor-surface);
  }

  .found-item {
    display: flex;
    align-items: baseline;
    justify-content: space-between;
    gap: 1rem;
    min-width: 0;
    padding: 0.625rem 0;
    border-top: 1px solid var(--_extractor-border);
  }

  .found-item:first-child {
    border-top: none;
  }

  @container (min-width: 36rem) {
    .found-list {
      grid-template-columns: repeat(2, minmax(0, 1fr));
    }
    .found-item:nth-child(2) {
      border-top: none;
    }
  }

  .found-item dt {
    flex: none;
    color: var(--_extractor-muted);
    font-size: 0.875rem;
  }

  .found-item dd {
    min-width: 0;
    margin: 0;
    overflow: hidden;
    font-weight: 600;
    text-align: end;
    text-overflow: ellipsis;
    white-space: nowrap;
  }

  .found-item dd.missing {
    color: var(--_extractor-muted);
    font-weight: 400;
  }

  .document-list {
    margin: 0;
    padding: 0;
    list-style: none;
    border: 1px solid var(--_extractor-border);
    border-radius: var(--_extractor-radius-container);
    background: var(--_extractor-surface);
  }

  .document {
    display: grid;
    gap: 0.5rem;
    padding: 0.75rem 1rem;
    border-top: 1px solid var(--_extractor-border);
  }

  .document:first-child {
    border-top: none;
  }

  .document-head {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: 0.25rem 0.75rem;
  }

  .document-name {
    min-width: 0;
    font-weight: 600;
    overflow-wrap: anywhere;
  }

  .document-line {
    margin: 0;
    color: var(--_extractor-muted);
    font-size: 0.875rem;
    font-variant-numeric: tabular-nums;
  }

  .document-failed .document-line {
    color: var(--_extractor-danger);
  }

  .documents {
    display: grid;
    gap: 0.75rem;
  }

  @media (forced-colors: active) {
    .status {
      border: 1px solid CanvasText;
    }
  }
`;
