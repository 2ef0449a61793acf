/**
 * The few icons the views draw, inline so they need no request and follow `currentColor`.
 * All are decorative: the text beside them says the same.
 */
import { svg, html, type TemplateResult } from 'lit';

function icon(paths: TemplateResult<2>): TemplateResult {
  return html`<svg
    class="icon"
    viewBox="0 0 24 24"
    width="20"
    height="20"
    fill="none"
    stroke="currentColor"
    stroke-width="1.75"
    stroke-linecap="round"
    stroke-linejoin="round"
    aria-hidden="true"
    focusable="false"
  >
    ${paths}
  </svg>`;
}

export const uploadIcon = () =>
  icon(
    svg`<path d="M12 15V4" /><path d="m7 9 5-5 5 5" /><path d="M5 15v3a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-3" />`,
  );

export const fileIcon = () =>
  icon(
    svg`<path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" /><path d="M14 3v5h5" />`,
  );

export const checkIcon = () => icon(svg`<path d="m5 12.5 4.5 4.5L19 7.5" />`);

export const alertIcon = () =>
  icon(svg`<circle cx="12" cy="12" r="9" /><path d="M12 7.5v5.5" /><path d="M12 16.5h.01" />`);

export const closeIcon = () => icon(svg`<path d="M6 6l12 12M18 6 6 18" />`);

export const downloadIcon = () =>
  icon(svg`<path d="M12 4v11" /><path d="m7 10 5 5 5-5" /><path d="M5 19h14" />`);

export const plusIcon = () => icon(svg`<path d="M12 5v14M5 12h14" />`);
