import { css } from 'lit';

export const documentPaneStyles = css`
  :host {
    display: block;
    min-width: 0;
  }

  .pane {
    display: grid;
    grid-template-rows: auto auto minmax(0, 1fr);
    gap: 0.5rem;
    height: 100%;
    min-height: 0;
  }

  .page-controls {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: 0.5rem;
  }

  .paging,
  .zoom {
    display: flex;
    align-items: center;
    gap: 0.375rem;
  }

  .page-number,
  .zoom-level {
    min-width: 3.5rem;
    color: var(--_extractor-muted);
    font-size: 0.875rem;
    font-variant-numeric: tabular-nums;
    text-align: center;
  }

  .page-number {
    min-width: 6.5rem;
  }

  .fill-hint {
    margin: 0;
    color: var(--_extractor-muted);
    font-size: 0.8125rem;
  }

  .scroller {
    position: relative;
    overflow: auto;
    min-height: 12rem;
    max-height: var(--_pane-height, 80vh);
    border: 1px solid var(--_extractor-border);
    border-radius: var(--_extractor-radius-container);
    background: var(--_extractor-subtle);
  }

  .scroller:focus-visible {
    outline-offset: -2px;
  }

  .sheet {
    position: relative;
    min-width: 100%;
    user-select: none;
    -webkit-user-select: none;
    touch-action: pan-x pan-y;
  }

  .picture {
    display: block;
    width: 100%;
    height: auto;
    /* A page is paper: white under dark surroundings too. */
    background: #fff;
  }

  .placeholder {
    display: grid;
    place-items: center;
    min-height: 12rem;
    color: var(--_extractor-muted);
    font-size: 0.875rem;
  }

  .highlight,
  .word {
    position: absolute;
    box-sizing: content-box;
    margin: 0;
    padding: 0;
  }

  .highlight {
    /* A little larger than the words, so the outline does not cover them. */
    translate: -2px -2px;
    padding: 2px;
    border: 1.5px solid color-mix(in srgb, var(--_extractor-accent) 55%, transparent);
    border-radius: 3px;
    background: color-mix(in srgb, var(--_extractor-accent) 8%, transparent);
    cursor: pointer;
  }

  .highlight:hover {
    border-color: var(--_extractor-accent);
    background: color-mix(in srgb, var(--_extractor-accent) 16%, transparent);
  }

  .highlight.current {
    border: 2px solid #e8a100;
    background: rgb(255 200 0 / 28%);
    box-shadow: 0 0 0 3px rgb(255 200 0 / 35%);
  }

  .highlight:focus-visible {
    outline: 3px solid var(--_extractor-focus);
    outline-offset: 2px;
  }

  /* While picking, and over the value being filled, the pointer reaches the words below. */
  .sheet.picking .highlight,
  .sheet.fillable .highlight.current {
    pointer-events: none;
  }

  .sheet.fillable .word {
    cursor: text;
  }

  .sheet .word.picked {
    background: color-mix(in srgb, var(--_extractor-accent) 30%, transparent);
  }

  .text-page {
    margin: 0;
    padding: 1rem 1.25rem;
    color: var(--_extractor-text);
    background: var(--_extractor-surface);
    font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace;
    font-size: 0.8125rem;
    line-height: 1.6;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }

  .text-page.fillable {
    user-select: none;
    -webkit-user-select: none;
    cursor: text;
  }

  .text-page .word {
    position: static;
  }

  .text-page mark.word {
    color: inherit;
    background: color-mix(in srgb, var(--_extractor-accent) 14%, transparent);
    border-radius: 2px;
    cursor: pointer;
  }

  .text-page mark.word.current {
    color: #1b2230;
    background: #ffd84d;
    outline: 2px solid #e8a100;
  }

  .text-page .word.picked {
    background: color-mix(in srgb, var(--_extractor-accent) 30%, transparent);
  }

  .text-page mark.word:focus-visible {
    outline: 3px solid var(--_extractor-focus);
    outline-offset: 1px;
  }

  @media (forced-colors: active) {
    .highlight,
    .text-page mark.word {
      border: 2px solid Highlight;
      forced-color-adjust: none;
    }

    .highlight.current,
    .text-page mark.word.current {
      border-color: Mark;
      background: transparent;
    }
  }
`;
