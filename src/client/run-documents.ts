/**
 * A run's documents as the interface shows them: one per file of the bucket, in the
 * bucket's order, each with its state and progress (the run resource's `documents`) and its
 * record (the `{documents: [...]}` JSON text of the run's results fields). The two halves
 * are joined here, once, so that no view reads the results text itself.
 */
import {
  runResultsSchema,
  type DocumentErrorCode,
  type DocumentResult,
  type DocumentStage,
  type ResultsEdit,
  type Run,
} from '../contract/resources.js';
import type { DocumentStatus } from '../contract/run-status.js';

export interface RunDocumentState {
  /** The file's IRI (`/api/buckets/{b}/files/{f}`): the document's identity. */
  file: string;
  /** The file's id, for the per-document endpoints. */
  fileId: string;
  name: string;
  status: DocumentStatus;
  /** Why the document could not be read, in the service's (English) words; null unless it failed. */
  error: string | null;
  /** The kind of failure, which the interface words in the person's language. */
  errorCode: DocumentErrorCode | null;
  /** `reading` its files, then `extracting` its values; null once settled. */
  stage: DocumentStage | null;
  /** Pages of its files read so far, of how many (null until they are opened). */
  pagesRead: number;
  pagesTotal: number | null;
  chunksCompleted: number;
  chunksTotal: number | null;
  /**
   * The record: the person's draft, else as edited (else as read) once the run has settled;
   * the values found so far while it works; `undefined` when there is none yet.
   */
  data: unknown;
}

export interface DocumentCounts {
  total: number;
  completed: number;
  failed: number;
}

const joined = new WeakMap<Run, RunDocumentState[]>();

/** The documents of a run, in the bucket's order (remembered per run object). */
export function documentsOfRun(run: Run | undefined): RunDocumentState[] {
  if (!run) return [];
  let documents = joined.get(run);
  if (!documents) {
    documents = joinDocuments(run);
    joined.set(run, documents);
  }
  return documents;
}

/** How many documents a run has, and how many of them were read or failed. */
export function countDocuments(run: Run | undefined): DocumentCounts {
  const documents = documentsOfRun(run);
  return {
    total: documents.length,
    completed: documents.filter((document) => document.status === 'completed').length,
    failed: documents.filter((document) => document.status === 'failed').length,
  };
}

/** The documents of a `{documents: [...]}` results text; empty when it is not one. */
export function parseResults(text: string | null | undefined): DocumentResult[] {
  if (!text) return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Half-written partial results read again with the next change.
    return [];
  }
  const parsed = runResultsSchema.safeParse(value);
  return parsed.success ? parsed.data.documents : [];
}

/**
 * A person's drafts by file IRI (the run's `draftResultJson`, `{"documents": [{file, data}]}`,
 * as the service writes it); empty when there are none or it is not that.
 */
function draftsOfRun(run: Run): Map<string, unknown> {
  try {
    const { documents } = JSON.parse(run.draftResultJson!) as ResultsEdit;
    return new Map(documents.map((document) => [document.file, document.data]));
  } catch {
    return new Map();
  }
}

/** The id of the file a document's IRI names (its last segment). */
export function fileIdOf(file: string): string {
  const id = file.slice(file.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(id);
  } catch {
    return id;
  }
}

function joinDocuments(run: Run): RunDocumentState[] {
  const working = run.status === 'queued' || run.status === 'running' || run.status === 'paused';
  const results = parseResults(working ? (run.partialResultJson ?? run.partialData) : run.data);
  const byFile = new Map(results.map((document) => [document.file, document]));
  // A draft the schema does not accept yet is kept apart from the records: the person
  // goes on from it.
  const drafts = working ? new Map<string, unknown>() : draftsOfRun(run);
  return (run.documents ?? []).map((document) => {
    const result = byFile.get(document.file);
    const draft = drafts.get(document.file);
    return {
      file: document.file,
      fileId: fileIdOf(document.file),
      name: document.name,
      status: document.status,
      error: document.error,
      errorCode: document.errorCode,
      stage: document.stage,
      pagesRead: document.pagesRead,
      pagesTotal: document.pagesTotal,
      chunksCompleted: document.chunksCompleted,
      chunksTotal: document.chunksTotal,
      data: draft !== undefined ? draft : (result?.data ?? undefined),
    };
  });
}
