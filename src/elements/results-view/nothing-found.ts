import { msg, str } from '@lit/localize';
import { html } from 'lit';

/**
 * Nothing found is its own state, not an empty form that looks done: it says so, and
 * offers the two ways on (another file, or typing the values).
 */
export function renderNothingFound(
  name: string,
  onUploadAnother: () => void,
  onEnterByHand: () => void,
) {
  return html`<div class="message nothing-found" part="nothing-found" role="status">
    <span class="message-title"
      >${msg(str`Nothing was found in “${name}”.`, { id: 'results.nothing-found' })}</span
    >
    <span
      >${msg(
        'The file may be hard to read, such as a blurred photo, or not the kind of document expected. You can upload another file, or enter the values by hand below.',
        { id: 'results.nothing-found-text' },
      )}</span
    >
    <span class="nothing-found-actions">
      <button
        class="button small"
        part="button upload-another-button"
        type="button"
        @click=${onUploadAnother}
      >
        ${msg('Upload another file', { id: 'results.upload-another' })}
      </button>
      <button
        class="button small"
        part="button enter-by-hand-button"
        type="button"
        @click=${onEnterByHand}
      >
        ${msg('Enter the values by hand', { id: 'results.enter-by-hand' })}
      </button>
    </span>
  </div>`;
}
