/**
 * The person's work on each document of a run: one record editor per document read, its
 * edits, and their saving through `PUT /api/extraction_runs/{id}/documents/{fileId}/results`
 * a short pause after typing stops. Every edit is saved as the person's draft, valid or
 * not (the service keeps drafts the schema does not accept yet): a value half typed, or a
 * machine's record that starts invalid, must not stop the rest of the work from being kept
 * across a reload. Validity is shown and blocks only Submit. A document keeps its editor (and what was typed in it)
 * while the person looks at another one; the run changing elsewhere reloads only the
 * documents with nothing waiting to be saved. Saves go out one after the other, so an older
 * one never lands after a newer.
 */
import { msg, str } from '@lit/localize';
import { describeError } from '../../client/api-error.js';
import type { RunDocumentState } from '../../client/run-documents.js';
import type { TargetSchema } from '../../contract/json-schema.js';
import type { Run } from '../../contract/resources.js';
import { RecordEditor, type RecordEditorHost } from '../record-editor/record-editor.js';
import type { DocumentReview } from '../record-editor/review-state.js';

export type SaveState = 'saved' | 'pending' | 'saving' | 'failed';

/** How long typing must pause before the edits are saved. */
const saveDelayMs = 700;

export class DocumentDraft {
  readonly editor: RecordEditor;
  /** The document as last seen in the run. */
  document: RunDocumentState;
  saveState: SaveState = 'saved';
  /** Why the last save failed, in plain words. */
  saveError: string | undefined;
  /** Edits made, and the last of them the service holds. */
  revision = 0;
  savedRevision = 0;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** What the review beside the document says of its values. */
  readonly review: DocumentReview | undefined;

  constructor(editor: RecordEditor, document: RunDocumentState, review?: DocumentReview) {
    this.editor = editor;
    this.document = document;
    this.review = review;
  }

  /** Something typed is not saved yet, or on its way. */
  get unsaved(): boolean {
    return this.revision !== this.savedRevision || this.saveState === 'saving';
  }
}

export interface DocumentDraftsOptions {
  /** Whether values may be changed right now. */
  readOnly: () => boolean;
  /** Sends a document's record; resolves with the run as the service now holds it. */
  save: (document: RunDocumentState, record: unknown) => Promise<Run>;
  /** A document's edits were saved. */
  onSaved: (run: Run, draft: DocumentDraft) => void;
  /** Something about a draft changed that the view shows (its save state). */
  onChange: () => void;
  /** The review of a document read: its sources, the machine's doubts, the checks. */
  review?: (document: RunDocumentState) => DocumentReview;
  /** Shows a value's source in the document. */
  showSource?: (pointer: string) => void;
}

export class DocumentDrafts {
  readonly #host: RecordEditorHost;
  readonly #options: DocumentDraftsOptions;
  #drafts = new Map<string, DocumentDraft>();
  #saves: Promise<void> = Promise.resolve();

  constructor(host: RecordEditorHost, options: DocumentDraftsOptions) {
    this.#host = host;
    this.#options = options;
  }

  /** The draft of a document read, by its file IRI. */
  get(file: string): DocumentDraft | undefined {
    return this.#drafts.get(file);
  }

  /** Every draft, in the run's order of documents. */
  get all(): DocumentDraft[] {
    return [...this.#drafts.values()];
  }

  /**
   * Follows the run: a draft for each document read, loaded with its record as the service
   * holds it unless the person's edits of it wait to be saved.
   */
  sync(documents: readonly RunDocumentState[], schema: TargetSchema | undefined): void {
    const drafts = new Map<string, DocumentDraft>();
    for (const document of documents) {
      if (document.status !== 'completed') continue;
      let draft = this.#drafts.get(document.file);
      if (!draft) {
        const review = this.#options.review?.(document);
        const editor: RecordEditor = new RecordEditor(this.#host, {
          readOnly: this.#options.readOnly,
          onEdit: () => this.#edited(created),
          stateAt: review
            ? (pointer) => {
                review.update(editor.value);
                return review.stateAt(pointer);
              }
            : undefined,
          showSource: this.#options.showSource,
        });
        const created: DocumentDraft = new DocumentDraft(editor, document, review);
        draft = created;
        draft.editor.load(schema, document.data ?? {});
      } else if (!draft.unsaved) {
        draft.editor.load(schema, document.data ?? {});
        draft.saveError = undefined;
        draft.saveState = 'saved';
      } else if (schema && schema !== draft.editor.schema) {
        // Edits wait to be saved: they stay, checked against the schema as it is now.
        draft.editor.load(schema, draft.editor.value);
      }
      draft.document = document;
      drafts.set(document.file, draft);
    }
    // A document replaced or gone takes its draft along; its timer must not save it later.
    for (const [file, draft] of this.#drafts) if (!drafts.has(file)) clearTimeout(draft.timer);
    this.#drafts = drafts;
  }

  /** Saves what waits to be saved (of one document, or of all); true when all of it is. */
  async flush(draft?: DocumentDraft): Promise<boolean> {
    const drafts = draft ? [draft] : this.all;
    for (const each of drafts) {
      if (each.timer === undefined) continue;
      clearTimeout(each.timer);
      each.timer = undefined;
      this.#queueSave(each);
    }
    await this.#saves;
    return drafts.every((each) => each.savedRevision === each.revision);
  }

  /** Drafts whose values the schema does not accept, in the run's order. */
  get invalid(): DocumentDraft[] {
    return this.all.filter((draft) => draft.editor.violations.size > 0);
  }

  #edited(draft: DocumentDraft): void {
    draft.revision++;
    draft.saveError = undefined;
    clearTimeout(draft.timer);
    draft.saveState = 'pending';
    draft.timer = setTimeout(() => {
      draft.timer = undefined;
      this.#queueSave(draft);
    }, saveDelayMs);
    this.#options.onChange();
  }

  #queueSave(draft: DocumentDraft): void {
    this.#saves = this.#saves.then(() => this.#save(draft));
  }

  async #save(draft: DocumentDraft): Promise<void> {
    const revision = draft.revision;
    if (revision === draft.savedRevision) return;
    const record = draft.editor.value;
    draft.saveState = 'saving';
    this.#options.onChange();
    try {
      const run = await this.#options.save(draft.document, record);
      draft.savedRevision = revision;
      draft.saveState = draft.revision === revision ? 'saved' : 'pending';
      this.#options.onSaved(run, draft);
    } catch (error) {
      draft.saveState = 'failed';
      draft.saveError = msg(str`Your changes are not saved: ${describeError(error)}`, {
        id: 'results.save-failed',
      });
    }
    this.#options.onChange();
  }
}
