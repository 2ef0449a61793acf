/**
 * The "Replace file" control of a document that could not be read, shared by the
 * extraction view (its list of documents) and the results view (a failed document's panel):
 * a button that opens the file picker, then the replacement's progress or why it was
 * refused. The sending itself is DocumentReplaceController's.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { ExtractorClient } from '../../client/client.js';
import type { RunDocumentState } from '../../client/run-documents.js';
import type { Run } from '../../contract/resources.js';
import type { DocumentReplaceController } from '../../controllers/document-replace-controller.js';
import { acceptAttribute } from '../../controllers/upload-queue-controller.js';
import { documentText } from './document-text.js';
import { styleProperties } from './style-properties.js';

export interface ReplaceFileOptions {
  controller: DocumentReplaceController;
  client: ExtractorClient | undefined;
  run: Run;
  document: RunDocumentState;
}

export function renderReplaceFile(options: ReplaceFileOptions): TemplateResult {
  const { controller, client, run, document } = options;
  const replacement = controller.replacementOf(document);
  const sending = replacement?.status === 'sending';
  const percent =
    replacement && replacement.total > 0
      ? Math.min(100, Math.floor((replacement.loaded / replacement.total) * 100))
      : 0;
  const choose = (event: Event) => {
    if (controller.busy) return;
    const input = (event.currentTarget as HTMLElement).parentElement?.querySelector('input');
    input?.click();
  };
  const chosen = (event: Event) => {
    const input = event.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    // Emptied, so choosing the same file again still reports a change.
    input.value = '';
    if (file && client) void controller.replace(client, run, document, file);
  };
  return html`<div class="replace">
    <button
      class="button"
      part="button replace-button"
      type="button"
      aria-label=${documentText.replaceName(document.name)}
      aria-disabled=${controller.busy ? 'true' : 'false'}
      @click=${choose}
    >
      ${sending ? `${documentText.replace}…` : documentText.replace}
    </button>
    <input
      class="visually-hidden"
      type="file"
      accept=${acceptAttribute}
      tabindex="-1"
      aria-hidden="true"
      @change=${chosen}
    />
    ${
      sending
        ? html`<div
            class="progress"
            part="progress"
            role="progressbar"
            aria-label=${documentText.sending(replacement.name, percent)}
            aria-valuemin="0"
            aria-valuemax="100"
            aria-valuenow=${percent}
          >
            <div class="progress-fill" ${styleProperties({ width: `${percent}%` })}></div>
          </div>`
        : nothing
    }
    ${
      replacement?.status === 'failed' && replacement.message
        ? html`<p class="replace-error" part="error" role="alert">${replacement.message}</p>`
        : nothing
    }
  </div>`;
}
