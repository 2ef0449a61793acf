import { html, LitElement, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { describeError } from '../../client/api-error.js';
import type { ExtractorClient } from '../../client/client.js';
import { getFile, getPagePicture, getPageText, getPageWords } from '../../client/pages.js';
import type { BucketFile } from '../../contract/resources.js';
import { pictureWidthFor, type PageWords, type SourceBox } from '../../contract/review.js';
import { styleProperties } from '../internal/style-properties.js';
import { controlStyles, tokenStyles } from '../styles/theme.styles.js';
import { documentPaneStyles } from './document-pane.styles.js';
import { paneText } from '../wording/review-text.js';

/** A value's place in the document, as the pane highlights it. */
export interface PaneHighlight {
  /** The value's JSON pointer in the record. */
  pointer: string;
  /** The field's name for people: "Total". */
  name: string;
  page: number;
  /** Where the value's text starts in the page's text, and the text (text documents). */
  offset: number;
  text: string;
  /** Where it is printed, on pages that are pictures. */
  boxes: readonly SourceBox[];
}

/** Words the person selected on a page, to fill the focused field with. */
export interface PickedWords {
  text: string;
  page: number;
  boxes: SourceBox[];
  offset?: number;
}

interface Word {
  text: string;
  /** Box on a picture page, in fractions of the page. */
  box?: SourceBox;
  /** Range in the page's text (text pages). */
  start?: number;
  end?: number;
}

const zoomSteps = [1, 1.25, 1.5, 2, 3] as const;

/**
 * @tagname extractor-document-pane
 * @summary The pages of one document beside its fields, with where each value was found.
 *
 * Not for use on its own: the results view puts it beside the fields and loads it only
 * when a run's results are shown. PDFs and images show as pictures of their pages, fetched
 * with the session's token in the Authorization header (an `<img>` could carry it only in
 * its address, where logs, history and Referer headers keep it); other documents as the text
 * the service read. Each value's source is a box over the page (a button: "Total: found on
 * page 1", out of the Tab order: the fields are the keyboard's way to the values, and
 * focusing one shows and announces where it was found): choosing one focuses its field
 * (`pane-source-chosen`), pointing at one marks it (`pane-source-pointed`). The page itself
 * is one Tab stop, so that the keyboard scrolls it too. While a field is being edited, a
 * click on a word or a drag over several picks their text (`pane-words-picked`).
 *
 * @csspart document-pane - The pane.
 * @csspart page-controls - Paging and zoom.
 * @csspart page - The page: its picture or its text, with the highlights over it.
 * @csspart highlight - The box of a value's source.
 */
export class ExtractorDocumentPane extends LitElement {
  static override styles = [tokenStyles, controlStyles, documentPaneStyles];

  @property({ attribute: false }) client: ExtractorClient | undefined;
  @property({ attribute: false }) bucketId = '';
  @property({ attribute: false }) fileId = '';
  @property({ attribute: false }) fileName = '';
  /** The run whose reading the text of text documents is (`?run=`). */
  @property({ attribute: false }) runId = '';
  @property({ attribute: false }) highlights: readonly PaneHighlight[] = [];
  /** The pointer of the field being edited; its highlight is the strong one. */
  @property({ attribute: false }) current: string | undefined;
  /** The name of the field words fill, when one may be filled; undefined otherwise. */
  @property({ attribute: false }) fillName: string | undefined;

  @state() private file: BucketFile | undefined;
  @state() private page = 1;
  @state() private zoom = 1;
  @state() private picture: string | undefined;
  @state() private text: string | undefined;
  @state() private words: Word[] = [];
  @state() private error: string | undefined;
  @state() private announcement = '';
  /** The words being picked: from one index to another, in either order. */
  @state() private picking: [number, number] | undefined;

  #abort: AbortController | undefined;
  #pictureWidth = 0;
  #wordsFor = '';
  #resize = new ResizeObserver(() => this.#fitPicture());

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('pointerup', this.#endPick);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('pointerup', this.#endPick);
    this.#resize.disconnect();
    this.#abort?.abort();
    if (this.picture) URL.revokeObjectURL(this.picture);
  }

  protected override firstUpdated(): void {
    const scroller = this.renderRoot.querySelector('.scroller');
    if (scroller) this.#resize.observe(scroller);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('fileId') || changed.has('bucketId')) {
      this.page = 1;
      this.zoom = 1;
      this.file = undefined;
      this.#clearPage();
      this.#fileLoaded = this.#loadFile();
    }
  }

  protected override updated(changed: PropertyValues<this>): void {
    const watched = ['fillName', 'page', 'file'] as (keyof ExtractorDocumentPane)[];
    if (watched.some((name) => changed.has(name))) void this.#loadWords();
  }

  /** Shows the page of a value's source, scrolls its highlight into sight and says where. */
  async reveal(pointer: string, name?: string): Promise<void> {
    const highlight = this.highlights.find((each) => each.pointer === pointer);
    if (!highlight) {
      if (name) this.announcement = paneText.notOnPage(name);
      return;
    }
    this.announcement = paneText.shown(highlight.name, highlight.page);
    await this.#fileLoaded;
    if (highlight.page !== this.page) this.#goTo(highlight.page);
    await this.updateComplete;
    await this.#loaded;
    await this.updateComplete;
    await this.renderRoot
      .querySelector<HTMLImageElement>('.picture')
      ?.decode()
      .catch(() => {});
    const mark = this.renderRoot.querySelector<HTMLElement>(
      `[data-pointer="${CSS.escape(pointer)}"]`,
    );
    const scroller = this.renderRoot.querySelector<HTMLElement>('.scroller');
    if (!mark || !scroller) return;
    // The pane scrolls, not the page around it: the field being edited stays where it is.
    const frame = scroller.getBoundingClientRect();
    const place = mark.getBoundingClientRect();
    scroller.scrollTop += place.top - frame.top - (frame.height - place.height) / 2;
    scroller.scrollLeft += place.left - frame.left - (frame.width - place.width) / 2;
  }

  /** Resolves when the page shown has its picture or text. */
  #loaded: Promise<void> = Promise.resolve();
  /** Resolves when the file resource (its pages) is known. */
  #fileLoaded: Promise<void> = Promise.resolve();

  async #loadFile(): Promise<void> {
    const { client, bucketId, fileId } = this;
    if (!client || !bucketId || !fileId) return;
    try {
      this.file = await getFile(client, bucketId, fileId);
      this.#loadPage();
    } catch (error) {
      this.error = describeError(error);
    }
  }

  #clearPage(): void {
    this.#abort?.abort();
    if (this.picture) URL.revokeObjectURL(this.picture);
    this.picture = undefined;
    this.text = undefined;
    this.words = [];
    this.#wordsFor = '';
    this.#pictureWidth = 0;
    this.picking = undefined;
    this.error = undefined;
  }

  #goTo(page: number): void {
    const count = this.file?.pageCount ?? 1;
    const next = Math.min(Math.max(page, 1), count);
    if (next === this.page) return;
    this.page = next;
    this.#clearPage();
    this.#loadPage();
  }

  #loadPage(): void {
    const { client, file } = this;
    if (!client || !file) return;
    this.#abort?.abort();
    const abort = new AbortController();
    this.#abort = abort;
    const page = this.page;
    this.#loaded = (async () => {
      try {
        if (file.pageKind === 'text') {
          const text = await getPageText(
            client,
            this.bucketId,
            file.id,
            page,
            this.runId,
            abort.signal,
          );
          if (abort.signal.aborted) return;
          this.text = text;
          this.words = wordsOfText(text);
          this.#wordsFor = `${file.id}/${page}`;
        } else {
          const width = this.#wantedWidth();
          this.#pictureWidth = width;
          const blob = await getPagePicture(
            client,
            this.bucketId,
            file.id,
            page,
            width,
            abort.signal,
          );
          if (abort.signal.aborted) return;
          if (this.picture) URL.revokeObjectURL(this.picture);
          this.picture = URL.createObjectURL(blob);
        }
      } catch (error) {
        if (!abort.signal.aborted) this.error = describeError(error);
      }
    })();
  }

  /**
   * The picture's width in device pixels, rounded up to one of the widths the service
   * draws (so that what is asked for is what the service and the browser keep).
   */
  #wantedWidth(): number {
    const scroller = this.renderRoot.querySelector<HTMLElement>('.scroller');
    const css = (scroller?.clientWidth || 800) * this.zoom;
    return pictureWidthFor(css * (window.devicePixelRatio || 1));
  }

  /** A sharper picture when the page grew (a wider window, a zoom); never a smaller one. */
  #fitPicture(): void {
    if (this.file?.pageKind !== 'image' || !this.picture) return;
    if (this.#wantedWidth() > this.#pictureWidth) {
      const keep = this.picture;
      this.picture = undefined;
      URL.revokeObjectURL(keep);
      this.#loadPage();
    }
  }

  async #loadWords(): Promise<void> {
    const { client, file } = this;
    if (!client || !file || file.pageKind !== 'image' || !this.fillName) return;
    const key = `${file.id}/${this.page}`;
    if (this.#wordsFor === key) return;
    this.#wordsFor = key;
    try {
      const found: PageWords = await getPageWords(client, this.bucketId, file.id, this.page);
      if (this.#wordsFor !== key) return;
      this.words = found.words.map(({ text, ...box }) => ({
        text,
        box: { page: found.page, ...box },
      }));
    } catch {
      // Without words the page is still shown; the field can be typed in.
      this.#wordsFor = '';
    }
  }

  #setZoom(zoom: number): void {
    this.zoom = zoom;
    void this.updateComplete.then(() => this.#fitPicture());
  }

  #zoomBy(step: -1 | 1): void {
    const index = zoomSteps.findIndex((each) => each >= this.zoom);
    const next = zoomSteps[Math.min(Math.max(index + step, 0), zoomSteps.length - 1)]!;
    this.#setZoom(next);
  }

  /** The pointer is over a value's highlight (or left it): its field is marked too. */
  #point(pointer: string | undefined): void {
    this.dispatchEvent(new CustomEvent('pane-source-pointed', { detail: { pointer } }));
  }

  #chooseSource(pointer: string): void {
    this.dispatchEvent(new CustomEvent('pane-source-chosen', { detail: { pointer } }));
  }

  // -- Picking words ---------------------------------------------------------------------

  #startPick(event: PointerEvent): void {
    if (!this.fillName || event.button !== 0) return;
    const index = wordIndexOf(event.target);
    if (index === undefined) return;
    event.preventDefault();
    this.picking = [index, index];
  }

  #extendPick(event: PointerEvent): void {
    if (!this.picking) return;
    const index = wordIndexOf(event.target);
    if (index !== undefined && index !== this.picking[1]) this.picking = [this.picking[0], index];
  }

  readonly #endPick = (): void => {
    const picking = this.picking;
    if (!picking) return;
    this.picking = undefined;
    const [from, to] = picking[0] <= picking[1] ? picking : [picking[1], picking[0]];
    const chosen = this.words.slice(from, to + 1);
    if (chosen.length === 0) return;
    // A click on a word of another value's source chooses that value (its click handler;
    // text pages, where the source's words are the page's words); a drag always picks.
    if (from === to && this.file?.pageKind === 'text') {
      const owner = this.#highlightOfWord(chosen[0]!);
      if (owner && owner.pointer !== this.current) return;
    }
    const picked: PickedWords =
      this.file?.pageKind === 'text'
        ? {
            text: this.text!.slice(chosen[0]!.start, chosen[chosen.length - 1]!.end).replace(
              /\s+/g,
              ' ',
            ),
            page: this.page,
            boxes: [],
            offset: chosen[0]!.start,
          }
        : {
            text: chosen.map((word) => word.text).join(' '),
            page: this.page,
            boxes: chosen.map((word) => word.box!),
          };
    if (this.fillName) this.announcement = paneText.filled(this.fillName, picked.text);
    this.dispatchEvent(new CustomEvent('pane-words-picked', { detail: picked }));
  };

  #highlightOfWord(word: Word): PaneHighlight | undefined {
    return this.highlights.find(
      (each) =>
        each.page === this.page &&
        word.start! < each.offset + each.text.length &&
        word.end! > each.offset,
    );
  }

  // -- Rendering ---------------------------------------------------------------------------

  override render() {
    const count = this.file?.pageCount ?? 1;
    return html`<section
      class="pane"
      part="document-pane"
      aria-label=${paneText.label(this.fileName)}
    >
      <div class="page-controls" part="page-controls">
        <div class="paging" role="group" aria-label=${paneText.pages}>
          <button
            class="button small"
            type="button"
            aria-label=${paneText.previousPage}
            aria-disabled=${this.page <= 1 ? 'true' : 'false'}
            @click=${() => this.#goTo(this.page - 1)}
          >
            <span aria-hidden="true">‹</span>
          </button>
          <span class="page-number" aria-live="polite">${paneText.page(this.page, count)}</span>
          <button
            class="button small"
            type="button"
            aria-label=${paneText.nextPage}
            aria-disabled=${this.page >= count ? 'true' : 'false'}
            @click=${() => this.#goTo(this.page + 1)}
          >
            <span aria-hidden="true">›</span>
          </button>
        </div>
        ${
          this.file?.pageKind === 'image'
            ? html`<div class="zoom" role="group" aria-label=${paneText.zoomGroup}>
                <button
                  class="button small"
                  type="button"
                  aria-label=${paneText.zoomOut}
                  aria-disabled=${this.zoom <= zoomSteps[0] ? 'true' : 'false'}
                  @click=${() => this.#zoomBy(-1)}
                >
                  <span aria-hidden="true">−</span>
                </button>
                <span class="zoom-level">${paneText.zoom(Math.round(this.zoom * 100))}</span>
                <button
                  class="button small"
                  type="button"
                  aria-label=${paneText.zoomIn}
                  aria-disabled=${this.zoom >= zoomSteps[zoomSteps.length - 1]! ? 'true' : 'false'}
                  @click=${() => this.#zoomBy(1)}
                >
                  <span aria-hidden="true">+</span>
                </button>
                <button
                  class="button small"
                  type="button"
                  aria-pressed=${this.zoom === 1 ? 'true' : 'false'}
                  @click=${() => this.#setZoom(1)}
                >
                  ${paneText.fitWidth}
                </button>
              </div>`
            : nothing
        }
      </div>
      ${
        // Only once there are words to pick: an image page's words come after the field is focused.
        this.fillName && this.words.length > 0
          ? html`<p class="fill-hint">${paneText.fillHint(this.fillName)}</p>`
          : nothing
      }
      <div
        class="scroller"
        role="region"
        aria-label=${paneText.pageAlt(this.page, this.fileName)}
        tabindex="0"
      >
        ${
          this.error
            ? html`<p class="message error" role="alert">${this.error}</p>`
            : this.file?.pageKind === 'text'
              ? this.#renderText()
              : this.#renderPicture()
        }
      </div>
      <p class="visually-hidden" role="status">${this.announcement}</p>
    </section>`;
  }

  #renderPicture() {
    const highlights = this.highlights.filter((each) =>
      each.boxes.some((box) => box.page === this.page),
    );
    return html`<div
      class="sheet ${this.picking ? 'picking' : ''} ${this.fillName ? 'fillable' : ''}"
      part="page"
      ${styleProperties({ width: `${this.zoom * 100}%` })}
      @pointerdown=${this.#startPick}
      @pointerover=${this.#extendPick}
    >
      ${
        this.picture
          ? html`<img
              class="picture"
              src=${this.picture}
              alt=${paneText.pageAlt(this.page, this.fileName)}
              draggable="false"
            />`
          : html`<div class="placeholder" role="status">${paneText.loading}</div>`
      }
      ${this.picture && this.fillName ? this.#renderWordBoxes() : nothing}
      ${this.picture ? highlights.map((highlight) => this.#renderHighlight(highlight)) : nothing}
    </div>`;
  }

  #renderWordBoxes() {
    const [from, to] = this.#pickRange();
    return this.words.map(
      (word, index) =>
        html`<span
          class="word ${index >= from && index <= to ? 'picked' : ''}"
          data-word=${index}
          aria-hidden="true"
          ${styleProperties(boxStyle(word.box!))}
        ></span>`,
    );
  }

  #renderHighlight(highlight: PaneHighlight) {
    const boxes = highlight.boxes.filter((box) => box.page === this.page);
    const current = highlight.pointer === this.current;
    return boxes.map(
      (box, index) =>
        html`<button
          class="highlight ${current ? 'current' : ''}"
          part="highlight"
          type="button"
          data-pointer=${index === 0 ? highlight.pointer : nothing}
          tabindex="-1"
          aria-hidden=${index === 0 ? nothing : 'true'}
          aria-label=${paneText.box(highlight.name, highlight.page)}
          aria-current=${current && index === 0 ? 'true' : nothing}
          title=${highlight.name}
          ${styleProperties(boxStyle(box))}
          @click=${() => this.#chooseSource(highlight.pointer)}
          @pointerenter=${() => this.#point(highlight.pointer)}
          @pointerleave=${() => this.#point(undefined)}
        ></button>`,
    );
  }

  #renderText() {
    if (this.text === undefined)
      return html`<div class="placeholder" role="status">${paneText.loading}</div>`;
    const text = this.text;
    const [from, to] = this.#pickRange();
    const parts: unknown[] = [];
    let at = 0;
    const onPage = this.highlights.filter((each) => each.page === this.page);
    let previous: PaneHighlight | undefined;
    this.words.forEach((word, index) => {
      if (word.start! > at) parts.push(text.slice(at, word.start));
      const owner = onPage.find(
        (each) => word.start! < each.offset + each.text.length && word.end! > each.offset,
      );
      const classes = [
        'word',
        owner ? 'source' : '',
        owner && owner.pointer === this.current ? 'current' : '',
        index >= from && index <= to ? 'picked' : '',
      ].join(' ');
      // The first word of a source carries its name for a screen reader.
      parts.push(
        owner && owner !== previous
          ? html`<mark
              class=${classes}
              data-word=${index}
              data-pointer=${owner.pointer}
              role="button"
              tabindex="-1"
              aria-label=${paneText.box(owner.name, owner.page)}
              @keydown=${(event: KeyboardEvent) => this.#sourceKey(event, owner.pointer)}
              @click=${() => this.#chooseSource(owner.pointer)}
              >${word.text}</mark
            >`
          : owner
            ? html`<mark
                class=${classes}
                data-word=${index}
                @click=${() => this.#chooseSource(owner.pointer)}
                >${word.text}</mark
              >`
            : html`<span class=${classes} data-word=${index}>${word.text}</span>`,
      );
      previous = owner;
      at = word.end!;
    });
    parts.push(text.slice(at));
    return html`<pre
      class="text-page ${this.picking ? 'picking' : ''} ${this.fillName ? 'fillable' : ''}"
      part="page"
      @pointerdown=${this.#startPick}
      @pointerover=${this.#extendPick}
    >
${parts}</pre>`;
  }

  #sourceKey(event: KeyboardEvent, pointer: string): void {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    this.#chooseSource(pointer);
  }

  #pickRange(): [number, number] {
    if (!this.picking) return [-1, -2];
    const [a, b] = this.picking;
    return a <= b ? [a, b] : [b, a];
  }
}

/** The words of a page's text, with where each is in it. */
function wordsOfText(text: string): Word[] {
  const words: Word[] = [];
  for (const match of text.matchAll(/\S+/g))
    words.push({ text: match[0], start: match.index, end: match.index + match[0].length });
  return words;
}

function wordIndexOf(target: EventTarget | null): number | undefined {
  const element = (target as Element | null)?.closest?.('[data-word]');
  const index = element ? Number(element.getAttribute('data-word')) : Number.NaN;
  return Number.isInteger(index) ? index : undefined;
}

function boxStyle(box: SourceBox): Record<string, string> {
  return {
    left: `${box.x * 100}%`,
    top: `${box.y * 100}%`,
    width: `${box.width * 100}%`,
    height: `${box.height * 100}%`,
  };
}

declare global {
  interface HTMLElementTagNameMap {
    'extractor-document-pane': ExtractorDocumentPane;
  }
}
