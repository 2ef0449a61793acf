import { css } from 'lit';

/**
 * The app's frame. Its colour scheme is light unless the page asks for dark, or for the
 * person's system setting (`auto`): the color-scheme attribute, shown as a custom state. A
 * page can still pin a scheme in its own CSS, which wins over these.
 */
export const appStyles = css`
  :host {
    color-scheme: light;
  }

  :host(:state(dark)) {
    color-scheme: dark;
  }

  :host(:state(auto)) {
    color-scheme: light dark;
  }

  .base {
    display: grid;
    gap: calc(var(--_extractor-space) * 1.25);
    background: var(--_extractor-background);
  }

  .steps {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: 0.5rem 1rem;
    color: var(--_extractor-muted);
    font-size: 0.8125rem;
    font-weight: 500;
  }

  /* The full page's session ending soon, or ended: the words, then Continue working. */
  .session-notice {
    display: grid;
    justify-items: start;
    gap: 0.5rem;
    border-inline-start-color: var(--_extractor-accent);
  }

  .step-bar {
    display: grid;
    grid-template-columns: repeat(4, 1fr);
    gap: 0.25rem;
    width: min(10rem, 40%);
  }

  .step-segment {
    height: 0.25rem;
    border-radius: 999px;
    background: var(--_extractor-border);
  }

  .step-segment.done {
    background: var(--_extractor-accent);
  }

  .status-panel {
    display: grid;
    justify-items: start;
    gap: 0.75rem;
    padding: calc(var(--_extractor-space) * 1.5) 0;
  }

  .status-panel.loading {
    display: flex;
    align-items: center;
    gap: 0.75rem;
    color: var(--_extractor-muted);
  }

  .status-title {
    font-size: 1.25rem;
    font-weight: 650;
    line-height: 1.3;
  }

  .status-text {
    margin: 0;
    max-width: 60ch;
    color: var(--_extractor-muted);
  }

  .spinner {
    width: 1.25rem;
    height: 1.25rem;
    border: 2px solid var(--_extractor-border);
    border-top-color: var(--_extractor-accent);
    border-radius: 999px;
    animation: extractor-spin 0.8s linear infinite;
  }

  @keyframes extractor-spin {
    to {
      transform: rotate(360deg);
    }
  }

  @media (prefers-reduced-motion: reduce) {
    .spinner {
      animation: none;
      border-top-color: var(--_extractor-border);
    }
  }

  @media (forced-colors: active) {
    .step-segment {
      background: GrayText;
      forced-color-adjust: none;
    }
    .step-segment.done {
      background: Highlight;
    }
  }
`;
