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

  .badge {
    display: inline-flex;
    align-items: center;
    gap: 0.5rem;
    padding: 0.125rem 0.625rem;
    border-radius: 999px;
    background: var(--_extractor-subtle);
    color: var(--_extractor-text);
    font-size: 0.875rem;
    font-weight: 600;
  }

  .badge::before {
    content: '';
    width: 0.5rem;
    height: 0.5rem;
    border-radius: 999px;
    background: var(--_extractor-muted);
  }

  .badge-running::before {
    background: var(--_extractor-accent);
    animation: extractor-pulse 1.6s ease-in-out infinite;
  }

  .badge-completed {
    background: color-mix(in srgb, var(--_extractor-success) 14%, transparent);
  }

  .badge-completed::before {
    background: var(--_extractor-success);
  }

  .badge-failed {
    background: var(--_extractor-danger-soft);
  }

  .badge-failed::before {
    background: var(--_extractor-danger);
  }

  @keyframes extractor-pulse {
    50% {
      opacity: 0.35;
    }
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

  @media (forced-colors: active) {
    .badge,
    .status {
      border: 1px solid CanvasText;
    }
    .badge::before {
      background: CanvasText;
    }
  }
`;
