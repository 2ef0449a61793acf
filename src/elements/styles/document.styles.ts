/**
 * Styles of a run's documents, shared by the views that list them (extraction and
 * results) and kept out of the first view: a document's status badge and its
 * "Replace file" control.
 */
import { css } from 'lit';

export const documentStyles = css`
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

  .badge-partially_completed {
    background: var(--_extractor-danger-soft);
  }

  .badge-partially_completed::before {
    background: linear-gradient(90deg, var(--_extractor-success) 50%, var(--_extractor-danger) 50%);
  }

  @keyframes extractor-pulse {
    50% {
      opacity: 0.35;
    }
  }

  /* A document's "Replace file": the button, then how the sending goes or why it failed. */
  .replace {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem 1rem;
  }

  .replace .progress {
    flex: 1 1 8rem;
  }

  .replace-error {
    flex-basis: 100%;
    margin: 0;
    color: var(--_extractor-danger);
    font-size: 0.875rem;
  }

  @media (forced-colors: active) {
    .badge {
      border: 1px solid CanvasText;
    }
    .badge::before {
      background: CanvasText;
    }
  }
`;
