import { msg, str } from '@lit/localize';
import { html, nothing, type PropertyValues } from 'lit';
import { state } from 'lit/decorators.js';
import { keyed } from 'lit/directives/keyed.js';
import { ApiError, describeError } from '../../client/api-error.js';
import { formatNumber } from '../../locales/format.js';
import { formattingLocale } from '../../locales/localization.js';
import { plural } from '../../locales/plural.js';
import { idOf, resultFormats, type ResultFormat } from '../../client/client.js';
import {
  countDocuments,
  documentsOfRun,
  type RunDocumentState,
} from '../../client/run-documents.js';
import { readTargetSchema, type TargetSchema } from '../../contract/json-schema.js';
import type { RunResults } from '../../contract/resources.js';
import { DocumentReplaceController } from '../../controllers/document-replace-controller.js';
import { describeOutcome, documentText, failureReason } from '../internal/document-text.js';
import { fire } from '../internal/events.js';
import { checkIcon, downloadIcon } from '../internal/icons.js';
import { documentStyles } from '../styles/document.styles.js';
import { renderReplaceFile } from '../internal/replace-file.js';
import { ExtractorViewElement } from '../internal/view-element.js';
import { DocumentDrafts } from './document-drafts.js';
import { ExtractorDocumentPane, type PickedWords } from '../document-pane/document-pane.js';
import {
  checksOf,
  DocumentReview,
  machineRecordsOfRun,
  metadataOfRun,
} from '../record-editor/review-state.js';
import { fieldStateText, paneText } from '../wording/review-text.js';
import { resultsViewStyles } from './results-view.styles.js';
import { highlightsOf, nameOf } from './pane-highlights.js';
import { renderNothingFound } from './nothing-found.js';
import {
  renderDocumentSwitcher,
  renderNextDocument,
  type DocumentSwitcher,
} from './document-switcher.js';
import { quoted, saveStatusText, submitAnyway, submittedText } from '../wording/results-text.js';
import { recordEditorStyles } from '../record-editor/record-editor.styles.js';

