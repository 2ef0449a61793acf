/**
 * What the extraction view says about a run, in the person's words: all of the view's
 * English texts are here, to move into a catalogue with the other built-in texts.
 *
 * A run reports how many chunks of its documents' text it has read of how many
 * (`chunksCompleted` of `chunksTotal`). Chunks are the service's business, not the
 * person's, so progress is told as a share of the work. Before the total is known the
 * service is still getting the text out of the files, which for scans means reading each
 * page's image (OCR): the longest wait, told page by page from each document's `stage`
 * (`reading`) and its `pagesRead` of `pagesTotal`.
 */
import {
  countDocuments,
  documentsOfRun,
  type RunDocumentState,
} from '../../client/run-documents.js';
import type { Run } from '../../contract/resources.js';
import type { RunStatus } from '../../contract/run-status.js';
import { describeOutcome } from '../document-text.js';

export const statusNames: Record<RunStatus, string> = {
  queued: 'Waiting to start',
  running: 'Reading',
  paused: 'Paused',
  completed: 'Done',
  partially_completed: 'Partly done',
  failed: 'Stopped',
  cancelled: 'Cancelled',
};

export const extractionText = {
  progressLabel: 'Progress',
  noRun: 'Nothing is running yet. Start when your files are ready.',
  cancelled:
    'This run was cancelled. Start it again to read your documents, or go back to change them.',
  failedTitle: 'We could not finish reading your documents.',
  failedNext:
    'You can start again, or go back to check your files and replace any that cannot be read.',
  /** A run that read none of its documents, each of which says why in the list. */
  documentsFailedTitle: (total: number) =>
    total === 1 ? 'We could not read your document.' : 'We could not read any of your documents.',
  replaceNext: 'Replace a file that could not be read with another copy of it to read it again.',
  documentsLabel: 'Your documents',
  documentProgressLabel: (name: string) => `Progress of ${name}`,
  documentWaiting: 'Waiting for its turn.',
  documentFound: (found: number, all: number) => `${found} of ${all} values found.`,
  found: 'Found',
  foundSoFar: 'Found so far',
  foundCount: (found: number, all: number) => `${found} of ${all}`,
  elapsed: (minutes: number, seconds: number) =>
    `${minutes}:${String(seconds).padStart(2, '0')} elapsed`,
  /** The page being read, from 1, of how many. */
  readingPage: (page: number, total: number) =>
    total === 1 ? 'Reading the page.' : `Reading page ${page} of ${total}.`,
  /** The same, of one of several documents. */
  readingPageOf: (name: string, page: number, total: number) =>
    total === 1 ? `Reading ${name}.` : `Reading ${name}: page ${page} of ${total}.`,
};

/** The page a document is reading, from 1, and of how many; undefined unless it is reading. */
export function pageBeingRead(
  document: Pick<RunDocumentState, 'stage' | 'pagesRead' | 'pagesTotal'>,
): { page: number; total: number } | undefined {
  if (document.stage !== 'reading' || !document.pagesTotal) return undefined;
  return {
    page: Math.min(document.pagesRead + 1, document.pagesTotal),
    total: document.pagesTotal,
  };
}

/** The share of the work done, 0 to 100, or undefined while the amount of work is unknown. */
export function percentDone(run: Run): number | undefined {
  if (run.status === 'completed') return 100;
  const total = run.chunksTotal ?? 0;
  if (total <= 0) return undefined;
  return Math.min(100, Math.floor((run.chunksCompleted / total) * 100));
}

/**
 * What the run is doing, in a sentence. `coarse` rounds progress to quarters, for screen
 * readers, which should hear of progress now and then rather than at every step.
 *
 * While the service gets the text out of the files, the document it is reading says which
 * page it is at ("Reading page 2 of 5."): OCR takes seconds a page, and the service tells
 * each page no more than a few times a second, so every page is heard.
 */
export function describeProgress(run: Run, coarse = false): string {
  const percent = percentDone(run);
  const shown =
    percent === undefined ? undefined : coarse ? Math.floor(percent / 25) * 25 : percent;
  switch (run.status) {
    case 'queued':
      return run.chunksCompleted > 0 && shown !== undefined
        ? `Waiting to go on from ${shown}% done.`
        : 'Waiting to start.';
    case 'running': {
      if (shown !== undefined) return `Finding your data: ${shown}% done.`;
      const documents = documentsOfRun(run);
      for (const document of documents) {
        const reading = pageBeingRead(document);
        if (!reading) continue;
        return documents.length === 1
          ? extractionText.readingPage(reading.page, reading.total)
          : extractionText.readingPageOf(document.name, reading.page, reading.total);
      }
      return 'Getting the text out of your documents. Scanned pages take longest.';
    }
    case 'paused':
      return shown === undefined ? 'Paused.' : `Paused at ${shown}% done.`;
    case 'completed':
      return run.formattedDuration ? `Done in ${run.formattedDuration}.` : 'Done.';
    case 'partially_completed':
      return describeOutcome(countDocuments(run));
    case 'failed': {
      const counts = countDocuments(run);
      return counts.failed > 0 ? describeOutcome(counts) : 'Stopped with a problem.';
    }
    case 'cancelled':
      return 'Cancelled.';
  }
}

/** A document's share of its own work done, 0 to 100, or undefined while unknown. */
export function documentPercentDone(document: RunDocumentState): number | undefined {
  if (document.status === 'completed') return 100;
  const total = document.chunksTotal ?? 0;
  if (total <= 0) return undefined;
  return Math.min(100, Math.floor((document.chunksCompleted / total) * 100));
}

/** What is happening to one document of a run, in a sentence. */
export function describeDocumentProgress(document: RunDocumentState, run: Run): string {
  const percent = documentPercentDone(document);
  const reading = pageBeingRead(document);
  switch (document.status) {
    case 'completed':
      return 'Read.';
    case 'failed':
      return document.error ?? 'It could not be read.';
    case 'queued':
    case 'running':
      if (run.status === 'cancelled') return 'Cancelled.';
      if (run.status === 'paused')
        return percent === undefined || document.status === 'queued'
          ? 'Paused.'
          : `Paused at ${percent}% done.`;
      // Documents are read (and counted) before any is extracted, while still queued.
      if (reading) return extractionText.readingPage(reading.page, reading.total);
      if (document.status === 'queued') return extractionText.documentWaiting;
      return percent === undefined
        ? 'Getting the text out. Scanned pages take longest.'
        : `${percent}% done.`;
  }
}
