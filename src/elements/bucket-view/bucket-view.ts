import { msg, str } from '@lit/localize';
import { html, nothing } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import { describeError } from '../../client/api-error.js';
import { defaultMaxUploadBytes, filesOfBucket, idOf } from '../../client/client.js';
import type { BucketFile } from '../../contract/resources.js';
import { isFinalRunStatus } from '../../contract/run-status.js';
import {
  acceptAttribute,
  UploadQueueController,
  type UploadItem,
} from '../../controllers/upload-queue-controller.js';
import { formatBytes, formatPercent } from '../../locales/format.js';
import { formattingLocale } from '../../locales/localization.js';
import { renderDiscardEditsWarning } from '../internal/discard-edits-warning.js';
import { fire } from '../internal/events.js';
import { alertIcon, checkIcon, closeIcon, fileIcon, uploadIcon } from '../internal/icons.js';
import { hasUnsubmittedEdits } from '../internal/steps.js';
import { ExtractorViewElement } from '../internal/view-element.js';
import { bucketViewStyles } from './bucket-view.styles.js';
import { styleProperties } from '../internal/style-properties.js';

/**
 * @tagname extractor-bucket-view
 * @summary The second step: the person adds the documents to read, then begins.
 *
 * Files can be dropped on the drop zone, chosen with the file picker (which offers the
 * camera on phones), or pasted from the clipboard while the view has focus. Each file is
 * checked for type and size before it is sent, uploads with its own progress bar, and can
 * be removed; a failed upload can be retried.
 *
 * @fires extractor-files-uploaded - Files were added to the bucket; `detail.files`.
 * @fires extractor-file-removed - A file was taken out of the bucket; `detail.file`.
 * @fires extractor-run-started - Begin started a run; `detail.run`.
 * @fires extractor-step-requested - Back (`introduction`), Continue (`extraction`), or Keep
 *   my changes (`results`) when Begin asks before leaving a person's edits behind.
 *
 * @csspart base - The view's wrapper.
 * @csspart header - The heading and description.
 * @csspart heading - The view's heading; focus moves here when the step shows.
 * @csspart description - The text under the heading.
 * @csspart drop-zone - The area files are dropped on.
 * @csspart choose-button - The button that opens the file picker.
 * @csspart file-list - The list of files.
 * @csspart file - One file in the list.
 * @csspart remove-button - Removes a file.
 * @csspart retry-button - Retries a failed upload.
 * @csspart dismiss-button - Dismisses a failed upload.
 * @csspart progress - A file's upload progress bar.
 * @csspart error - A message about something that went wrong.
 * @csspart actions - The row of buttons.
 * @csspart button - Every button.
 * @csspart back-button - Back to the introduction.
 * @csspart continue-button - On to the current run.
 * @csspart begin-button - Starts a run over the files.
 * @csspart restart-warning - Asks before a new run would leave a person's edits behind.
 * @csspart keep-edits-button - Goes back to the edits instead of beginning again.
 *
 * @cssproperty --extractor-color-accent - The accent: primary buttons, progress, focus.
 * @cssproperty --extractor-color-border - Borders of the drop zone and the file list.
 * @cssproperty --extractor-color-surface - Background of the file list.
 * @cssproperty --extractor-color-danger - Messages about failures.
 * @cssproperty --extractor-radius - Corner radius of buttons and inputs.
 * @cssproperty --extractor-radius-container - Corner radius of panels, tables and the drop zone.
 * @cssproperty --extractor-spacing - The base unit of the space between things.
 */
export class ExtractorBucketView extends ExtractorViewElement {
  static override styles = [...ExtractorViewElement.styles, bucketViewStyles];

