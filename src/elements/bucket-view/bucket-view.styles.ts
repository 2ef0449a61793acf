import { css } from 'lit';

export const bucketViewStyles = css`
  .drop-zone {
    display: grid;
    justify-items: center;
    gap: 0.75rem;
    padding: calc(var(--_extractor-space) * 2) var(--_extractor-space);
    border: 1.5px dashed var(--_extractor-border);
    border-radius: var(--_extractor-radius-container);
    background: var(--_extractor-subtle);
    text-align: center;
    cursor: pointer;
    transition:
      border-color 120ms ease,
      background-color 120ms ease;
  }

  .drop-zone:hover,
  .drop-zone.dragging {
    border-color: var(--_extractor-accent);
    background: var(--_extractor-accent-soft);
  }

  /* Files held over the zone: a solid edge. */
  .drop-zone.dragging {
    border-style: solid;
  }

  .drop-icon {
    display: grid;
    place-items: center;
    width: 3rem;
    height: 3rem;
    border-radius: 999px;
    background: var(--_extractor-surface);
    color: var(--_extractor-accent);
    box-shadow: 0 0 0 1px var(--_extractor-border);
  }

  .drop-icon .icon {
    width: 1.5rem;
    height: 1.5rem;
  }

  .drop-title {
    margin: 0;
    font-weight: 600;
  }

  .drop-hint {
    margin: 0;
    max-width: 48ch;
    color: var(--_extractor-muted);
    font-size: 0.875rem;
  }

  /* Dragging and pasting are for a mouse and keyboard; a phone gets the picker and camera. */
  @media (pointer: coarse) {
    .pointer-only {
      display: none;
    }
  }

  .files {
    display: grid;
    margin: 0;
    padding: 0;
    list-style: none;
    border: 1px solid var(--_extractor-border);
    border-radius: var(--_extractor-radius-container);
    background: var(--_extractor-surface);
  }

  .file {
    display: grid;
    grid-template-columns: auto minmax(0, 1fr) auto;
    align-items: center;
    gap: 0.75rem;
    padding: 0.75rem 0.75rem 0.75rem 1rem;
  }

  .file + .file {
    border-top: 1px solid var(--_extractor-border);
  }

  .file-icon {
    display: grid;
    place-items: center;
    width: 2rem;
    height: 2rem;
    border-radius: 999px;
    background: var(--_extractor-subtle);
    color: var(--_extractor-muted);
  }

  .file-icon .icon {
    width: 1.125rem;
    height: 1.125rem;
  }

  .file-icon.done {
    background: color-mix(in srgb, var(--_extractor-success) 14%, transparent);
    color: var(--_extractor-success);
  }

  .file-icon.problem {
    background: var(--_extractor-danger-soft);
    color: var(--_extractor-danger);
  }

  .file-text {
    display: grid;
    gap: 0.25rem;
    min-width: 0;
  }

  .file-name {
    overflow: hidden;
    font-weight: 600;
    text-overflow: ellipsis;
    white-space: nowrap;
  }

  .file-meta {
    color: var(--_extractor-muted);
    font-size: 0.875rem;
  }

  .file-problem {
    color: var(--_extractor-danger);
  }

  .file .progress {
    display: block;
    margin-top: 0.25rem;
  }

  /* A span, as the list item's phrasing content: a block, or its width is ignored. */
  .file .progress-fill {
    display: block;
  }

  .file-actions {
    display: flex;
    align-items: center;
    gap: 0.25rem;
  }

  .icon-button {
    padding: 0;
    width: 2.25rem;
  }

  .icon-button .icon {
    width: 1.125rem;
    height: 1.125rem;
  }

  @media (forced-colors: active) {
    .drop-zone {
      border: 2px dashed CanvasText;
    }
    .drop-zone.dragging {
      border-color: Highlight;
    }
  }
`;
