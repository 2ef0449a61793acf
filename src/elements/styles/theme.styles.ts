/**
 * The look shared by every element: the public `--extractor-*` tokens with their defaults,
 * and the controls built on them (buttons, messages, progress bars). Each token is read
 * once into a private `--_extractor-*` property; the rules use only the private ones.
 *
 * Colours are `light-dark()` pairs: they follow the `color-scheme` in use, which the app
 * sets from its `color-scheme` attribute (light unless asked otherwise). The font is the
 * page's, inherited, unless a theme sets one (where a browser does not take a keyword
 * through var(), the declaration is dropped and the font inherits all the same).
 * Containers (panels, tables, the drop zone) follow the controls' radius up to 1rem, so a
 * pill radius for buttons does not turn a table into an ellipse. Quiet buttons are
 * text-coloured: the accent is a fill and a mark, never the colour of text, so a light brand
 * colour cannot make words illegible.
 *
 * (The comments are out here because Lit's css`` templates reach the browser as written.)
 */
import { css } from 'lit';

export const tokenStyles = css`
  :host {
    --_extractor-accent: var(--extractor-color-accent, light-dark(#2b59c3, #8fb1ff));
    --_extractor-on-accent: var(--extractor-color-on-accent, light-dark(#ffffff, #0c1424));
    --_extractor-text: var(--extractor-color-text, light-dark(#1b2230, #e6e9ef));
    --_extractor-muted: var(--extractor-color-text-muted, light-dark(#566074, #a9b1bf));
    --_extractor-background: var(--extractor-color-background, transparent);
    --_extractor-surface: var(--extractor-color-surface, light-dark(#ffffff, #1a1f28));
    --_extractor-subtle: var(--extractor-color-surface-subtle, light-dark(#f3f5f9, #232935));
    --_extractor-border: var(--extractor-color-border, light-dark(#d3d9e2, #3b4352));
    --_extractor-danger: var(--extractor-color-danger, light-dark(#b3261e, #ff9d94));
    --_extractor-success: var(--extractor-color-success, light-dark(#1d7a44, #72d49d));
    --_extractor-focus: var(--extractor-color-focus, var(--_extractor-accent));
    --_extractor-radius: var(--extractor-radius, 0.5rem);
    --_extractor-radius-container: var(
      --extractor-radius-container,
      min(var(--extractor-radius, 0.5rem), 1rem)
    );
    --_extractor-space: var(--extractor-spacing, 1rem);
    --_extractor-font: var(--extractor-font-family, inherit);
    --_extractor-accent-soft: color-mix(in srgb, var(--_extractor-accent) 12%, transparent);
    --_extractor-danger-soft: color-mix(in srgb, var(--_extractor-danger) 9%, transparent);

    display: block;
    container-type: inline-size;
    box-sizing: border-box;
    color: var(--_extractor-text);
    font-family: var(--_extractor-font);
    font-size: 1rem;
    line-height: 1.5;
    -webkit-text-size-adjust: 100%;
  }

  :host([hidden]) {
    display: none;
  }

  *,
  *::before,
  *::after {
    box-sizing: inherit;
  }

  @media (prefers-reduced-motion: reduce) {
    *,
    *::before,
    *::after {
      animation-duration: 0.01ms !important;
      animation-iteration-count: 1 !important;
      transition-duration: 0.01ms !important;
      scroll-behavior: auto !important;
    }
  }
`;

