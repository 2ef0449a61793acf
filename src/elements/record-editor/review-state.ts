/**
 * What a person reviewing one document should know of each value: where the machine found
 * it (its source on the page), whether it was not found, whether the person edited it (and
 * from where on the page), and whether it needs review: the machine was not sure of it, or
 * one of the extractor's checks fails on it. The checks are evaluated here on the record as
 * it stands, with the service's own module (src/contract/checks.ts), so an edit that makes
 * the amounts add up clears the mark at once and one that breaks them sets it.
 */
import { evaluateChecks, type Check } from '../../contract/checks.js';
import type { TargetSchema } from '../../contract/json-schema.js';
import type { Extractor, Run } from '../../contract/resources.js';
import {
  resultMetadataSchema,
  type DocumentMetadata,
  type SourceBox,
} from '../../contract/review.js';
import { deepEqual } from '../../contract/schema-validation.js';
import { parseResults } from '../../client/run-documents.js';
import { formattingLocale } from '../../locales/localization.js';
import { checkWording } from '../wording/check-wording.js';
import { fieldStateText } from '../wording/review-text.js';
import { valueAtPointer } from '../internal/values.js';

export type Source = DocumentMetadata['sources'][string];

/** Where a person took a value from on the page ("fill from the document"). */
export interface PickedSource {
  page: number;
  text: string;
  boxes: SourceBox[];
  /** Where the text starts in the page's text (text documents). */
  offset?: number;
}

export type FieldState =
  | { kind: 'found'; source: Source }
  | { kind: 'not-found' }
  | { kind: 'edited'; picked: PickedSource | undefined }
  | { kind: 'review'; messages: string[]; source: Source | undefined }
  | { kind: 'none' };

/**
 * The checks an extractor defines. The service checked them when the extractor was saved,
 * so they are taken as they come: reading them with `checksSchema` here would carry its
 * parser into the interface's first view (the resources it reads share its module). A check
 * that cannot be evaluated all the same is left to the service (`DocumentReview.update`).
 */
export function checksOf(extractor: Extractor | undefined): Check[] {
  return (extractor?.checks ?? []) as Check[];
}

/** Each document's metadata by file IRI, from the run's `resultMetadata` text. */
export function metadataOfRun(run: Run | undefined): Map<string, DocumentMetadata> {
  const found = new Map<string, DocumentMetadata>();
  if (!run?.resultMetadata) return found;
  try {
    const parsed = resultMetadataSchema.safeParse(JSON.parse(run.resultMetadata));
    if (parsed.success) for (const entry of parsed.data.documents) found.set(entry.file, entry);
  } catch {
    // Metadata that does not read shows the values without their sources.
  }
  return found;
}

/** The machine's record of each document by file IRI (before any person's edit). */
export function machineRecordsOfRun(run: Run | undefined): Map<string, unknown> {
  return new Map(parseResults(run?.resultJson).map((document) => [document.file, document.data]));
}

/** The review of one document's record: its fields' states, and what needs review. */
export class DocumentReview {
  readonly #metadata: DocumentMetadata | undefined;
  readonly #machine: unknown;
  readonly #checks: readonly Check[];
  readonly #schema: TargetSchema | undefined;
  /** Values the machine was not sure of: `review` less those a failed check named. */
  readonly #unsure = new Set<string>();
  readonly #picked = new Map<string, PickedSource>();
  #record: unknown;
  /** The locale the failures were worded in: another words them again. */
  #locale = '';
  #failures = new Map<string, string[]>();

  constructor(options: {
    metadata: DocumentMetadata | undefined;
    machine: unknown;
    checks: readonly Check[];
    schema: TargetSchema | undefined;
  }) {
    this.#metadata = options.metadata;
    this.#machine = options.machine;
    this.#checks = options.checks;
    this.#schema = options.schema;
    const checked = new Set(options.metadata?.checks?.flatMap((failure) => failure.pointers));
    for (const pointer of options.metadata?.review ?? [])
      if (!checked.has(pointer)) this.#unsure.add(pointer);
  }

  get sources(): Readonly<Record<string, Source>> {
    return this.#metadata?.sources ?? {};
  }

  /**
   * Evaluates the checks on the record as it stands now, in the person's language; cheap
   * when neither has changed.
   */
  update(record: unknown): void {
    const locale = formattingLocale();
    if (record === this.#record && locale === this.#locale) return;
    this.#record = record;
    this.#locale = locale;
    const failures = new Map<string, string[]>();
    let failed: ReturnType<typeof evaluateChecks> = [];
    try {
      failed = evaluateChecks(this.#checks, record, this.#schema, checkWording);
    } catch {
      // A check this browser cannot read marks nothing; the service's evaluation stands.
    }
    for (const failure of failed)
      for (const pointer of failure.pointers) {
        const messages = failures.get(pointer) ?? [];
        if (!messages.includes(failure.message)) messages.push(failure.message);
        failures.set(pointer, messages);
      }
    this.#failures = failures;
  }

  /** Remembers where on the page the person took a value from. */
  pick(pointer: string, picked: PickedSource): void {
    this.#picked.set(pointer, picked);
  }

  get pickedEntries(): ReadonlyMap<string, PickedSource> {
    return this.#picked;
  }

  picked(pointer: string): PickedSource | undefined {
    return this.#picked.get(pointer);
  }

  edited(pointer: string): boolean {
    return !deepEqual(
      valueAtPointer(this.#machine, pointer),
      valueAtPointer(this.#record, pointer),
    );
  }

  stateAt(pointer: string): FieldState {
    const source = this.sources[pointer];
    const edited = this.edited(pointer);
    const messages = [...(this.#failures.get(pointer) ?? [])];
    // A person who changed a value has looked at it: the machine's doubt no longer holds.
    if (!edited && this.#unsure.has(pointer)) messages.unshift(fieldStateText.lowConfidence);
    if (messages.length > 0)
      return { kind: 'review', messages, source: edited ? undefined : source };
    if (edited) return { kind: 'edited', picked: this.#picked.get(pointer) };
    if (source) return { kind: 'found', source };
    const value = valueAtPointer(this.#record, pointer);
    if (value === null || value === undefined || value === '') return { kind: 'not-found' };
    return { kind: 'none' };
  }

  /** The values that need review now, in no particular order. */
  get needingReview(): string[] {
    const pointers = new Set(this.#failures.keys());
    for (const pointer of this.#unsure) if (!this.edited(pointer)) pointers.add(pointer);
    return [...pointers];
  }
}
