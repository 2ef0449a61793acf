/**
 * Puts another file in the place of a document that could not be read
 * (`POST /api/extraction_runs/{id}/documents/{fileId}/replace`), so that just that document
 * is read again. Reading the same file again would fail the same way, so this is the way
 * forward a failed document offers. The file is checked for type and size before it is
 * sent, like an upload; its progress and a refusal show beside the document. Leaving the
 * page aborts what is on its way.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { describeError, isAbortError } from '../client/api-error.js';
import type { ExtractorClient } from '../client/client.js';
import type { RunDocumentState } from '../client/run-documents.js';
import type { Run } from '../contract/resources.js';
import { checkFile } from './upload-queue-controller.js';

export interface DocumentReplacement {
  /** The replacement's name. */
  name: string;
  status: 'sending' | 'failed';
  /** Bytes sent so far, and of how many. */
  loaded: number;
  total: number;
  /** Why the file was refused or could not be sent, in plain words. */
  message: string | undefined;
}

export interface DocumentReplaceOptions {
  /**
   * Called before the file is sent (to save edits first: the run is busy once the file is
   * in); resolving false keeps the file back, with `message` saying why.
   */
  beforeReplace?: () => Promise<{ ok: boolean; message?: string }>;
  /** The service took the file: `run` is the run it answered with, reading the document again. */
  onReplaced: (run: Run, document: RunDocumentState) => void;
}

export class DocumentReplaceController implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #options: DocumentReplaceOptions;
  /** By the document's file IRI. */
  #replacements = new Map<string, DocumentReplacement>();
  #inFlight: AbortController | undefined;

  constructor(host: ReactiveControllerHost, options: DocumentReplaceOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  hostDisconnected(): void {
    this.#inFlight?.abort();
  }

  /** How the replacement of a document is going, if one was tried. */
  replacementOf(document: RunDocumentState): DocumentReplacement | undefined {
    return this.#replacements.get(document.file);
  }

  /** True while a file is on its way: one at a time, since each reopens the run. */
  get busy(): boolean {
    return this.#inFlight !== undefined;
  }

  async replace(
    client: ExtractorClient,
    run: Run,
    document: RunDocumentState,
    file: File,
  ): Promise<void> {
    if (this.busy) return;
    const refusal = checkFile(file);
    const replacement: DocumentReplacement = {
      name: file.name,
      status: refusal ? 'failed' : 'sending',
      loaded: 0,
      total: file.size,
      message: refusal,
    };
    this.#set(document, replacement);
    if (refusal) return;
    const controller = new AbortController();
    this.#inFlight = controller;
    try {
      const ready = (await this.#options.beforeReplace?.()) ?? { ok: true };
      if (!ready.ok) {
        this.#set(document, { ...replacement, status: 'failed', message: ready.message });
        return;
      }
      const updated = await client.replaceDocumentFile(run.id, document.fileId, file, {
        signal: controller.signal,
        onProgress: (loaded, total) => this.#set(document, { ...replacement, loaded, total }),
      });
      this.#replacements.delete(document.file);
      this.#host.requestUpdate();
      this.#options.onReplaced(updated, document);
    } catch (error) {
      if (isAbortError(error)) this.#replacements.delete(document.file);
      else this.#set(document, { ...replacement, status: 'failed', message: describeError(error) });
    } finally {
      this.#inFlight = undefined;
      this.#host.requestUpdate();
    }
  }

  #set(document: RunDocumentState, replacement: DocumentReplacement): void {
    this.#replacements = new Map(this.#replacements).set(document.file, replacement);
    this.#host.requestUpdate();
  }
}
