import { html, nothing, type PropertyValues } from 'lit';
import { state } from 'lit/decorators.js';
import { ApiError, describeError } from '../../client/api-error.js';
import { resultFormats, type ResultFormat } from '../../client/client.js';
import { parseTargetSchema, type TargetSchema } from '../../contract/json-schema.js';
import { fire } from '../events.js';
import { checkIcon, downloadIcon } from '../icons.js';
import { ExtractorViewElement } from '../view-element.js';
import { RecordEditor } from './record-editor.js';
import { resultsViewStyles } from './results-view.styles.js';

type SaveState = 'saved' | 'pending' | 'saving' | 'invalid' | 'failed';

/** How long typing must pause before the edits are saved. */
const saveDelayMs = 700;

/**
 * @tagname extractor-results-view
 * @summary The last step: the person checks and corrects the results, then submits them.
 *
 * The editor is generated from the run's target schema: objects become labelled fields,
 * strings, numbers (typed in the person's locale), yes-or-no values (with "not known"),
 * choices (enum) and dates get fitting controls, lists of flat objects become an
 * editable grid (one Tab stop, arrow keys between cells, fast with thousands of rows,
 * cards on a narrow screen) and lists of plain values a list. Fields that must be filled
 * in are marked. Values are checked against the schema while the person types, with a
 * message in plain words under the field, and saved to the service after a short pause. Downloads (JSON, XML, CSV) show when the extractor allows
 * them. Submit saves, fires the cancelable `extractor-submit-requested`, submits, and fires
 * `extractor-results-submitted`; what happens next (a redirect, a thank-you) is the app's
 * or the host page's to decide.
 *
 * @fires extractor-results-changed - Edits were saved; `detail.run` and `detail.data`.
 * @fires extractor-submit-requested - Cancelable, before submitting: preventDefault() to submit another way.
 * @fires extractor-results-submitted - The results were submitted; `detail.submission` has the redirectUrl.
 * @fires extractor-step-requested - Back (`extraction`).
 *
 * @csspart base - The view's wrapper.
 * @csspart header - The heading and description.
 * @csspart heading - The view's heading; focus moves here when the step shows.
 * @csspart description - The text under the heading.
 * @csspart toolbar - The save status and the downloads.
 * @csspart downloads - The download buttons.
 * @csspart form - The editor.
 * @csspart field - One labelled field.
 * @csspart field-error - The message under a value the schema does not accept.
 * @csspart group - A nested object or a list.
 * @csspart list-item - One item of a list of objects shown as cards.
 * @csspart value-list - A list of plain values.
 * @csspart add-item-button - Adds an item to a list.
 * @csspart remove-item-button - Removes an item from a list.
 * @csspart table - The table of a list of objects (an ARIA grid: one Tab stop, arrow keys inside).
 * @csspart filter-button - Shows only the rows of a table that need attention, or all again.
 * @csspart table-scroller - The scrolling box around a table.
 * @csspart add-row-button - Adds a row to a table.
 * @csspart remove-row-button - Removes a row from a table.
 * @csspart download-button - One download button.
 * @csspart error - A message about something that went wrong (saving, submitting).
 * @csspart actions - The row of buttons.
 * @csspart button - Every button.
 * @csspart back-button - Back to the extraction.
 * @csspart submit-button - Submits the results.
 *
 * @cssproperty --extractor-color-accent - The accent: primary buttons, focus.
 * @cssproperty --extractor-color-surface - Background of inputs and the table.
 * @cssproperty --extractor-color-border - Borders of inputs and the table.
 * @cssproperty --extractor-color-danger - Messages about invalid values.
 * @cssproperty --extractor-radius - Corner radius of buttons and inputs.
 * @cssproperty --extractor-radius-container - Corner radius of panels, tables and the drop zone.
 */
export class ExtractorResultsView extends ExtractorViewElement {
  static override styles = [...ExtractorViewElement.styles, resultsViewStyles];

