import { provide } from '@lit/context';
import { msg, str, updateWhenLocaleChanges } from '@lit/localize';
import { Task } from '@lit/task';
import { html, LitElement, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { ApiError, describeError } from '../../client/api-error.js';
import { filesOfBucket, TokenKindError, type ExtractorClient } from '../../client/client.js';
import { watchHostColors } from './host-colors.js';
import { colorSchemes, resolveColorScheme, type ColorScheme } from '../../contract/color-scheme.js';
import { sessionExpiryWarningMs } from '../../contract/frame-messages.js';
import { labelDefaults, type Labels } from '../../contract/labels.js';
import type { Bucket, CurrentSession, Extractor, Run, Theme } from '../../contract/resources.js';
import type { RunWatcherController } from '../../controllers/run-watcher-controller.js';
import {
  applyLocale,
  loadLaterTexts,
  browserLanguages,
  directionOf,
  matchLocale,
  type MessageOverrides,
} from '../../locales/localization.js';
import { formatNumber } from '../../locales/numbers.js';
import {
  bucketContext,
  clientContext,
  extractorContext,
  labelsContext,
  runContext,
} from '../internal/context.js';
import { fire, type ExtractorEventMap } from '../internal/events.js';
import { localizedLabels } from '../internal/labels.js';
import { exportedViewParts } from '../internal/parts.js';
import { loadStepView } from './registry.js';
import { canShowStep, resumeStep, steps, type Step } from '../internal/steps.js';
import { controlStyles, tokenStyles } from '../styles/theme.styles.js';
import { appStyles } from './app.styles.js';
import {
  loadErrorMessage,
  loadFlow,
  MissingSessionError,
  viewLoadError,
  type LoadedFlow,
} from './load-flow.js';
import type { renderSessionNotice, SessionNotice } from './session-notice.js';

/** Where the app is shown; it decides the page chrome and what a submit leads to. */
export type AppMode = 'element' | 'page' | 'frame';

/**
 * @tagname extractor-app
 * @summary The whole flow in one element: introduction, upload, extraction and results.
 *
 * Give it an embed session token (`session`, minted on your server with
 * `POST /api/embed_sessions`) and, when the service is on another origin, its address
 * (`base-url`). It loads the session's extractor and bucket, shares them with the views,
 * and moves through the four steps; after a reload the person is back where they were.
 * A personal access token is refused: it must never reach a browser.
 *
 * Every attribute has a property of the same meaning (`base-url` is `baseUrl`), so a
 * framework can set either. The events bubble and are composed: listen on the element or
 * anywhere above it.
 *
 * @fires {CustomEvent<SessionRefreshDetail>} extractor-session-refresh-requested - The session ends in a minute; set `session` to a fresh token for the same extractor and bucket, and the person goes on without a reload. `detail.expiresAt`.
 * @fires {CustomEvent<SessionRefreshDetail>} extractor-session-expired - The session has ended (no fresh token came in time). What the person entered is saved: set `session` to a fresh token for the same extractor and bucket, and they go on where they were, without a reload. `detail.expiresAt`.
 * @fires {CustomEvent<SessionLoadedDetail>} extractor-session-loaded - Everything is loaded and the first view shows; `detail.extractor`, `detail.bucket`, `detail.run`, `detail.step`.
 * @fires {CustomEvent<StepChangedDetail>} extractor-step-changed - The person moved to another step; `detail.step`, `detail.previous`.
 * @fires {CustomEvent<FilesUploadedDetail>} extractor-files-uploaded - Files were added to the bucket; `detail.files`.
 * @fires {CustomEvent<FileRemovedDetail>} extractor-file-removed - A file was removed from the bucket; `detail.file`.
 * @fires {CustomEvent<RunDetail>} extractor-run-started - A run was started; `detail.run`.
 * @fires {CustomEvent<RunDetail>} extractor-run-changed - The person paused, resumed or cancelled the run, or replaced a file that could not be read; `detail.run`.
 * @fires {CustomEvent<RunDetail>} extractor-run-progressed - More of the run is done; `detail.run.chunksCompleted` of `detail.run.chunksTotal`.
 * @fires {CustomEvent<RunDetail>} extractor-run-completed - The run finished with results; `detail.run`. Its status is `partially_completed` when some documents could not be read (`detail.run.documents` says which and why).
 * @fires {CustomEvent<RunDetail>} extractor-run-failed - The run failed: no document could be read; `detail.run.error` says why.
 * @fires {CustomEvent<ResultsDetail>} extractor-results-changed - Edited results were saved; `detail.run`, `detail.data`.
 * @fires {CustomEvent<ResultsDetail>} extractor-submit-requested - Cancelable, fired before submitting; call `preventDefault()` to take the submit over (nothing is submitted then). `detail.run`, `detail.data`.
 * @fires {CustomEvent<ResultsSubmittedDetail>} extractor-results-submitted - The results were submitted; `detail.run`, `detail.submission` (with the extractor's `redirectUrl`).
 *
 * @slot - Shown under the current step, on every step: a note, a link to a privacy policy.
 *
 * @csspart base - The app's wrapper.
 * @csspart steps - The step indicator above the views.
 * @csspart view - The current view element.
 * @csspart status - The loading and error panels.
 * @csspart session-notice - On the full page: the session ends soon (with Continue working), or has ended.
 * @csspart continue-session-button - Renews the session on the full page, so the person goes on.
 * @csspart button - Every button, the app's and the views'.
 * @csspart view-base - The current view's wrapper.
 * @csspart header - A view's heading and description.
 * @csspart heading - A view's heading; focus moves here when the step shows.
 * @csspart description - The text under a view's heading.
 * @csspart actions - A view's row of buttons.
 * @csspart error - A message about something that went wrong.
 * @csspart next-button - The introduction's button that goes on to the upload.
 * @csspart back-button - Back to the previous step.
 * @csspart continue-button - On to the current run, or to the results of a done run.
 * @csspart begin-button - Starts a run over the uploaded files.
 * @csspart drop-zone - The area files are dropped on.
 * @csspart choose-button - The button that opens the file picker.
 * @csspart file-list - The list of uploaded files.
 * @csspart file - One file in the list.
 * @csspart remove-button - Removes a file.
 * @csspart retry-button - Retries a failed upload.
 * @csspart dismiss-button - Dismisses a failed upload.
 * @csspart progress - A progress bar: a file's upload, the run's or a document's progress, a replacement file's sending.
 * @csspart run-status - The panel with the run's status, progress and time.
 * @csspart partial-results - The values found so far, while the run works (a run of one document).
 * @csspart documents - The run's documents, with their heading, in the extraction view.
 * @csspart document-list - The list of the run's documents.
 * @csspart document - One document in that list: its name, state, progress and any error.
 * @csspart outcome - How many documents were read, when some could not be.
 * @csspart replace-button - Replaces the file of a document that could not be read.
 * @csspart start-button - Starts a run.
 * @csspart pause-button - Pauses the run.
 * @csspart resume-button - Continues a paused run.
 * @csspart cancel-button - Cancels the run.
 * @csspart restart-button - Starts a new run over the same files.
 * @csspart restart-warning - Asks before starting over would leave a person's edits behind.
 * @csspart keep-edits-button - Goes back to the edits instead of starting over.
 * @csspart toolbar - The results' save status and downloads.
 * @csspart downloads - The download buttons.
 * @csspart download-button - One download button (JSON, XML, CSV).
 * @csspart document-switcher - The results' document tabs with Previous and Next (several documents).
 * @csspart document-tabs - The row of tabs, one per document.
 * @csspart document-tab - One document's tab: its name and state.
 * @csspart previous-document-button - Shows the previous document.
 * @csspart next-document-button - Shows the next document.
 * @csspart document-panel - The chosen document: its editor, or why it could not be read.
 * @csspart form - The results editor.
 * @csspart field - One labelled field of the results.
 * @csspart field-error - The message under a value the schema does not accept.
 * @csspart field-state - A value's state beside the document: found, not found, edited by you, needs review.
 * @csspart show-source-button - Shows where a value was found in the document.
 * @csspart review-count - How many values need review, above the fields.
 * @csspart review-toggle-button - Fields or Document, on a narrow screen.
 * @csspart group - A nested object or a list in the results.
 * @csspart list-item - One item of a list of objects shown as cards.
 * @csspart value-list - A list of plain values.
 * @csspart add-item-button - Adds an item to a list.
 * @csspart remove-item-button - Removes an item from a list.
 * @csspart table - The table of a list of flat objects.
 * @csspart filter-button - Shows only the rows of a table that need attention, or all again.
 * @csspart table-scroller - The scrolling box around a table.
 * @csspart add-row-button - Adds a row to a table.
 * @csspart remove-row-button - Removes a row from a table.
 * @csspart submit-button - Submits the results.
 * @csspart nothing-found - Says that nothing was found in a document, with the ways on.
 * @csspart upload-another-button - Goes back to the files to upload another one.
 * @csspart enter-by-hand-button - Moves to the first field, to type the values by hand.
 * @csspart empty-warning - Asks before a record with nothing in it is submitted.
 *
 * @cssprop [--extractor-color-accent=light-dark(#2b59c3, #8fb1ff)] - The accent: primary buttons, progress bars, the current step.
 * @cssprop [--extractor-color-on-accent=light-dark(#ffffff, #0c1424)] - Text on the accent colour.
 * @cssprop [--extractor-color-text=light-dark(#1b2230, #e6e9ef)] - The text colour.
 * @cssprop [--extractor-color-text-muted=light-dark(#566074, #a9b1bf)] - Secondary text: descriptions, the step count.
 * @cssprop [--extractor-color-background=transparent] - Behind the app.
 * @cssprop [--extractor-color-surface=light-dark(#ffffff, #1a1f28)] - Buttons, inputs, tables, panels.
 * @cssprop [--extractor-color-surface-subtle=light-dark(#f3f5f9, #232935)] - Quiet fills: the drop zone, table headers, messages.
 * @cssprop [--extractor-color-border=light-dark(#d3d9e2, #3b4352)] - Borders.
 * @cssprop [--extractor-color-danger=light-dark(#b3261e, #ff9d94)] - Errors.
 * @cssprop [--extractor-color-success=light-dark(#1d7a44, #72d49d)] - Done and uploaded marks.
 * @cssprop [--extractor-color-focus=var(--extractor-color-accent)] - The focus ring.
 * @cssprop [--extractor-radius=0.5rem] - Corner radius of the controls: buttons, inputs, choices.
 * @cssprop [--extractor-radius-container=min(var(--extractor-radius, 0.5rem), 1rem)] - Corner radius of the containers: panels, tables, cards, the drop zone. It follows the controls' radius up to 1rem, so pill-shaped buttons do not make ellipses of them.
 * @cssprop [--extractor-font-family=inherit] - The font; unset, the element takes the page's.
 * @cssprop [--extractor-spacing=1rem] - The base unit of the space between things.
 */
export class ExtractorApp extends LitElement {
  static override styles = [tokenStyles, controlStyles, appStyles];

  /** Follows the run; loaded with the first run there is (the introduction needs none). */
  #watcher: RunWatcherController | undefined;
  readonly #loader = new Task(this, {
    args: () => [this.baseUrl, this.session] as const,
    task: ([baseUrl, session], { signal }) => loadFlow(baseUrl, session, signal),
    onComplete: (flow) => void this.#begin(flow),
  });
  #sessionId = '';
  #session: CurrentSession | undefined;
  #expiryWarning: ReturnType<typeof setTimeout> | undefined;
  #expiryEnd: ReturnType<typeof setTimeout> | undefined;
  #expiresAt: string | undefined;
  #renewableUntil: string | undefined;
  #bucketRefresh: AbortController | undefined;
  /** The theme's tokens as set on the host, by `--extractor-*` name. */
  #theme: Record<string, string> = {};
  /** Text tokens set over the theme's to keep text readable (contrast.ts). */
  #contrastFixes: Record<string, string> = {};
  #contrastChecked = false;
  /** The contrast check under way, if any. */
  #readable: Promise<void> = Promise.resolve();
  readonly #internals = this.attachInternals?.();
  #systemScheme: MediaQueryList | undefined;
  readonly #handleSystemScheme = () => this.#recheckContrast();
  /** The page's own colours around the element (host-colors.ts). */
  #hostColors: MutationObserver | undefined;

  @provide({ context: clientContext })
  @state()
  private client: ExtractorClient | undefined;

  @provide({ context: extractorContext })
  @state()
  private extractor: Extractor | undefined;

  @provide({ context: labelsContext })
  @state()
  private labels: Labels = { ...labelDefaults };

  @provide({ context: bucketContext })
  @state()
  private bucket: Bucket | undefined;

  @provide({ context: runContext })
  @state()
  private run: Run | undefined;

  @state() private currentStep: Step | undefined;
  /** The session's colour scheme; the element's attribute comes first. */
  @state() private sessionScheme: ColorScheme | undefined;
  @state() private viewError: string | undefined;
  /** On the full page: the session ends soon (it can be renewed or not), or it has ended. */
  @state() private sessionNotice: SessionNotice | undefined;
  /** The notice's module, loaded when a notice is first due. */
  #renderNotice: typeof renderSessionNotice | undefined;
  @state() private renewing = false;

  /** The service's address; the page's own origin when empty. */
  @property({ attribute: 'base-url' }) baseUrl = '';

  /** An embed session token (`xses_…`). */
  @property() session = '';

  /**
   * `element` on a partner's page (events only), `page` on the hosted full page (a submit
   * goes on to the extractor's redirectUrl), `frame` in the hosted iframe page.
   */
  @property({ reflect: true }) mode: AppMode = 'element';

  /** The level of the views' headings; the hosted pages use 1. */
  @property({ type: Number, attribute: 'heading-level' }) headingLevel = 2;

  /**
   * `light`, `dark`, or `auto` (the person's system setting). Unset, it is `light`: the
   * host page knows its colours, the person's system does not.
   */
  @property({ attribute: 'color-scheme' }) colorScheme: ColorScheme | undefined;

  /**
   * The language of the built-in texts, a BCP 47 tag (`de`, `pt-BR`, `ar`). Unset, it is the
   * session's, then the browser's; English where none of those is supported.
   */
  @property({ reflect: true }) locale: string | undefined;

  /**
   * Your texts for built-in ones, by message id (docs/partners/localisation.md): over the
   * session's `strings`, under the extractor's labels. `{0}`, `{1}` stand for the message's
   * values.
   */
  @property({ attribute: false }) strings: MessageOverrides | undefined;

  constructor() {
    super();
    updateWhenLocaleChanges(this);
    this.addEventListener(
      'extractor-step-requested',
      (event) => void this.goToStep(event.detail.step),
    );
    this.addEventListener('extractor-files-uploaded', () => void this.#refreshBucket());
    this.addEventListener('extractor-file-removed', () => void this.#refreshBucket());
    this.addEventListener('extractor-run-started', (event) => this.#handleRunStarted(event));
    this.addEventListener('extractor-run-changed', (event) => {
      void this.#followRun(event.detail.run);
      // A replaced file changed the bucket's files too.
      void this.#refreshBucket();
    });
    this.addEventListener('extractor-results-changed', (event) => {
      void this.#followRun(event.detail.run);
    });
    this.addEventListener('extractor-results-submitted', (event) => this.#handleSubmitted(event));
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Moved in the page: the warning that disconnecting stopped is due again.
    if (this.#expiresAt) this.#warnBeforeExpiry(this.#expiresAt);
    // In `auto` the colours change with the system's setting, and are checked again.
    this.#systemScheme = matchMedia('(prefers-color-scheme: dark)');
    this.#systemScheme.addEventListener('change', this.#handleSystemScheme);
    this.#hostColors?.disconnect();
    this.#hostColors = watchHostColors(this, () => this.#recheckContrast());
    this.#recheckContrast();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#expiryWarning);
    clearTimeout(this.#expiryEnd);
    this.#systemScheme?.removeEventListener('change', this.#handleSystemScheme);
    this.#hostColors?.disconnect();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!this.hasUpdated || changed.has('locale') || changed.has('strings')) void this.#speak();
    if (!changed.has('colorScheme') && !changed.has('sessionScheme' as keyof ExtractorApp)) return;
    // The scheme shows as a custom state, `:host(:state(dark))` in app.styles.ts: the
    // host page's own choice (the attribute) first, then the session's.
    const scheme = this.resolvedColorScheme;
    for (const name of colorSchemes) {
      try {
        if (name === scheme) this.#internals?.states.add(name);
        else this.#internals?.states.delete(name);
      } catch {
        // A browser without custom states keeps the light default.
      }
    }
    this.#contrastChecked = false;
  }

  protected override updated(): void {
    if (!this.#contrastChecked) this.#readable = this.#keepTextReadable();
  }

  /**
   * Also waits for the text colours to be checked against the theme and scheme (loaded
   * apart, after the first render), so that whoever awaits `updateComplete` sees the colours
   * people will read.
   */
  protected override async getUpdateComplete(): Promise<boolean> {
    const result = await super.getUpdateComplete();
    await this.#readable;
    return result;
  }

  /** The scheme drawn: the attribute's, else the session's, else light. */
  get resolvedColorScheme(): ColorScheme {
    return resolveColorScheme(this.colorScheme, this.sessionScheme);
  }

  /** The step on screen, once loaded. */
  get step(): Step | undefined {
    return this.currentStep;
  }

  /** Goes to a step, if the state allows it, and moves focus to its heading. */
  async goToStep(step: Step): Promise<void> {
    const previous = this.currentStep;
    if (!previous || step === previous) return;
    if (!canShowStep(step, { fileCount: filesOfBucket(this.bucket).length, run: this.run })) return;
    try {
      await loadStepView(step);
    } catch {
      this.viewError = viewLoadError();
      return;
    }
    this.viewError = undefined;
    this.currentStep = step;
    this.#rememberStep(step);
    await this.updateComplete;
    this.renderRoot
      .querySelector<HTMLElement & { focusHeading?: () => void }>('[part~="view"]')
      ?.focusHeading?.();
    fire(this, 'extractor-step-changed', { step, previous });
  }

  /**
   * Applies a theme: `--extractor-*` tokens (names without the prefix) and CSS values.
   * Where its colours would leave text below 4.5:1 against its background, the text
   * colour is darkened or lightened just enough (contrast.ts).
   */
  setTheme(theme: Theme | null): void {
    for (const name of Object.keys({ ...this.#theme, ...this.#contrastFixes }))
      this.style.removeProperty(name);
    this.#theme = {};
    this.#contrastFixes = {};
    for (const [token, value] of Object.entries(theme ?? {})) {
      const name = `--extractor-${token}`;
      this.style.setProperty(name, value);
      this.#theme[name] = value;
    }
    this.#recheckContrast();
  }

  /**
   * Sets the interface's language: the element's `locale`, the session's, the browser's,
   * English; `lang` and `dir` follow on the host, and on the hosted pages' <html>.
   */
  async #speak(): Promise<void> {
    const choice = matchLocale([this.locale, this.#session?.locale, ...browserLanguages()]);
    const overrides = { ...this.#session?.strings, ...this.strings };
    this.lang = choice.tag;
    this.dir = directionOf(choice.tag);
    if (this.mode !== 'element') {
      document.documentElement.lang = this.lang;
      document.documentElement.dir = this.dir;
    }
    try {
      await applyLocale(choice, overrides);
    } catch {
      // The catalogue could not be fetched (offline for a moment): English stays.
    }
    // The labels the extractor leaves empty are the catalogue's, in the new language.
    this.labels = localizedLabels(this.extractor ?? {});
  }

  #recheckContrast(): void {
    this.#contrastChecked = false;
    this.requestUpdate();
  }

  async #keepTextReadable(): Promise<void> {
    this.#contrastChecked = true;
    // Loaded apart: the introduction needs none of it to show (the hosted page's budget).
    const { contrastFixes } = await import('./contrast.js');
    if (!this.isConnected) return;
    // Measured without the fixes of last time, which the scheme or theme may have outdated.
    for (const name of Object.keys(this.#contrastFixes)) {
      const themed = this.#theme[name];
      if (themed === undefined) this.style.removeProperty(name);
      else this.style.setProperty(name, themed);
    }
    this.#contrastFixes = contrastFixes(this, this.renderRoot);
    for (const [name, value] of Object.entries(this.#contrastFixes))
      this.style.setProperty(name, value);
  }

  async #begin(flow: LoadedFlow): Promise<void> {
    // A fresh token for the same bucket (the iFrame's refresh-session) keeps the person
    // where they are; its session id is new, so the remembered step would be lost.
    const refreshed = this.currentStep !== undefined && this.bucket?.id === flow.bucket.id;
    const hint = refreshed ? this.currentStep : this.#recalledStep(flow.session.id);
    this.client = flow.client;
    this.extractor = flow.extractor;
    this.labels = localizedLabels(flow.extractor);
    this.bucket = flow.bucket;
    this.#sessionId = flow.session.id;
    this.#session = flow.session;
    await this.#speak();
    if (refreshed && this.currentStep) this.#rememberStep(this.currentStep);
    this.sessionScheme = flow.session.colorScheme;
    this.setTheme(flow.session.theme);
    this.#renewableUntil = flow.session.renewableUntil;
    this.sessionNotice = undefined;
    this.#warnBeforeExpiry(flow.session.expiresAt);
    if (!flow.run) this.run = undefined;
    const step = resumeStep({ fileCount: filesOfBucket(flow.bucket).length, run: flow.run }, hint);
    try {
      if (flow.run) await this.#watch(flow.client, flow.run);
      await loadStepView(step);
      this.currentStep = step;
    } catch {
      this.currentStep = 'introduction';
    }
    await this.updateComplete;
    fire(this, 'extractor-session-loaded', {
      extractor: flow.extractor,
      labels: this.labels,
      bucket: flow.bucket,
      run: this.run,
      step: this.currentStep,
      colorScheme: this.resolvedColorScheme,
    });
    // Loaded once the first view shows, so it is there before a run starts.
    this.#watcherReady().catch(() => undefined);
  }

  #warnBeforeExpiry(expiresAt: string): void {
    this.#expiresAt = expiresAt;
    clearTimeout(this.#expiryWarning);
    clearTimeout(this.#expiryEnd);
    const ends = Date.parse(expiresAt);
    this.#expiryEnd = setTimeout(
      () => this.#handleSessionEnded(expiresAt),
      Math.max(0, ends - Date.now()),
    );
    if (this.mode !== 'page') {
      // Embedded, the host page mints a fresh session: it is asked in time.
      const delay = Math.max(0, ends - sessionExpiryWarningMs - Date.now());
      this.#expiryWarning = setTimeout(
        () => fire(this, 'extractor-session-refresh-requested', { expiresAt }),
        delay,
      );
      return;
    }
    // On the full page the person is warned with time to read and act, and may go on as
    // long as the session's maximum lifetime allows. Edits are saved as drafts all along,
    // so nothing is lost either way.
    const renewable = Date.parse(this.#renewableUntil ?? expiresAt) - ends > 60_000;
    this.#expiryWarning = setTimeout(
      () => void this.#showNotice(renewable ? 'expiring' : 'final'),
      Math.max(0, ends - pageExpiryWarningMs - Date.now()),
    );
  }

  /** Tells the host; on the full page, the person too (embedded, the host mints anew). */
  #handleSessionEnded(expiresAt: string): void {
    fire(this, 'extractor-session-expired', { expiresAt });
    if (this.mode === 'page') void this.#showNotice('ended');
  }

  async #showNotice(notice: SessionNotice): Promise<void> {
    // The notice's words are the later views' (src/locales/later/).
    const [{ renderSessionNotice }] = await Promise.all([
      import('./session-notice.js'),
      loadLaterTexts(),
    ]);
    this.#renderNotice = renderSessionNotice;
    // The end outranks a warning whose words came later (a laptop woken past both).
    if (this.sessionNotice === 'ended' && notice !== 'ended') return;
    this.sessionNotice = notice;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('[part~="session-notice"]')?.focus();
  }

  /** Continue working: a new token for the same session; the page goes on where it is. */
  async #renew(): Promise<void> {
    const { client } = this;
    if (!client || this.renewing) return;
    this.renewing = true;
    try {
      const renewed = await client.renewSession();
      this.session = renewed.token;
    } catch (error) {
      this.viewError = describeError(error);
      this.sessionNotice = undefined;
    } finally {
      this.renewing = false;
    }
  }

  #handleRunChange(run: Run, previous: Run | undefined): void {
    this.run = run;
    if (!previous || previous.id !== run.id) return;
    if (
      run.status !== previous.status &&
      (run.status === 'completed' || run.status === 'partially_completed')
    )
      fire(this, 'extractor-run-completed', { run });
    else if (run.status !== previous.status && run.status === 'failed')
      fire(this, 'extractor-run-failed', { run });
    else if (run.chunksCompleted !== previous.chunksCompleted)
      fire(this, 'extractor-run-progressed', { run });
  }

  #handleRunStarted(event: ExtractorEventMap['extractor-run-started']): void {
    void this.#refreshBucket();
    // The extraction step shows once the run is followed (this.run is what allows it).
    void this.#followRun(event.detail.run).then(() => this.goToStep('extraction'));
  }

  async #followRun(run: Run): Promise<void> {
    if (!this.client) return;
    try {
      await this.#watch(this.client, run);
    } catch {
      this.viewError = viewLoadError();
    }
  }

  async #watcherReady(): Promise<RunWatcherController> {
    if (!this.#watcher) {
      const { RunWatcherController } = await import('../../controllers/run-watcher-controller.js');
      this.#watcher ??= new RunWatcherController(this, {
        onChange: (run, previous) => this.#handleRunChange(run, previous),
      });
    }
    return this.#watcher;
  }

  async #watch(client: ExtractorClient, run: Run): Promise<void> {
    (await this.#watcherReady()).watch(client, run);
  }

  #handleSubmitted(event: ExtractorEventMap['extractor-results-submitted']): void {
    void this.#followRun(event.detail.run);
    const target = event.detail.submission.redirectUrl;
    // On the full page the extractor's redirect comes next; embedded, the host decides.
    if (this.mode === 'page' && target && /^https?:\/\//i.test(target))
      window.location.assign(target);
  }

  async #refreshBucket(): Promise<void> {
    const { client, bucket } = this;
    if (!client || !bucket) return;
    this.#bucketRefresh?.abort();
    const controller = new AbortController();
    this.#bucketRefresh = controller;
    try {
      this.bucket = await client.getBucket(bucket.id, controller.signal);
    } catch {
      // The views show the files they know of; the next change loads them again.
    }
  }

  #recalledStep(sessionId: string): string | null {
    try {
      return sessionStorage.getItem(stepKey(sessionId));
    } catch {
      // Storage can be off, or partitioned away in a third-party frame: start from the server's state.
      return null;
    }
  }

  #rememberStep(step: Step): void {
    try {
      sessionStorage.setItem(stepKey(this.#sessionId), step);
    } catch {
      // As above: the server's state alone still gets the person close.
    }
  }

  override render() {
    return html`<div class="base" part="base">
      ${this.#loader.render({
        initial: () => this.#renderLoading(),
        // A new token for the same session (a refreshed one) reloads behind the current
        // view instead of replacing it with a spinner.
        pending: () => (this.currentStep ? this.#renderFlow() : this.#renderLoading()),
        error: (error) => this.#renderLoadError(error),
        complete: () => this.#renderFlow(),
      })}
    </div>`;
  }

  #renderLoading() {
    return html`<div class="status-panel loading" part="status" role="status">
      <span class="spinner" aria-hidden="true"></span>
      <span>${msg('Loading…', { id: 'app.loading' })}</span>
    </div>`;
  }

  #renderLoadError(error: unknown) {
    const retryable =
      !(error instanceof TokenKindError || error instanceof MissingSessionError) &&
      (!(error instanceof ApiError) || error.status === 0 || error.status >= 500);
    return html`<div class="status-panel problem" part="status" role="alert">
      <div class="status-title" role="heading" aria-level=${this.headingLevel}>
        ${msg('We could not open this page', { id: 'app.load-error-title' })}
      </div>
      <p class="status-text">${loadErrorMessage(error)}</p>
      ${
        retryable
          ? html`<button
              class="button"
              part="button"
              type="button"
              @click=${() => void this.#loader.run()}
            >
              ${msg('Try again', { id: 'app.try-again' })}
            </button>`
          : nothing
      }
    </div>`;
  }

  #renderFlow() {
    const step = this.currentStep;
    if (!step) return this.#renderLoading();
    const index = steps.indexOf(step);
    return html`
      <div class="steps" part="steps">
        <span class="step-count"
          >${msg(str`Step ${formatNumber(index + 1)} of ${formatNumber(steps.length)}`, { id: 'app.step-count' })}<span
            class="step-current"
            >: ${stepName(step)}</span
          ></span
        >
        <ol class="step-bar" aria-hidden="true">
          ${steps.map(
            (name, position) =>
              html`<li
                class="step-segment ${position <= index ? 'done' : ''} ${position === index ? 'current' : ''}"
              >
                ${stepName(name)}
              </li>`,
          )}
        </ol>
      </div>
      ${
        this.viewError
          ? html`<p class="message error" part="status" role="alert">${this.viewError}</p>`
          : nothing
      }
      ${
        this.sessionNotice && this.#renderNotice
          ? this.#renderNotice({
              notice: this.sessionNotice,
              expiresAt: this.#expiresAt ?? new Date().toISOString(),
              renewing: this.renewing,
              onContinue: () => void this.#renew(),
            })
          : nothing
      }
      ${this.#renderStep(step)}
      <slot></slot>
    `;
  }

  #renderStep(step: Step) {
    const level = this.headingLevel;
    switch (step) {
      case 'introduction':
        return html`<extractor-introduction-view
          part="view"
          exportparts=${exportedViewParts}
          heading-level=${level}
        ></extractor-introduction-view>`;
      case 'bucket':
        return html`<extractor-bucket-view
          part="view"
          exportparts=${exportedViewParts}
          heading-level=${level}
        ></extractor-bucket-view>`;
      case 'extraction':
        return html`<extractor-extraction-view
          part="view"
          exportparts=${exportedViewParts}
          heading-level=${level}
        ></extractor-extraction-view>`;
      case 'results':
        return html`<extractor-results-view
          part="view"
          exportparts=${exportedViewParts}
          heading-level=${level}
        ></extractor-results-view>`;
    }
  }
}

/** A step's short name, for the step bar. */
function stepName(step: Step): string {
  switch (step) {
    case 'introduction':
      return msg('Start', { id: 'app.step-introduction' });
    case 'bucket':
      return msg('Upload', { id: 'app.step-bucket' });
    case 'extraction':
      return msg('Extraction', { id: 'app.step-extraction' });
    case 'results':
      return msg('Review', { id: 'app.step-results' });
  }
}

/** How long before its token expires the full page warns the person. */
const pageExpiryWarningMs = 2 * 60_000;

function stepKey(sessionId: string): string {
  return `extractor:step:${sessionId}`;
}

declare global {
  interface HTMLElementTagNameMap {
    'extractor-app': ExtractorApp;
  }
}
