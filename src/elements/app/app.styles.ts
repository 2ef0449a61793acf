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
    container-type: inline-size;
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

  /* Each step's name under its segment; the current one in the text colour. */
  .step-bar {
    display: grid;
    grid-template-columns: repeat(4, 1fr);
    gap: 0.25rem;
    width: min(28rem, 60%);
    margin: 0;
    padding: 0;
    list-style: none;
  }

  .step-segment {
    padding-top: 0.3rem;
    border-top: 0.25rem solid var(--_extractor-border);
  }

  .step-segment.done {
    border-top-color: var(--_extractor-accent);
  }

  .step-segment.current {
    color: var(--_extractor-text);
    font-weight: 600;
  }

  /* The current step's name beside the count is for screen readers while the bar shows the
     names (the bar itself is hidden from them), and for everyone where they do not fit. */
  .step-current {
    position: absolute;
    clip-path: inset(50%);
  }

  @container (max-width: 32rem) {
    .step-current {
      position: static;
      clip-path: none;
    }
    .step-bar {
      width: min(10rem, 40%);
      font-size: 0;
    }
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
      border-top-color: GrayText;
      forced-color-adjust: none;
    }
    .step-segment.done {
      border-top-color: Highlight;
    }
  }
`;