  readonly #uploads = new UploadQueueController(this, {
    onUploaded: (files) => {
      const names = new Intl.ListFormat(formattingLocale()).format(files.map((file) => file.name));
      this.announcement = msg(str`${names} uploaded.`, { id: 'bucket.uploaded' });
      fire(this, 'extractor-files-uploaded', { files });
    },
    // Said aloud as well as shown, for people who do not see the list.
    onFailed: (item) => {
      this.announcement = item.file.name
        ? msg(str`${item.file.name} could not be uploaded. ${item.message ?? ''}`, {
            id: 'bucket.upload-failed',
          })
        : msg(str`The pasted file could not be uploaded. ${item.message ?? ''}`, {
            id: 'bucket.pasted-upload-failed',
          });
    },
  });
  #dragDepth = 0;

  @query('input[type="file"]') private fileInput!: HTMLInputElement;

  @state() private dragging = false;
  @state() private starting = false;
  /** Begin was pressed over a person's edits of the last run: it asks once more. */
  @state() private confirmingBegin = false;
  @state() private removing: ReadonlySet<string> = new Set();
  @state() private error: string | undefined;
  @state() private announcement = '';

  /** The largest file accepted before upload, in bytes; the service's limit still applies. */
  @property({ type: Number, attribute: 'max-file-size' }) maxFileSize = defaultMaxUploadBytes;

  override connectedCallback(): void {
    super.connectedCallback();
    this.addEventListener('paste', this.#handlePaste);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.removeEventListener('paste', this.#handlePaste);
  }

  protected override willUpdate(): void {
    this.#uploads.maxBytes = this.maxFileSize;
    const { client, bucket } = this;
    const target = this.#uploads.target;
    if (client && bucket && (target?.client !== client || target.bucketId !== bucket.id)) {
      this.#uploads.target = { client, bucketId: bucket.id };
    }
  }

  #handleDragEnter(event: DragEvent): void {
    if (!hasFiles(event)) return;
    event.preventDefault();
    this.#dragDepth++;
    this.dragging = true;
  }

  #handleDragOver(event: DragEvent): void {
    if (!hasFiles(event)) return;
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
  }

  #handleDragLeave(): void {
    // dragleave fires when the pointer crosses into a child; only the last one counts.
    this.#dragDepth = Math.max(0, this.#dragDepth - 1);
    if (this.#dragDepth === 0) this.dragging = false;
  }

  #handleDrop(event: DragEvent): void {
    event.preventDefault();
    this.#dragDepth = 0;
    this.dragging = false;
    const files = event.dataTransfer?.files;
    if (files?.length) this.addFiles(files);
  }

  #handleZoneClick(event: Event): void {
    // The button inside does the same; one picker is enough.
    if ((event.target as Element).closest('button')) return;
    this.fileInput.click();
  }

  #handleChoose(): void {
    this.fileInput.click();
  }

  #handleInputChange(): void {
    const files = this.fileInput.files;
    if (files?.length) this.addFiles(files);
    // Choosing the same file again must fire `change` again.
    this.fileInput.value = '';
  }

  readonly #handlePaste = (event: ClipboardEvent): void => {
    const files = event.clipboardData?.files;
    if (!files?.length) return;
    event.preventDefault();
    this.addFiles(files);
  };

  #handleRetry(item: UploadItem): void {
    this.#uploads.retry(item.key);
  }

  #handleDismiss(item: UploadItem): void {
    this.#uploads.dismiss(item.key);
  }

  async #handleRemove(file: BucketFile): Promise<void> {
    const client = this.client;
    if (!client || this.removing.has(file.id)) return;
    this.error = undefined;
    this.removing = new Set([...this.removing, file.id]);
    try {
      await client.deleteFile(idOf('bucket', file.bucket), file.id);
      this.announcement = msg(str`${file.name} removed.`, { id: 'bucket.removed-name' });
      fire(this, 'extractor-file-removed', { file });
    } catch (error) {
      this.error = describeError(error);
    } finally {
      this.removing = new Set([...this.removing].filter((id) => id !== file.id));
    }
  }

  #handleBack(): void {
    fire(this, 'extractor-step-requested', { step: 'introduction' });
  }

  #handleContinue(): void {
    fire(this, 'extractor-step-requested', { step: 'extraction' });
  }

  async #handleBegin(): Promise<void> {
    const { client, bucket, extractor } = this;
    if (!client || !bucket || !extractor || this.starting) return;
    if (this.#uploads.busy) {
      this.error = msg('Please wait until your files have finished uploading.', {
        id: 'bucket.wait-for-uploads',
      });
      return;
    }
    if (filesOfBucket(bucket).length === 0) {
      this.error = msg('Add at least one file first.', { id: 'bucket.no-files' });
      return;
    }
    this.error = undefined;
    // A new run reads the files afresh; a person's edits of the last one would be left behind.
    if (hasUnsubmittedEdits(this.run) && !this.confirmingBegin) {
      this.confirmingBegin = true;
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('[part~="restart-warning"]')?.focus();
      return;
    }
    this.confirmingBegin = false;
    this.starting = true;
    try {
      const run = await client.startRun(bucket.id, extractor.id);
      fire(this, 'extractor-run-started', { run });
    } catch (error) {
      this.error = describeError(error);
    } finally {
      this.starting = false;
    }
  }

  #handleKeepEdits(): void {
    this.confirmingBegin = false;
    fire(this, 'extractor-step-requested', { step: 'results' });
  }

  /** Checks and uploads files, as a drop, the picker or a paste would. */
  addFiles(files: Iterable<File>): void {
    this.error = undefined;
    const added = this.#uploads.add(files);
    const refused = added.filter((item) => item.status === 'rejected');
    if (refused.length > 0) this.announcement = refused.map((item) => item.message).join(' ');
  }

  override render() {
    const { labels } = this;
    const files = filesOfBucket(this.bucket);
    const known = new Set(files.map((file) => file.id));
    // An upload that finished shows as the bucket's file once the bucket has been reloaded.
    const pending = this.#uploads.value.filter(
      (item) => item.status !== 'done' || !item.uploaded?.every((file) => known.has(file.id)),
    );
    const activeRun = this.run !== undefined && !isFinalRunStatus(this.run.status);
    return html`
      <section class="view" part="base" aria-labelledby="heading">
        ${this.renderHeader(labels.bucketViewHeading, labels.bucketViewDescription)}
        ${this.#renderDropZone()}
        ${
          files.length + pending.length > 0
            ? html`<ul
                class="files"
                part="file-list"
                aria-label=${msg('Files', { id: 'bucket.files' })}
              >
                ${repeat(
                  files,
                  (file) => file.id,
                  (file) => this.#renderFile(file),
                )}
                ${repeat(
                  pending,
                  (item) => item.key,
                  (item) => this.#renderUpload(item),
                )}
              </ul>`
            : nothing
        }
        ${
          this.error
            ? html`<p class="message error" part="error" role="alert">${this.error}</p>`
            : nothing
        }
        ${
          this.confirmingBegin
            ? renderDiscardEditsWarning({
                buttonLabel: labels.bucketViewBeginButtonLabel,
                onKeep: () => this.#handleKeepEdits(),
              })
            : nothing
        }
        <div class="visually-hidden" aria-live="polite">${this.announcement}</div>
        <div class="actions" part="actions">
          <button class="button" part="button back-button" type="button" @click=${this.#handleBack}>
            ${labels.bucketViewBackButtonLabel}
          </button>
          <div class="end">
            ${
              this.run
                ? html`<button
                    class="button ${activeRun ? 'primary' : ''}"
                    part="button continue-button"
                    type="button"
                    @click=${this.#handleContinue}
                  >
                    ${labels.bucketViewContinueButtonLabel}
                  </button>`
                : nothing
            }
            ${
              activeRun
                ? nothing
                : html`<button
                    class="button primary"
                    part="button begin-button"
                    type="button"
                    aria-disabled=${this.starting ? 'true' : 'false'}
                    @click=${this.#handleBegin}
                  >
                    ${labels.bucketViewBeginButtonLabel}
                  </button>`
            }
          </div>
        </div>
      </section>
    `;
  }

  #renderDropZone() {
    const maxSize = formatBytes(this.maxFileSize);
    return html`
      <div
        class="drop-zone ${this.dragging ? 'dragging' : ''}"
        part="drop-zone"
        @click=${this.#handleZoneClick}
        @dragenter=${this.#handleDragEnter}
        @dragover=${this.#handleDragOver}
        @dragleave=${this.#handleDragLeave}
        @drop=${this.#handleDrop}
      >
        <span class="drop-icon">${uploadIcon()}</span>
        <p class="drop-title">
          <span class="pointer-only">${msg('Drop files here, or', { id: 'bucket.drop' })} </span
          >${msg('choose them from your device', { id: 'bucket.choose-from-device' })}
        </p>
        <button
          class="button"
          part="button choose-button"
          type="button"
          @click=${this.#handleChoose}
        >
          ${msg('Choose files', { id: 'bucket.choose' })}
        </button>
        <p class="drop-hint">
          ${msg(str`PDF, images, Word, Excel, CSV or text, up to ${maxSize} each.`, {
            id: 'bucket.kinds',
          })}
          <span class="pointer-only"
            >${msg('You can also paste a file.', { id: 'bucket.paste' })}</span
          >
        </p>
        <input
          class="visually-hidden"
          type="file"
          multiple
          accept=${acceptAttribute}
          tabindex="-1"
          aria-hidden="true"
          @change=${this.#handleInputChange}
        />
      </div>
    `;
  }

  #renderFile(file: BucketFile) {
    const removing = this.removing.has(file.id);
    return html`
      <li class="file" part="file">
        <span class="file-icon done">${checkIcon()}</span>
        <span class="file-text">
          <span class="file-name">${file.name}</span>
          <span class="file-meta"
            >${formatBytes(file.size)} · ${msg('Uploaded', { id: 'bucket.file-uploaded' })}</span
          >
        </span>
        <button
          class="button quiet small"
          part="button remove-button"
          type="button"
          aria-label=${msg(str`Remove ${file.name}`, { id: 'bucket.remove-name' })}
          aria-disabled=${removing ? 'true' : 'false'}
          @click=${() => this.#handleRemove(file)}
        >
          ${
            removing
              ? msg('Removing…', { id: 'bucket.removing' })
              : msg('Remove', { id: 'bucket.remove' })
          }
        </button>
      </li>
    `;
  }

  #renderUpload(item: UploadItem) {
    const { file } = item;
    const percent = file.size > 0 ? Math.min(100, Math.round((item.loaded / file.size) * 100)) : 0;
    const problem = item.status === 'failed' || item.status === 'rejected';
    return html`
      <li class="file ${problem ? 'problem' : ''}" part="file">
        <span class="file-icon ${problem ? 'problem' : ''}"
          >${problem ? alertIcon() : fileIcon()}</span
        >
        <span class="file-text">
          <span class="file-name"
            >${file.name || msg('Pasted file', { id: 'bucket.pasted-file' })}</span
          >
          ${
            problem
              ? html`<span class="file-meta file-problem">${item.message}</span>`
              : html`<span class="file-meta">
                    ${formatBytes(file.size)} ·
                    ${
                      item.status === 'queued'
                        ? msg('Waiting…', { id: 'bucket.upload-waiting' })
                        : msg(str`Uploading… ${formatPercent(percent)}`, {
                            id: 'bucket.uploading',
                          })
                    }
                  </span>
                  <span
                    class="progress"
                    part="progress"
                    role="progressbar"
                    aria-label=${msg(str`Uploading ${file.name}`, { id: 'bucket.uploading-name' })}
                    aria-valuemin="0"
                    aria-valuemax="100"
                    aria-valuenow=${percent}
                  >
                    <span class="progress-fill" ${styleProperties({ width: `${percent}%` })}></span>
                  </span>`
          }
        </span>
        <span class="file-actions">
          ${
            item.status === 'failed'
              ? html`<button
                  class="button small"
                  part="button retry-button"
                  type="button"
                  aria-label=${msg(str`Try ${file.name} again`, { id: 'bucket.retry-name' })}
                  @click=${() => this.#handleRetry(item)}
                >
                  ${msg('Try again', { id: 'bucket.retry' })}
                </button>`
              : nothing
          }
          <button
            class="button quiet small icon-button"
            part="button dismiss-button"
            type="button"
            aria-label=${
              item.status === 'uploading'
                ? msg(str`Stop uploading ${file.name}`, { id: 'bucket.stop-name' })
                : msg(str`Dismiss ${file.name}`, { id: 'bucket.dismiss-name' })
            }
            @click=${() => this.#handleDismiss(item)}
          >
            ${closeIcon()}
          </button>
        </span>
      </li>
    `;
  }
}

function hasFiles(event: DragEvent): boolean {
  return event.dataTransfer?.types.includes('Files') ?? false;
}

declare global {
  interface HTMLElementTagNameMap {
    'extractor-bucket-view': ExtractorBucketView;
  }
}