export const controlStyles = css`
  :focus-visible {
    outline: 2px solid var(--_extractor-focus);
    outline-offset: 2px;
  }

  .visually-hidden {
    position: absolute !important;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip: rect(0 0 0 0);
    clip-path: inset(50%);
    white-space: nowrap;
    border: 0;
  }

  .button {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: 0.5rem;
    min-height: 2.75rem;
    padding: 0.5rem 1.25rem;
    border: 1px solid var(--_extractor-border);
    border-radius: var(--_extractor-radius);
    background: var(--_extractor-surface);
    color: var(--_extractor-text);
    font: inherit;
    font-weight: 600;
    line-height: 1.25;
    text-align: center;
    cursor: pointer;
    transition:
      background-color 120ms ease,
      border-color 120ms ease,
      box-shadow 120ms ease;
  }

  .button:hover:not(:disabled) {
    border-color: color-mix(in srgb, var(--_extractor-text) 35%, var(--_extractor-border));
    background: var(--_extractor-subtle);
  }

  .button.primary {
    border-color: var(--_extractor-accent);
    background: var(--_extractor-accent);
    color: var(--_extractor-on-accent);
  }

  .button.primary:hover:not(:disabled) {
    border-color: color-mix(in srgb, var(--_extractor-accent) 85%, var(--_extractor-text));
    background: color-mix(in srgb, var(--_extractor-accent) 85%, var(--_extractor-text));
  }

  .button.quiet {
    border-color: transparent;
    background: transparent;
    color: var(--_extractor-text);
    padding-inline: 0.75rem;
  }

  .button.quiet:hover:not(:disabled) {
    background: var(--_extractor-accent-soft);
    border-color: transparent;
  }

  .button.danger {
    color: var(--_extractor-danger);
  }

  .button.small {
    min-height: 2.25rem;
    padding: 0.25rem 0.75rem;
    font-size: 0.875rem;
  }

  .button:disabled {
    opacity: 0.55;
    cursor: not-allowed;
  }

  .message {
    margin: 0;
    padding: 0.75rem 1rem;
    border: 1px solid var(--_extractor-border);
    border-inline-start-width: 4px;
    border-radius: var(--_extractor-radius-container);
    background: var(--_extractor-subtle);
  }

  .message.error {
    border-color: color-mix(in srgb, var(--_extractor-danger) 45%, transparent);
    border-inline-start-color: var(--_extractor-danger);
    background: var(--_extractor-danger-soft);
  }

  .message .message-title {
    display: block;
    font-weight: 600;
  }

  /* Asks once more before something the person may regret (edits left, an empty record). */
  .message.warning {
    display: grid;
    justify-items: start;
    gap: 0.5rem;
    border-inline-start-color: var(--_extractor-accent);
    background: var(--_extractor-accent-soft);
  }

  .message.warning .message-title {
    justify-self: stretch;
  }

  .progress {
    position: relative;
    height: 0.5rem;
    overflow: hidden;
    border-radius: 999px;
    background: var(--_extractor-subtle);
    box-shadow: inset 0 0 0 1px color-mix(in srgb, var(--_extractor-border) 60%, transparent);
  }

  .progress-fill {
    height: 100%;
    border-radius: inherit;
    background: var(--_extractor-accent);
    transition: width 300ms ease;
  }

  .progress.indeterminate .progress-fill {
    width: 35%;
    animation: extractor-slide 1.4s ease-in-out infinite;
  }

  @keyframes extractor-slide {
    from {
      transform: translateX(-100%);
    }
    to {
      transform: translateX(290%);
    }
  }

  @media (prefers-reduced-motion: reduce) {
    .progress.indeterminate .progress-fill {
      width: 100%;
      opacity: 0.35;
      animation: none;
    }
  }

  @media (forced-colors: active) {
    .button,
    .button.quiet {
      border: 1px solid ButtonText;
    }
    .button.primary {
      border: 2px solid ButtonText;
    }
    .progress {
      border: 1px solid CanvasText;
    }
    .progress-fill {
      background: Highlight;
      forced-color-adjust: none;
    }
    .message {
      border: 1px solid CanvasText;
    }
  }
`;

/** The frame of a view: heading, description, body and a row of actions at the end. */
export const viewStyles = css`
  .view {
    display: grid;
    gap: calc(var(--_extractor-space) * 1.5);
  }

  .header {
    display: grid;
    gap: 0.5rem;
  }

  .heading {
    margin: 0;
    font-size: 1.5rem;
    font-weight: 650;
    line-height: 1.25;
    letter-spacing: -0.01em;
    text-wrap: balance;
  }

  .heading:focus {
    outline: none;
  }

  .heading:focus-visible {
    outline: 2px solid var(--_extractor-focus);
    outline-offset: 4px;
    border-radius: 2px;
  }

  .description {
    margin: 0;
    max-width: 62ch;
    color: var(--_extractor-muted);
    text-wrap: pretty;
  }

  .actions {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.75rem;
    padding-top: calc(var(--_extractor-space) * 0.5);
  }

  .actions .end {
    display: flex;
    flex-wrap: wrap;
    gap: 0.75rem;
    margin-inline-start: auto;
  }

  /* The host is the container, so an element in a narrow column of a wide page adapts too. */
  @container (max-width: 26rem) {
    /* Narrow: full-width buttons, the main one on top and Back last. */
    .actions {
      flex-direction: column-reverse;
      align-items: stretch;
    }
    .actions .end {
      flex-direction: column-reverse;
      margin-inline-start: 0;
    }
    .actions .button {
      width: 100%;
    }
  }
`;
