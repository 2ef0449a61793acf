import { css } from 'lit';

export const introductionViewStyles = css`
  .emblem {
    display: grid;
    place-items: center;
    width: 3.5rem;
    height: 3.5rem;
    border-radius: var(--_extractor-radius-container);
    background: var(--_extractor-accent-soft);
    color: var(--_extractor-accent);
  }

  .emblem svg {
    width: 1.75rem;
    height: 1.75rem;
  }

  .actions {
    padding-top: 0;
  }

  @media (forced-colors: active) {
    .emblem {
      border: 1px solid CanvasText;
    }
  }
`;