/**
 * @tagname extractor-results-view
 * @summary The last step: the person checks and corrects the results, then submits them.
 *
 * A run reads each file as its own document, with its own record. With several documents a
 * switcher shows each one's name and state (read, needs attention, could not be read) as
 * tabs (arrow keys, Home and End move between them), with Previous and Next; below it is
 * the chosen document's editor. A document that could not be read shows why, in plain
 * words, and "Replace file": another file is read in its place (the view goes back to the
 * extraction to watch it) while the other documents and their edits stay as they are.
 *
 * The editor is generated from the run's target schema: objects become labelled fields,
 * strings, numbers (typed in the person's locale), yes-or-no values (with "not known"),
 * choices (enum) and dates get fitting controls, lists of flat objects become an
 * editable grid (one Tab stop, arrow keys between cells, fast with thousands of rows,
 * cards on a narrow screen) and lists of plain values a list. Fields that must be filled
 * in are marked. Values are checked against the schema while the person types, with a
 * message in plain words under the field, and each document's edits are saved to the
 * service after a short pause. Downloads (JSON, XML, CSV) carry every document and show
 * when the extractor allows them. Submit saves, fires the cancelable
 * `extractor-submit-requested`, submits every document that was read, and fires
 * `extractor-results-submitted`; what happens next (a redirect, a thank-you) is the app's
 * or the host page's to decide.
 *
 * @fires extractor-results-changed - A document's edits were saved; `detail.run`, `detail.data` (every document) and `detail.file` (the one saved).
 * @fires extractor-submit-requested - Cancelable, before submitting: preventDefault() to submit another way. `detail.data` holds every document.
 * @fires extractor-results-submitted - The results were submitted; `detail.submission` has the redirectUrl.
 * @fires extractor-run-changed - A file was put in the place of one that could not be read; `detail.run` reads it.
 * @fires extractor-step-requested - Back (`extraction`), or after a file was replaced (`extraction`, to watch it).
 *
 * @csspart base - The view's wrapper.
 * @csspart header - The heading and description.
 * @csspart heading - The view's heading; focus moves here when the step shows.
 * @csspart description - The text under the heading.
 * @csspart outcome - How many documents were read, when some could not be.
 * @csspart toolbar - The save status and the downloads.
 * @csspart downloads - The download buttons.
 * @csspart document-switcher - The documents' tabs with Previous and Next (several documents).
 * @csspart document-tabs - The row of tabs, one per document.
 * @csspart document-tab - One document's tab: its name and state.
 * @csspart previous-document-button - Shows the previous document.
 * @csspart next-document-button - Shows the next document.
 * @csspart document-panel - The chosen document: its editor, or why it could not be read.
 * @csspart replace-button - Replaces the file of a document that could not be read.
 * @csspart progress - How far the replacement file got.
 * @csspart form - The editor.
 * @csspart field - One labelled field.
 * @csspart field-error - The message under a value the schema does not accept.
 * @csspart field-state - A value's state beside the document: found, not found, edited by you, needs review.
 * @csspart show-source-button - Shows where a value was found in the document.
 * @csspart review-count - How many values need review, above the fields.
 * @csspart review-toggle-button - Fields or Document, on a narrow screen.
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
 * @csspart error - A message about something that went wrong (a document, saving, submitting).
 * @csspart actions - The row of buttons.
 * @csspart button - Every button.
 * @csspart back-button - Back to the extraction.
 * @csspart submit-button - Submits the results.
 * @csspart nothing-found - Says that nothing was found in a document, with the ways on.
 * @csspart upload-another-button - Goes back to the files to upload another one.
 * @csspart enter-by-hand-button - Moves to the first field, to type the values by hand.
 * @csspart empty-warning - Asks before a record with nothing in it is submitted.
 *
 * @cssproperty --extractor-color-accent - The accent: primary buttons, focus, the chosen document.
 * @cssproperty --extractor-color-surface - Background of inputs and the table.
 * @cssproperty --extractor-color-border - Borders of inputs and the table.
 * @cssproperty --extractor-color-danger - Messages about invalid values and unread documents.
 * @cssproperty --extractor-radius - Corner radius of buttons and inputs.
 * @cssproperty --extractor-radius-container - Corner radius of panels, tables and the drop zone.
 */
export class ExtractorResultsView extends ExtractorViewElement {
  static override styles = [
    ...ExtractorViewElement.styles,
    documentStyles,
    resultsViewStyles,
    ...recordEditorStyles,
  ];