  readonly #editor = new RecordEditor(this, {
    readOnly: () => !!this.run?.submittedAt || this.submitting,
    onEdit: () => this.#edited(),
  });
  #runId: string | undefined;
  #schemaText: string | undefined;
  #schema: TargetSchema | undefined;
  #revision = 0;
  #savedRevision = 0;
  #saveTimer: ReturnType<typeof setTimeout> | undefined;
  #saves: Promise<void> = Promise.resolve();

  @state() private saveState: SaveState = 'saved';
  @state() private saveError: string | undefined;
  @state() private submitting = false;
  @state() private downloading: ResultFormat | undefined;
  @state() private error: string | undefined;

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // Leaving the view must not lose what was typed in the last moment.
    if (this.#saveTimer !== undefined) void this.#flush();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (
      !changed.has('run' as keyof ExtractorResultsView) &&
      !changed.has('extractor' as keyof ExtractorResultsView)
    )
      return;
    const run = this.run;
    const schemaText = run?.targetSchema ?? this.extractor?.jsonSchema;
    const schemaChanged = schemaText !== this.#schemaText;
    if (schemaChanged) {
      this.#schemaText = schemaText;
      const parsed = schemaText ? parseTargetSchema(schemaText) : undefined;
      this.#schema = parsed?.ok ? parsed.schema : undefined;
    }
    // A new run, or the same run changed elsewhere while nothing here waits to be saved.
    const unsaved = this.#revision !== this.#savedRevision || this.saveState === 'saving';
    if (run && (run.id !== this.#runId || !unsaved)) {
      this.#runId = run.id;
      this.#editor.load(this.#schema, parseData(run.data));
      this.saveState = this.#editor.violations.size > 0 ? 'invalid' : 'saved';
    } else if (schemaChanged) {
      this.#editor.load(this.#schema, this.#editor.value);
    }
  }

  private async handleDownload(format: ResultFormat): Promise<void> {
    const { client, run } = this;
    if (!client || !run || this.downloading) return;
    this.error = undefined;
    this.downloading = format;
    try {
      // The file is made from what the service holds: edits go there first.
      await this.#flush();
      const { blob, filename } = await client.downloadResults(run.id, format);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = filename;
      link.rel = 'noopener';
      this.renderRoot.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 30_000);
    } catch (error) {
      this.error = describeError(error);
    } finally {
      this.downloading = undefined;
    }
  }

  private async handleSubmit(): Promise<void> {
    const { client, run } = this;
    if (!client || !run || this.submitting || run.submittedAt) return;
    this.error = undefined;
    if (this.#editor.violations.size > 0) {
      this.error = 'Some values need your attention before you submit; they are marked above.';
      this.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    const data = this.#editor.value;
    if (!fire(this, 'extractor-submit-requested', { run, data }, { cancelable: true })) return;
    this.submitting = true;
    try {
      if (!(await this.#flush())) {
        this.error = this.saveError ?? 'Your changes could not be saved, so nothing was submitted.';
        return;
      }
      const submission = await client.submitResults(run.id);
      const submitted = await client
        .getRun(run.id)
        .catch(() => ({ ...run, submittedAt: submission.submittedAt }));
      fire(this, 'extractor-results-submitted', { run: submitted, submission });
    } catch (error) {
      this.error = describeError(error);
    } finally {
      this.submitting = false;
    }
  }

  private async handleBack(): Promise<void> {
    await this.#flush();
    fire(this, 'extractor-step-requested', { step: 'extraction' });
  }

  /** Saves what waits to be saved; true when everything typed is saved. */
  async #flush(): Promise<boolean> {
    if (this.#saveTimer !== undefined) {
      clearTimeout(this.#saveTimer);
      this.#saveTimer = undefined;
      this.#queueSave();
    }
    await this.#saves;
    return this.#savedRevision === this.#revision;
  }

  #edited(): void {
    this.#revision++;
    this.error = undefined;
    this.saveError = undefined;
    clearTimeout(this.#saveTimer);
    this.#saveTimer = undefined;
    if (this.#editor.violations.size > 0) {
      this.saveState = 'invalid';
      return;
    }
    this.saveState = 'pending';
    this.#saveTimer = setTimeout(() => {
      this.#saveTimer = undefined;
      this.#queueSave();
    }, saveDelayMs);
  }

  #queueSave(): void {
    this.#saves = this.#saves.then(() => this.#save());
  }

  async #save(): Promise<void> {
    const { client, run } = this;
    const revision = this.#revision;
    if (!client || !run || revision === this.#savedRevision || this.#editor.violations.size > 0)
      return;
    const data = this.#editor.value;
    this.saveState = 'saving';
    try {
      const updated = await client.saveResults(run.id, data);
      this.#savedRevision = revision;
      this.saveState = this.#revision === revision ? 'saved' : 'pending';
      fire(this, 'extractor-results-changed', { run: updated, data });
    } catch (error) {
      if (error instanceof ApiError && error.status === 422 && error.fieldErrors.length > 0) {
        this.#editor.addViolations(error.fieldErrors);
        this.saveState = 'invalid';
      } else {
        this.saveState = 'failed';
        this.saveError = `Your changes are not saved: ${describeError(error)}`;
      }
    }
  }

  override render() {
    const { labels, run } = this;
    const submitted = !!run?.submittedAt;
    return html`
      <section class="view" part="base" aria-labelledby="heading">
        ${this.renderHeader(labels.resultsViewHeading, labels.resultsViewDescription)}
        ${
          submitted
            ? html`<p class="message success" role="status">
                <span class="message-title">${checkIcon()} Submitted. Thank you.</span>
                Your results were sent${formatWhen(run.submittedAt)}. They can no longer be changed
                here.
              </p>`
            : nothing
        }
        ${this.renderToolbar()}
        <form
          class="form"
          part="form"
          novalidate
          @submit=${(event: Event) => event.preventDefault()}
        >
          ${this.#editor.render()}
        </form>
        ${this.error ? html`<p class="message error" part="error" role="alert">${this.error}</p>` : nothing}
        <div class="actions" part="actions">
          <button class="button" part="button back-button" type="button" @click=${this.handleBack}>
            ${labels.resultsViewBackButtonLabel}
          </button>
          ${
            submitted
              ? nothing
              : html`<div class="end">
                  <button
                    class="button primary"
                    part="button submit-button"
                    type="button"
                    aria-disabled=${this.submitting ? 'true' : 'false'}
                    @click=${this.handleSubmit}
                  >
                    ${this.submitting ? `${labels.resultsViewSubmitButtonLabel}…` : labels.resultsViewSubmitButtonLabel}
                  </button>
                </div>`
          }
        </div>
      </section>
    `;
  }

  private renderToolbar() {
    const allowDownload = this.extractor?.allowDownload ?? false;
    return html`<div class="toolbar" part="toolbar">
      <p class="save-status ${this.saveState}" role="status">${this.#saveStatusText()}</p>
      ${
        allowDownload
          ? html`<div
              class="downloads"
              part="downloads"
              role="group"
              aria-label="Download the results"
            >
              <span class="downloads-label" aria-hidden="true">${downloadIcon()} Download</span>
              ${resultFormats.map(
                (format) =>
                  html`<button
                    class="button small"
                    part="button download-button"
                    type="button"
                    aria-label="Download as ${format.toUpperCase()}"
                    aria-disabled=${this.downloading ? 'true' : 'false'}
                    @click=${() => this.handleDownload(format)}
                  >
                    ${this.downloading === format ? '…' : format.toUpperCase()}
                  </button>`,
              )}
            </div>`
          : nothing
      }
    </div>`;
  }

  #saveStatusText(): string {
    if (this.run?.submittedAt) return '';
    switch (this.saveState) {
      case 'saved':
        return this.#revision > 0 ? 'All changes saved.' : '';
      case 'pending':
        return 'Unsaved changes…';
      case 'saving':
        return 'Saving…';
      case 'invalid': {
        const count = this.#editor.violations.size;
        return `${count === 1 ? '1 value needs' : `${count} values need`} attention before saving.`;
      }
      case 'failed':
        return this.saveError ?? 'Your changes are not saved.';
    }
  }
}

function parseData(text: string | null): unknown {
  if (!text) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return {};
  }
}

function formatWhen(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return ` on ${date.toLocaleDateString(undefined, { dateStyle: 'long' })} at ${date.toLocaleTimeString(undefined, { timeStyle: 'short' })}`;
}

declare global {
  interface HTMLElementTagNameMap {
    'extractor-results-view': ExtractorResultsView;
  }
}
