import { html, nothing, type PropertyValues } from 'lit';
import { state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import { ApiError, describeError } from '../../client/api-error.js';
import {
  countDocuments,
  documentsOfRun,
  type RunDocumentState,
} from '../../client/run-documents.js';
import { readTargetSchema, type TargetSchema } from '../../contract/json-schema.js';
import type { Run } from '../../contract/resources.js';
import {
  canRunCommand,
  isFinalRunStatus,
  reopenableRunStatuses,
  type RunCommand,
} from '../../contract/run-status.js';
import { ClockController } from '../../controllers/clock-controller.js';
import { DocumentReplaceController } from '../../controllers/document-replace-controller.js';
import { documentStatusNames } from '../internal/document-text.js';
import { fire } from '../internal/events.js';
import { fieldTitle, summarizeValue } from '../internal/field-names.js';
import { renderDiscardEditsWarning } from '../internal/discard-edits-warning.js';
import { renderReplaceFile } from '../internal/replace-file.js';
import { canShowStep, hasUnsubmittedEdits } from '../internal/steps.js';
import { styleProperties } from '../internal/style-properties.js';
import { ExtractorViewElement } from '../internal/view-element.js';
import { documentStyles } from '../styles/document.styles.js';
import { extractionViewStyles } from './extraction-view.styles.js';
import {
  describeDocumentProgress,
  describeProgress,
  documentPercentDone,
  pageBeingRead,
  extractionText,
  percentDone,
  statusNames,
  runSeconds,
} from './progress-text.js';
import { formatDuration } from '../../locales/format.js';

type Action = RunCommand | 'start';

/**
 * @tagname extractor-extraction-view
 * @summary The third step: the run reads the documents while the person watches.
 *
 * Shows the run's status, a progress bar with the share of the work done (in words for
 * screen readers too), the time it has taken, and the list of its documents (one per file)
 * each with its own state in words and progress, live as the run works; the bar stops when
 * the run does. A run of one document also shows the values found so far. After Pause, Continue, Cancel, Start or Restart,
 * focus moves to the status, so the person hears what the run does now. The controls follow the run's status:
 * Start when there is no run, Pause while it runs, Continue when it is paused (it resumes)
 * or done (on to the results, also when only some documents could be read), Cancel while it
 * is not finished, and Restart (a new run) once it is, unless a document could not be read. A failed run says what went wrong and
 * offers the way forward: a document that could not be read offers "Replace file", which
 * reads another file in its place and leaves the other documents as they are.
 *
 * @fires extractor-run-started - Start or Restart created a run; `detail.run`.
 * @fires extractor-run-changed - Pause, Continue, Cancel or a replaced file changed the run; `detail.run`.
 * @fires extractor-step-requested - Back (`bucket`) or Continue on a done run (`results`).
 *
 * @csspart base - The view's wrapper.
 * @csspart header - The heading and description.
 * @csspart heading - The view's heading; focus moves here when the step shows.
 * @csspart description - The text under the heading.
 * @csspart status - The panel with status, progress and time.
 * @csspart progress - A progress bar: the run's, a document's, a replacement file's sending.
 * @csspart partial-results - The values found so far (a run of one document).
 * @csspart documents - The run's documents, with their heading.
 * @csspart document-list - The list of documents.
 * @csspart document - One document: its name, state, progress and any error.
 * @csspart replace-button - Replaces the file of a document that could not be read.
 * @csspart error - What went wrong: with the run, or with a replacement file.
 * @csspart actions - The row of buttons.
 * @csspart button - Every button.
 * @csspart back-button - Back to the files.
 * @csspart start-button - Starts a run (there is none yet).
 * @csspart pause-button - Pauses the run.
 * @csspart resume-button - Continues a paused run.
 * @csspart cancel-button - Cancels the run.
 * @csspart restart-button - Starts a new run over the same files.
 * @csspart restart-warning - Asks before starting over would leave a person's edits behind.
 * @csspart keep-edits-button - Goes back to the edits instead of starting over.
 * @csspart continue-button - On to the results of a done run.
 *
 * @cssproperty --extractor-color-accent - The accent: primary buttons, progress, focus.
 * @cssproperty --extractor-color-surface - Background of the panels.
 * @cssproperty --extractor-color-danger - The message of a failed run.
 * @cssproperty --extractor-color-success - The mark of a done run.
 * @cssproperty --extractor-radius - Corner radius of buttons and inputs.
 * @cssproperty --extractor-radius-container - Corner radius of panels, tables and the drop zone.
 */
export class ExtractorExtractionView extends ExtractorViewElement {
  static override styles = [...ExtractorViewElement.styles, documentStyles, extractionViewStyles];

  readonly #clock = new ClockController(this, () => this.run?.status === 'running');
  readonly #replacer = new DocumentReplaceController(this, {
    onReplaced: (run) => {
      // The button that was pressed goes; focus follows the run, working again.
      this.#awaitStatusChange();
      fire(this, 'extractor-run-changed', { run });
    },
  });
  #lastAnnounced = '';
  /** The run as it was when the person gave a command: focus goes to the status once it changes. */
  #awaiting: { runId: string | undefined; status: string | undefined } | undefined;

  @state() private pendingAction: Action | undefined;
  @state() private error: string | undefined;
  @state() private announcement = '';
  /** Start over was pressed over a person's edits: it asks once more before they are left. */
  @state() private confirmingRestart = false;

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('run' as keyof ExtractorExtractionView)) {
      const text = this.run ? describeProgress(this.run, true) : '';
      // Announce status changes and every quarter of the way, not every chunk; a change the
      // person asked for is heard when focus moves to the status instead.
      if (text !== this.#lastAnnounced) {
        this.#lastAnnounced = text;
        if (!this.#statusChanged()) this.announcement = text;
      }
    }
  }

  protected override updated(): void {
    if (!this.#statusChanged()) return;
    this.#awaiting = undefined;
    this.renderRoot.querySelector<HTMLElement>('[part~="status"]')?.focus();
  }

  #statusChanged(): boolean {
    const awaiting = this.#awaiting;
    return (
      awaiting !== undefined &&
      (this.run?.id !== awaiting.runId || this.run?.status !== awaiting.status)
    );
  }

  /** From now on, the next change of the run's status takes focus to it. */
  #awaitStatusChange(): void {
    this.#awaiting = { runId: this.run?.id, status: this.run?.status };
  }

  async #handleStart(): Promise<void> {
    const { client, bucket, extractor } = this;
    if (!client || !bucket || !extractor || this.pendingAction) return;
    this.error = undefined;
    this.pendingAction = 'start';
    this.#awaitStatusChange();
    try {
      const run = await client.startRun(bucket.id, extractor.id);
      fire(this, 'extractor-run-started', { run });
    } catch (error) {
      this.error = describeError(error);
      this.#awaiting = undefined;
    } finally {
      this.pendingAction = undefined;
    }
  }

  /** A new run reads the files afresh; a person's edits of this one would be left behind. */
  async #handleRestart(): Promise<void> {
    if (hasUnsubmittedEdits(this.run) && !this.confirmingRestart) {
      this.confirmingRestart = true;
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('.confirm-restart')?.focus();
      return;
    }
    this.confirmingRestart = false;
    await this.#handleStart();
  }

  #handleKeepEdits(): void {
    this.confirmingRestart = false;
    fire(this, 'extractor-step-requested', { step: 'results' });
  }

  async #handleCommand(command: RunCommand): Promise<void> {
    const { client, run } = this;
    if (!client || !run || this.pendingAction) return;
    this.error = undefined;
    this.pendingAction = command;
    this.#awaitStatusChange();
    try {
      const updated = await client.runCommand(run.id, command);
      fire(this, 'extractor-run-changed', { run: updated });
    } catch (error) {
      this.error = describeError(error);
      // A 409 means the run moved on meanwhile; show it as it is now.
      if (error instanceof ApiError && error.status === 409) {
        try {
          fire(this, 'extractor-run-changed', { run: await client.getRun(run.id) });
        } catch {
          // The message above already says what happened.
        }
      } else this.#awaiting = undefined;
    } finally {
      this.pendingAction = undefined;
    }
  }

  #handleBack(): void {
    fire(this, 'extractor-step-requested', { step: 'bucket' });
  }

  #handleContinue(): void {
    fire(this, 'extractor-step-requested', { step: 'results' });
  }

  override render() {
    const { labels, run } = this;
    return html`
      <section class="view" part="base" aria-labelledby="heading">
        ${this.renderHeader(labels.extractionViewHeading, labels.extractionViewDescription)}
        ${run ? this.#renderStatus(run) : this.#renderNoRun()}
        ${run?.status === 'failed' ? this.#renderFailure(run) : nothing}
        ${
          run?.status === 'cancelled'
            ? html`<p class="message" part="error">${extractionText.cancelled}</p>`
            : nothing
        }
        ${run ? this.#renderDocuments(run) : nothing}
        ${run ? this.#renderPartialResults(run) : nothing}
        ${this.error ? html`<p class="message error" part="error" role="alert">${this.error}</p>` : nothing}
        ${
          this.confirmingRestart
            ? renderDiscardEditsWarning({
                buttonLabel: labels.extractionViewRestartButtonLabel,
                onKeep: () => this.#handleKeepEdits(),
              })
            : nothing
        }
        <div class="visually-hidden" aria-live="polite" aria-atomic="true">
          ${this.announcement}
        </div>
        ${this.#renderActions(run)}
      </section>
    `;
  }

  #renderNoRun() {
    return html`<div class="status" part="status">
      <p class="status-line">${extractionText.noRun}</p>
    </div>`;
  }

  #renderStatus(run: Run) {
    const total = run.chunksTotal ?? 0;
    const percent = percentDone(run);
    // The bar moves only while the run works: sliding while the amount of work is unknown,
    // then filling; once the run stops, so does the bar, where it got to.
    const working = run.status === 'queued' || run.status === 'running';
    const indeterminate = working && percent === undefined;
    const stopped = run.status === 'failed' || run.status === 'cancelled';
    const sentence = describeProgress(run);
    const time = this.#timeText(run);
    return html`
      <div
        class="status status-${run.status}"
        part="status"
        role="group"
        aria-labelledby="run-status-name"
        aria-describedby="run-status-line"
        tabindex="-1"
      >
        <div class="status-head">
          <span class="badge badge-${run.status}" id="run-status-name"
            >${statusNames[run.status]}</span
          >
          ${time ? html`<span class="time">${time}</span>` : nothing}
        </div>
        <div
          class="progress ${indeterminate ? 'indeterminate' : ''} ${stopped ? 'stopped' : ''}"
          part="progress"
          role="progressbar"
          aria-label=${extractionText.progressLabel}
          aria-valuemin="0"
          aria-valuemax=${indeterminate ? nothing : total || 1}
          aria-valuenow=${indeterminate ? nothing : run.status === 'completed' ? total || 1 : run.chunksCompleted}
          aria-valuetext=${sentence}
        >
          <div
            class="progress-fill"
            ${styleProperties(indeterminate ? {} : { width: `${percent ?? 0}%` })}
          ></div>
        </div>
        <p class="status-line" id="run-status-line">${sentence}</p>
      </div>
    `;
  }

  #renderFailure(run: Run) {
    const counts = countDocuments(run);
    // Each document says in the list why it could not be read; the run's own error would
    // only repeat them. A run that failed before reading any document has only its own.
    if (counts.failed > 0)
      return html`
        <div class="message error" part="error">
          <span class="message-title">${extractionText.documentsFailedTitle(counts.total)}</span>
          <span class="failure-next"
            >${this.#canReplace(run) ? extractionText.replaceNext : extractionText.failedNext}</span
          >
        </div>
      `;
    return html`
      <div class="message error" part="error">
        <span class="message-title">${extractionText.failedTitle}</span>
        ${run.error ? html`<span class="failure-reason">${run.error}</span>` : nothing}
        <span class="failure-next">${extractionText.failedNext}</span>
      </div>
    `;
  }

  #renderDocuments(run: Run) {
    const documents = documentsOfRun(run);
    if (documents.length === 0) return nothing;
    const counts = countDocuments(run);
    const properties = schemaProperties(run);
    return html`
      <section class="documents" part="documents" aria-labelledby="documents-heading">
        <div
          id="documents-heading"
          class="found-heading"
          role="heading"
          aria-level=${this.headingLevel + 1}
        >
          ${extractionText.documentsLabel}
          <span class="found-count"
            >${extractionText.foundCount(counts.completed, counts.total)}
            ${documentStatusNames.completed.toLowerCase()}</span
          >
        </div>
        <ol class="document-list" part="document-list">
          ${repeat(
            documents,
            (document) => document.file,
            (document) => this.#renderDocument(run, document, documents.length > 1, properties),
          )}
        </ol>
      </section>
    `;
  }

  #renderDocument(
    run: Run,
    document: RunDocumentState,
    several: boolean,
    properties: Record<string, TargetSchema>,
  ) {
    // A document is read before its turn to be extracted comes: while its pages are read
    // it is at work, though its turn has not come.
    const status =
      document.status === 'queued' && pageBeingRead(document) ? 'running' : document.status;
    const percent = documentPercentDone(document);
    const moving = status === 'running' && run.status === 'running';
    // One document's bar would repeat the run's; with several, each shows its own.
    const bar = several && status === 'running';
    let sentence = describeDocumentProgress(document, run);
    if (status === 'completed' && several && Object.keys(properties).length > 0) {
      const found = foundValues(document.data, properties);
      sentence = extractionText.documentFound(found.found, found.all);
    }
    return html`<li class="document document-${status}" part="document">
      <div class="document-head">
        <span class="document-name">${document.name}</span>
        <span class="badge badge-${status}">${documentStatusNames[status]}</span>
      </div>
      ${
        bar
          ? html`<div
              class="progress ${moving && percent === undefined ? 'indeterminate' : ''} ${moving ? '' : 'stopped'}"
              part="progress"
              role="progressbar"
              aria-label=${extractionText.documentProgressLabel(document.name)}
              aria-valuemin="0"
              aria-valuemax=${percent === undefined ? nothing : 100}
              aria-valuenow=${percent ?? nothing}
              aria-valuetext=${sentence}
            >
              <div
                class="progress-fill"
                ${styleProperties(percent === undefined ? {} : { width: `${percent}%` })}
              ></div>
            </div>`
          : nothing
      }
      <p class="document-line">${sentence}</p>
      ${
        status === 'failed' && this.#canReplace(run)
          ? renderReplaceFile({
              controller: this.#replacer,
              client: this.client,
              run,
              document,
            })
          : nothing
      }
    </li>`;
  }

  #renderPartialResults(run: Run) {
    // With several documents, each one's count of values found shows in the list instead.
    const documents = documentsOfRun(run);
    if (documents.length !== 1 || documents[0]!.status === 'failed') return nothing;
    const data = documents[0]!.data;
    const values =
      data && typeof data === 'object' && !Array.isArray(data)
        ? (data as Record<string, unknown>)
        : {};
    const properties = schemaProperties(run);
    const names = [...new Set([...Object.keys(properties), ...Object.keys(values)])];
    if (names.length === 0 || run.status === 'failed' || run.status === 'cancelled') return nothing;
    const found = names.filter((name) => summarizeValue(values[name]) !== '—').length;
    return html`
      <section class="found" part="partial-results" aria-labelledby="found-heading">
        <div
          id="found-heading"
          class="found-heading"
          role="heading"
          aria-level=${this.headingLevel + 1}
        >
          ${run.status === 'completed' ? extractionText.found : extractionText.foundSoFar}
          <span class="found-count">${extractionText.foundCount(found, names.length)}</span>
        </div>
        <dl class="found-list">
          ${names.map(
            (name) =>
              html`<div class="found-item">
                <dt>${fieldTitle(name, properties[name])}</dt>
                <dd class=${summarizeValue(values[name]) === '—' ? 'missing' : ''}>
                  ${summarizeValue(values[name], properties[name])}
                </dd>
              </div>`,
          )}
        </dl>
      </section>
    `;
  }

  #renderActions(run: Run | undefined) {
    const { labels } = this;
    const status = run?.status;
    const busy = this.pendingAction !== undefined;
    const button = (
      action: Action | 'restart',
      label: string,
      part: string,
      primary: boolean,
      onClick: () => void,
    ) => html`
      <button
        class="button ${primary ? 'primary' : ''}"
        part="button ${part}"
        type="button"
        aria-disabled=${busy ? 'true' : 'false'}
        @click=${onClick}
      >
        ${this.pendingAction === action ? `${label}…` : label}
      </button>
    `;
    const finished = status !== undefined && isFinalRunStatus(status);
    const withResults = canShowStep('results', { fileCount: 0, run });
    // Reading the same files again would fail the same way: replacing is the way on, and
    // Restart is not offered.
    const replaceable =
      run !== undefined && this.#canReplace(run) && countDocuments(run).failed > 0;
    return html`
      <div class="actions" part="actions">
        <button class="button" part="button back-button" type="button" @click=${this.#handleBack}>
          ${labels.extractionViewBackButtonLabel}
        </button>
        <div class="end">
          ${
            status === undefined
              ? button('start', labels.extractionViewStartButtonLabel, 'start-button', true, () =>
                  this.#handleStart(),
                )
              : nothing
          }
          ${
            status && canRunCommand(status, 'cancel')
              ? button(
                  'cancel',
                  labels.extractionViewCancelButtonLabel,
                  'cancel-button',
                  false,
                  () => this.#handleCommand('cancel'),
                )
              : nothing
          }
          ${
            status && canRunCommand(status, 'pause')
              ? button('pause', labels.extractionViewPauseButtonLabel, 'pause-button', false, () =>
                  this.#handleCommand('pause'),
                )
              : nothing
          }
          ${
            status && canRunCommand(status, 'resume')
              ? button(
                  'resume',
                  labels.extractionViewContinueButtonLabel,
                  'resume-button',
                  true,
                  () => this.#handleCommand('resume'),
                )
              : nothing
          }
          ${
            finished && !replaceable && (!run?.submittedAt || this.extractor?.allowResubmission)
              ? button(
                  'start',
                  labels.extractionViewRestartButtonLabel,
                  'restart-button',
                  !withResults,
                  () => this.#handleRestart(),
                )
              : nothing
          }
          ${
            withResults
              ? html`<button
                  class="button primary"
                  part="button continue-button"
                  type="button"
                  @click=${this.#handleContinue}
                >
                  ${labels.extractionViewContinueButtonLabel}
                </button>`
              : nothing
          }
        </div>
      </div>
    `;
  }

  /** Whether a document that could not be read may be replaced now. */
  #canReplace(run: Run): boolean {
    return reopenableRunStatuses.includes(run.status) && !run.submittedAt && !!this.client;
  }

  #timeText(run: Run): string | undefined {
    if (run.status === 'completed') {
      const seconds = runSeconds(run);
      return seconds === undefined ? undefined : formatDuration(seconds);
    }
    if (run.status !== 'running' || !run.startedAt) return undefined;
    return extractionText.elapsed((this.#clock.value - Date.parse(run.startedAt)) / 1000);
  }
}

function schemaProperties(run: Run): Record<string, TargetSchema> {
  const schema = run.targetSchema ? readTargetSchema(run.targetSchema) : undefined;
  return schema?.properties ?? {};
}

/** How many of the schema's top-level values a record has found. */
function foundValues(
  data: unknown,
  properties: Record<string, TargetSchema>,
): { found: number; all: number } {
  const values =
    data && typeof data === 'object' && !Array.isArray(data)
      ? (data as Record<string, unknown>)
      : {};
  const names = Object.keys(properties);
  return {
    found: names.filter((name) => summarizeValue(values[name]) !== '—').length,
    all: names.length,
  };
}

declare global {
  interface HTMLElementTagNameMap {
    'extractor-extraction-view': ExtractorExtractionView;
  }
}