  #drafts = this.#createDrafts();
  readonly #replacer = new DocumentReplaceController(this, {
    // Edits go to the service before the run is busy reading the new file.
    beforeReplace: async () =>
      (await this.#drafts.flush())
        ? { ok: true }
        : {
            ok: false,
            message: msg('Your changes could not be saved, so the file was not replaced.', {
              id: 'results.replace-unsaved',
            }),
          },
    onReplaced: (run) => {
      fire(this, 'extractor-run-changed', { run });
      fire(this, 'extractor-step-requested', { step: 'extraction' });
    },
  });
  #runId: string | undefined;
  #schemaText: string | undefined;
  #schema: TargetSchema | undefined;
  /** Where the chosen document was, for choosing its neighbour when it goes. */
  #selectedIndex = 0;

  /** The file IRI of the document shown. */
  @state() private selected: string | undefined;
  @state() private submitting = false;
  @state() private downloading: ResultFormat | undefined;
  @state() private error: string | undefined;
  /** When Submit was pressed over records with nothing in them: it asks once more. */
  @state() private confirmingEmpty = false;
  /** Set by this view's own Submit, before the app has followed the run. */
  @state() private submittedAt: string | undefined;
  /** The JSON pointer of the value being edited: its source is highlighted in the pane. */
  @state() private current: string | undefined;
  /** On a narrow screen, which of the two shows: the fields or the document. */
  @state() private showing: 'fields' | 'document' = 'fields';

  override connectedCallback(): void {
    super.connectedCallback();
    // The pane comes with this view (loaded only when results show), never before. Not
    // through registry.ts's defineElement: importing the registry here would tie this
    // lazily loaded view to the first view's chunks (and past their size budget).
    if (!customElements.get('extractor-document-pane'))
      customElements.define('extractor-document-pane', ExtractorDocumentPane);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // Leaving the view must not lose what was typed in the last moment.
    void this.#drafts.flush();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (
      !changed.has('run' as keyof ExtractorResultsView) &&
      !changed.has('extractor' as keyof ExtractorResultsView)
    )
      return;
    const run = this.run;
    const schemaText = run?.targetSchema ?? this.extractor?.jsonSchema;
    if (schemaText !== this.#schemaText) {
      this.#schemaText = schemaText;
      this.#schema = schemaText ? readTargetSchema(schemaText) : undefined;
    }
    if (run?.id !== this.#runId) {
      this.#runId = run?.id;
      this.submittedAt = undefined;
      this.confirmingEmpty = false;
      this.#drafts = this.#createDrafts();
      this.selected = undefined;
      this.#selectedIndex = 0;
    }
    const documents = documentsOfRun(run);
    this.#drafts.sync(documents, this.#schema);
    // A document replaced elsewhere has a new file: its neighbour in the list takes its place.
    if (!documents.some((document) => document.file === this.selected)) {
      const index = Math.min(this.#selectedIndex, documents.length - 1);
      this.selected = documents[Math.max(index, 0)]?.file;
    }
    this.#selectedIndex = Math.max(
      0,
      documents.findIndex((document) => document.file === this.selected),
    );
  }

  #createDrafts(): DocumentDrafts {
    return new DocumentDrafts(this, {
      readOnly: () => this.#submitted || this.submitting,
      save: (document, record) => {
        const { client, run } = this;
        if (!client || !run) return Promise.reject(new Error('There is no run to save to.'));
        return client.saveDocumentResults(run.id, document.fileId, record);
      },
      onSaved: (run, draft) =>
        fire(this, 'extractor-results-changed', {
          run,
          data: this.#results(),
          file: draft.document.file,
        }),
      onChange: () => {
        this.error = undefined;
        this.confirmingEmpty = false;
        this.requestUpdate();
      },
      review: (document) => {
        const run = this.run;
        return new DocumentReview({
          metadata: metadataOfRun(run).get(document.file),
          machine: machineRecordsOfRun(run).get(document.file),
          checks: checksOf(this.extractor),
          schema: this.#schema,
        });
      },
      showSource: (pointer) => void this.#showSource(pointer),
    });
  }

  get #pane(): ExtractorDocumentPane | null {
    return this.renderRoot.querySelector('extractor-document-pane');
  }

  /** Shows where a value was found (or taken from), switching to the document when narrow. */
  async #showSource(pointer: string): Promise<void> {
    this.current = pointer;
    this.showing = 'document';
    await this.updateComplete;
    await this.#pane?.reveal(pointer);
  }

  /** A field took focus: its source is highlighted and brought into sight. */
  #handleFieldFocus(event: FocusEvent): void {
    const holder = event
      .composedPath()
      .find(
        (node): node is HTMLElement => node instanceof HTMLElement && !!node.dataset['pointer'],
      );
    const pointer = holder?.dataset['pointer'];
    if (!pointer || pointer === this.current) return;
    this.current = pointer;
    // Only beside the fields: on a narrow screen the pane is hidden until asked for.
    const draft = this.selected ? this.#drafts.get(this.selected) : undefined;
    const name = draft && nameOf(draft, pointer);
    if (this.#pane?.checkVisibility()) void this.#pane.reveal(pointer, name);
  }

  /** A highlight on the page was chosen: its field takes focus. */
  async #handleSourceChosen(event: CustomEvent<{ pointer: string }>): Promise<void> {
    const { pointer } = event.detail;
    this.current = pointer;
    this.showing = 'fields';
    await this.updateComplete;
    const holder = this.renderRoot.querySelector<HTMLElement>(
      `.form [data-pointer="${CSS.escape(pointer)}"]`,
    );
    if (!holder) return;
    const control =
      holder.getAttribute('role') === 'gridcell'
        ? holder
        : holder.querySelector<HTMLElement>('input, select, textarea');
    control?.focus();
  }

  /** The pointer is over a highlight on the page: its field is outlined, to be found. */
  #handleSourcePointed(event: CustomEvent<{ pointer: string | undefined }>): void {
    const { pointer } = event.detail;
    for (const holder of this.renderRoot.querySelectorAll('.form .pointed'))
      holder.classList.remove('pointed');
    if (pointer)
      this.renderRoot
        .querySelector(`.form [data-pointer="${CSS.escape(pointer)}"]`)
        ?.classList.add('pointed');
  }

  /** Words picked on the page fill the value being edited; the edit is the person's. */
  #handleWordsPicked(event: CustomEvent<PickedWords>): void {
    const draft = this.selected ? this.#drafts.get(this.selected) : undefined;
    const pointer = this.current;
    if (!draft || !pointer) return;
    if (draft.editor.fill(pointer, event.detail.text)) draft.review?.pick(pointer, event.detail);
  }

  get #submitted(): boolean {
    return !!this.run?.submittedAt || this.submittedAt !== undefined;
  }

  /** The results as edited, in the service's shape: every document, in order. */
  #results(): RunResults {
    return {
      documents: documentsOfRun(this.run).map((document) => ({
        file: document.file,
        name: document.name,
        status: document.status,
        data: this.#drafts.get(document.file)?.editor.value ?? document.data ?? null,
        error: document.error,
      })),
    };
  }

  /** Shows a document; what was typed in the one left is saved at once. */
  async select(file: string, options: { focusTab?: boolean } = {}): Promise<void> {
    const leaving = this.selected ? this.#drafts.get(this.selected) : undefined;
    if (file === this.selected) return;
    this.selected = file;
    this.#selectedIndex = Math.max(
      0,
      documentsOfRun(this.run).findIndex((document) => document.file === file),
    );
    if (leaving) void this.#drafts.flush(leaving);
    await this.updateComplete;
    const tab = this.renderRoot.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]');
    // In a row that scrolls (narrow), Previous and Next bring the chosen tab into sight.
    tab?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    if (options.focusTab) tab?.focus();
  }

  #handleTabKeydown(event: KeyboardEvent): void {
    const documents = documentsOfRun(this.run);
    const index = this.#selectedIndex;
    const last = documents.length - 1;
    const target = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowLeft: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    void this.select(documents[target]!.file, { focusTab: true });
  }

  #handleStep(step: -1 | 1): void {
    const documents = documentsOfRun(this.run);
    const next = documents[this.#selectedIndex + step];
    if (next) void this.select(next.file);
  }

  async #handleDownload(format: ResultFormat): Promise<void> {
    const { client, run } = this;
    if (!client || !run || this.downloading) return;
    this.error = undefined;
    this.downloading = format;
    try {
      // The file is made from what the service holds: edits go there first.
      await this.#drafts.flush();
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

  async #handleSubmit(): Promise<void> {
    const { client, run } = this;
    if (!client || !run || this.submitting || this.#submitted) return;
    this.error = undefined;
    const [invalid] = this.#drafts.invalid;
    if (invalid) {
      const elsewhere = invalid.document.file !== this.selected;
      await this.select(invalid.document.file);
      this.error = elsewhere
        ? msg(
            str`Some values of “${invalid.document.name}” need your attention before you submit; they are marked above.`,
            { id: 'results.invalid-document' },
          )
        : msg('Some values need your attention before you submit; they are marked above.', {
            id: 'results.invalid',
          });
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    // A record with nothing in it is most likely a file that could not be read well: sending
    // it should be a choice, not a slip.
    const empty = this.#drafts.all.filter((draft) => isEmptyRecord(draft.editor.value));
    if (empty.length > 0 && !this.confirmingEmpty) {
      this.confirmingEmpty = true;
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('.confirm-empty')?.focus();
      return;
    }
    this.confirmingEmpty = false;
    const data = this.#results();
    if (!fire(this, 'extractor-submit-requested', { run, data }, { cancelable: true })) return;
    this.submitting = true;
    try {
      if (!(await this.#drafts.flush())) {
        const failed = this.#drafts.all.find((draft) => draft.saveError);
        this.error =
          failed?.saveError ??
          msg('Your changes could not be saved, so nothing was submitted.', {
            id: 'results.submit-unsaved',
          });
        return;
      }
      const submission = await client.submitResults(run.id);
      this.submittedAt = submission.submittedAt;
      const submitted = await client
        .getRun(run.id)
        .catch(() => ({ ...run, submittedAt: submission.submittedAt }));
      this.submitting = false;
      // The heading now says it is done: focus goes there, so it is on screen and read out.
      await this.updateComplete;
      this.focusHeading();
      fire(this, 'extractor-results-submitted', { run: submitted, submission });
    } catch (error) {
      this.#showRefusedDrafts(error);
      this.error = describeError(error);
    } finally {
      this.submitting = false;
    }
  }

  /**
   * The service refuses drafts its schema does not accept, pointing into the results
   * (`/documents/{i}/data/...`): those values are marked in their documents.
   */
  #showRefusedDrafts(error: unknown): void {
    if (!(error instanceof ApiError) || error.status !== 422) return;
    const documents = documentsOfRun(this.run);
    for (const { pointer } of error.fieldErrors) {
      const match = /^\/documents\/(\d+)\/data(\/.*)?$/.exec(pointer);
      const document = match ? documents[Number(match[1])] : undefined;
      if (document)
        this.#drafts.get(document.file)?.editor.addViolations([{ pointer: match![2] ?? '' }]);
    }
  }

  /** Shows the chosen document's first field, ready for typing values by hand. */
  async #handleEnterByHand(): Promise<void> {
    await this.updateComplete;
    this.renderRoot
      .querySelector<HTMLElement>('.form input, .form select, .form textarea, .form [role="grid"]')
      ?.focus();
  }

  async #handleBack(): Promise<void> {
    await this.#drafts.flush();
    fire(this, 'extractor-step-requested', { step: 'extraction' });
  }

  override render() {
    const { labels, run } = this;
    const submitted = this.#submitted;
    const documents = documentsOfRun(run);
    const document = documents.find((each) => each.file === this.selected);
    const several = documents.length > 1;
    // Once submitted the flow is over, unless the extractor lets the bucket be submitted again.
    const canGoBack = !submitted || !!this.extractor?.allowResubmission;
    return html`
      <section class="view" part="base" aria-labelledby="heading">
        ${
          submitted
            ? this.renderHeader(
                msg('Your results have been submitted', { id: 'results.submitted-heading' }),
                msg('Thank you. Nothing more is needed from you here.', {
                  id: 'results.submitted-description',
                }),
              )
            : this.renderHeader(labels.resultsViewHeading, labels.resultsViewDescription)
        }
        ${
          submitted
            ? html`<p class="message success" role="status">
                <span class="message-title"
                  >${checkIcon()} ${msg('Submitted. Thank you.', { id: 'results.submitted' })}</span
                >
                ${submittedText(run?.submittedAt ?? this.submittedAt)}
              </p>`
            : nothing
        }
        ${this.#renderOutcome()} ${this.#renderToolbar(document)}
        ${several ? renderDocumentSwitcher(this.#switcher(documents)) : nothing}
        <div
          class="document-panel"
          part="document-panel"
          id="document-panel"
          role=${several ? 'tabpanel' : nothing}
          aria-labelledby=${several ? `document-tab-${this.#selectedIndex}` : nothing}
        >
          ${document ? this.#renderDocument(document) : nothing}
        </div>
        ${several ? renderNextDocument(this.#switcher(documents)) : nothing}
        ${this.error ? html`<p class="message error" part="error" role="alert">${this.error}</p>` : nothing}
        ${this.confirmingEmpty && !submitted ? this.#renderConfirmEmpty() : nothing}
        <div class="actions" part="actions">
          ${
            canGoBack
              ? html`<button
                  class="button"
                  part="button back-button"
                  type="button"
                  @click=${this.#handleBack}
                >
                  ${labels.resultsViewBackButtonLabel}
                </button>`
              : nothing
          }
          ${
            submitted
              ? nothing
              : html`<div class="end">
                  <button
                    class="button primary"
                    part="button submit-button"
                    type="button"
                    aria-disabled=${this.submitting ? 'true' : 'false'}
                    @click=${this.#handleSubmit}
                  >
                    ${
                      this.submitting
                        ? `${labels.resultsViewSubmitButtonLabel}…`
                        : this.confirmingEmpty
                          ? submitAnyway()
                          : labels.resultsViewSubmitButtonLabel
                    }
                  </button>
                </div>`
          }
        </div>
      </section>
    `;
  }

  /** Submit over a record with nothing in it asks once more, saying why. */
  #renderConfirmEmpty() {
    const empty = this.#drafts.all.filter((draft) => isEmptyRecord(draft.editor.value));
    const names = new Intl.ListFormat(formattingLocale(), { type: 'conjunction' }).format(
      empty.map((draft) => quoted(draft.document.name)),
    );
    const count = empty.length;
    return html`<p
      class="message warning confirm-empty"
      part="empty-warning"
      role="alert"
      tabindex="-1"
    >
      <span class="message-title"
        >${plural(
          count,
          {
            one: str`One record is empty.`,
            other: str`${formatNumber(count)} records are empty.`,
          },
          { id: 'results.empty-records' },
        )}</span
      >
      ${plural(
        count,
        {
          one: str`Nothing was found or entered for ${names}. Press “${submitAnyway()}” to send it as it is, or fill in the values first.`,
          other: str`Nothing was found or entered for ${names}. Press “${submitAnyway()}” to send them as they are, or fill in the values first.`,
        },
        { id: 'results.empty-confirm' },
      )}
    </p>`;
  }

  /** "3 of 4 documents read; 1 could not be read.", when some could not be. */
  #renderOutcome() {
    const counts = countDocuments(this.run);
    if (counts.failed === 0) return nothing;
    return html`<p class="message partial" part="outcome">
      <span class="message-title">${describeOutcome(counts)}</span>
      ${this.run?.submittedAt ? nothing : documentText.submitsRead(counts.completed)}
    </p>`;
  }

  #switcher(documents: RunDocumentState[]): DocumentSwitcher {
    return {
      documents,
      index: this.#selectedIndex,
      selected: this.selected,
      needsAttention: (file) => (this.#drafts.get(file)?.editor.violations.size ?? 0) > 0,
      onStep: (step) => this.#handleStep(step),
      onSelect: (file, options) => void this.select(file, options),
      onTabKeydown: this.#handleTabKeydown,
    };
  }

  #renderDocument(document: RunDocumentState) {
    const { run } = this;
    if (document.status === 'failed' && run) {
      const reason = failureReason(document);
      return html`<div class="failed-document">
        <div class="message error" part="error">
          <span class="message-title">${documentText.failedTitle(document.name)}</span>
          ${reason ? html`<span>${reason}</span>` : nothing}
          ${run.submittedAt ? nothing : html`<span>${documentText.failedNext}</span>`}
        </div>
        ${
          run.submittedAt
            ? nothing
            : renderReplaceFile({
                controller: this.#replacer,
                client: this.client,
                run,
                document,
              })
        }
      </div>`;
    }
    const draft = this.#drafts.get(document.file);
    if (!draft) return nothing;
    const nothingFound =
      isEmptyRecord(draft.editor.value) && !this.#submitted
        ? renderNothingFound(document.name, this.#handleUploadAnother, this.#handleEnterByHand)
        : nothing;
    const form = html`<form
      class="form"
      part="form"
      novalidate
      @submit=${(event: Event) => event.preventDefault()}
      @focusin=${this.#handleFieldFocus}
    >
      ${keyed(document.file, draft.editor.render())}
    </form>`;
    if (!run) return html`${nothingFound}${form}`;
    const review = draft.review;
    review?.update(draft.editor.value);
    const count = review?.needingReview.length ?? 0;
    const readOnly = this.#submitted || this.submitting;
    const currentName = this.current ? nameOf(draft, this.current) : undefined;
    return html`<div class="review showing-${this.showing}">
      <div class="review-toggle" role="group" aria-label=${paneText.show}>
        ${(['fields', 'document'] as const).map(
          (which) =>
            html`<button
              class="button small"
              part="button review-toggle-button"
              type="button"
              aria-pressed=${this.showing === which ? 'true' : 'false'}
              @click=${() => (this.showing = which)}
            >
              ${which === 'fields' ? paneText.fields : paneText.document}
            </button>`,
        )}
      </div>
      <div class="review-fields">
        ${nothingFound}
        <p class="review-count ${count > 0 ? 'some' : ''}" part="review-count">
          ${
            count > 0
              ? html`<span class="badge badge-review">${fieldStateText.review}</span>
                  ${fieldStateText.reviewCount(count)}`
              : fieldStateText.allReviewed
          }
        </p>
        ${form}
      </div>
      <div class="review-document">
        ${keyed(
          document.file,
          html`<extractor-document-pane
            .client=${this.client}
            .bucketId=${idOf('bucket', run.bucket)}
            .fileId=${document.fileId}
            .fileName=${document.name}
            .runId=${run.id}
            .highlights=${highlightsOf(draft)}
            .current=${this.current}
            .fillName=${readOnly ? undefined : currentName}
            @pane-source-chosen=${this.#handleSourceChosen}
            @pane-source-pointed=${this.#handleSourcePointed}
            @pane-words-picked=${this.#handleWordsPicked}
          ></extractor-document-pane>`,
        )}
      </div>
    </div>`;
  }

  async #handleUploadAnother(): Promise<void> {
    await this.#drafts.flush();
    fire(this, 'extractor-step-requested', { step: 'bucket' });
  }

  #renderToolbar(document: RunDocumentState | undefined) {
    const allowDownload = this.extractor?.allowDownload ?? false;
    const draft = document ? this.#drafts.get(document.file) : undefined;
    return html`<div class="toolbar" part="toolbar">
      <p class="save-status ${draft?.saveState ?? 'saved'}" role="status">
        ${draft ? saveStatusText(draft, this.#submitted) : ''}
      </p>
      ${
        allowDownload
          ? html`<div
              class="downloads"
              part="downloads"
              role="group"
              aria-label=${msg('Download the results', { id: 'results.downloads' })}
            >
              <span class="downloads-label" aria-hidden="true"
                >${downloadIcon()} ${msg('Download', { id: 'results.download' })}</span
              >
              ${resultFormats.map(
                (format) =>
                  html`<button
                    class="button small"
                    part="button download-button"
                    type="button"
                    aria-label=${msg(str`Download as ${format.toUpperCase()}`, {
                      id: 'results.download-as',
                    })}
                    aria-disabled=${this.downloading ? 'true' : 'false'}
                    @click=${() => this.#handleDownload(format)}
                  >
                    ${this.downloading === format ? '…' : format.toUpperCase()}
                  </button>`,
              )}
            </div>`
          : nothing
      }
    </div>`;
  }
}

/** Whether a record holds no value at all: only nulls, empty texts, lists and objects. */
export function isEmptyRecord(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.every(isEmptyRecord);
  if (typeof value === 'object') return Object.values(value).every(isEmptyRecord);
  return false;
}

declare global {
  interface HTMLElementTagNameMap {
    'extractor-results-view': ExtractorResultsView;
  }
}
