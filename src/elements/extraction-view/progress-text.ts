/**
 * What the extraction view says about a run, in the person's words: the view's built-in
 * texts, through the catalogue (src/locales), with numbers in the locale's digits.
 *
 * A run reports how many chunks of its documents' text it has read of how many
 * (`chunksCompleted` of `chunksTotal`). Chunks are the service's business, not the
 * person's, so progress is told as a share of the work. Before the total is known the
 * service is still getting the text out of the files, which for scans means reading each
 * page's image (OCR): the longest wait, told page by page from each document's `stage`
 * (`reading`) and its `pagesRead` of `pagesTotal`.
 */
import { msg, str } from '@lit/localize';
import {
  countDocuments,
  documentsOfRun,
  type RunDocumentState,
} from '../../client/run-documents.js';
import type { Run } from '../../contract/resources.js';
import type { RunStatus } from '../../contract/run-status.js';
import {
  formatClock,
  formatDuration,
  formatNumber,
  formatPercent,
  secondsOfDuration,
} from '../../locales/format.js';
import { plural } from '../../locales/plural.js';
import { describeOutcome, failureReason } from '../internal/document-text.js';

export const statusNames: Record<RunStatus, string> = {
  get queued() {
    return msg('Waiting to start', { id: 'run.status.queued' });
  },
  get running() {
    return msg('Reading', { id: 'run.status.running' });
  },
  get paused() {
    return msg('Paused', { id: 'run.status.paused' });
  },
  get completed() {
    return msg('Done', { id: 'run.status.completed' });
  },
  get partially_completed() {
    return msg('Partly done', { id: 'run.status.partially-completed' });
  },
  get failed() {
    return msg('Stopped', { id: 'run.status.failed' });
  },
  get cancelled() {
    return msg('Cancelled', { id: 'run.status.cancelled' });
  },
};

export const extractionText = {
  get progressLabel() {
    return msg('Progress', { id: 'extraction.progress' });
  },
  get noRun() {
    return msg('Nothing is running yet. Start when your files are ready.', {
      id: 'extraction.no-run',
    });
  },
  get cancelled() {
    return msg(
      'This run was cancelled. Start it again to read your documents, or go back to change them.',
      { id: 'extraction.cancelled' },
    );
  },
  get failedTitle() {
    return msg('We could not finish reading your documents.', { id: 'extraction.failed' });
  },
  get failedNext() {
    return msg(
      'You can start again, or go back to check your files and replace any that cannot be read.',
      { id: 'extraction.failed-next' },
    );
  },
  /** A run that read none of its documents, each of which says why in the list. */
  documentsFailedTitle: (total: number) =>
    total === 1
      ? msg('We could not read your document.', { id: 'extraction.document-failed' })
      : msg('We could not read any of your documents.', { id: 'extraction.documents-failed' }),
  get replaceNext() {
    return msg('Replace a file that could not be read with another copy of it to read it again.', {
      id: 'extraction.replace-next',
    });
  },
  get documentsLabel() {
    return msg('Your documents', { id: 'extraction.documents' });
  },
  documentProgressLabel: (name: string) =>
    msg(str`Progress of ${name}`, { id: 'extraction.document-progress' }),
  get documentWaiting() {
    return msg('Waiting for its turn.', { id: 'extraction.document-waiting' });
  },
  documentFound: (found: number, all: number) =>
    plural(
      all,
      {
        one: str`${formatNumber(found)} of ${formatNumber(all)} value found.`,
        other: str`${formatNumber(found)} of ${formatNumber(all)} values found.`,
      },
      { id: 'extraction.document-found' },
    ),
  get found() {
    return msg('Found', { id: 'extraction.found' });
  },
  get foundSoFar() {
    return msg('Found so far', { id: 'extraction.found-so-far' });
  },
  foundCount: (found: number, all: number) =>
    msg(str`${formatNumber(found)} of ${formatNumber(all)}`, { id: 'extraction.found-count' }),
  elapsed: (seconds: number) =>
    msg(str`${formatClock(seconds)} elapsed`, { id: 'extraction.elapsed' }),
  /** The page being read, from 1, of how many. */
  readingPage: (page: number, total: number) =>
    total === 1
      ? msg('Reading the page.', { id: 'extraction.reading-the-page' })
      : msg(str`Reading page ${formatNumber(page)} of ${formatNumber(total)}.`, {
          id: 'extraction.reading-page',
        }),
  /** The same, of one of several documents. */
  readingPageOf: (name: string, page: number, total: number) =>
    total === 1
      ? msg(str`Reading ${name}.`, { id: 'extraction.reading-document' })
      : msg(str`Reading ${name}: page ${formatNumber(page)} of ${formatNumber(total)}.`, {
          id: 'extraction.reading-document-page',
        }),
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
        ? msg(str`Waiting to go on from ${formatPercent(shown)} done.`, {
            id: 'run.progress.waiting-to-resume',
          })
        : msg('Waiting to start.', { id: 'run.progress.waiting' });
    case 'running': {
      if (shown !== undefined)
        return msg(str`Finding your data: ${formatPercent(shown)} done.`, {
          id: 'run.progress.finding',
        });
      const documents = documentsOfRun(run);
      for (const document of documents) {
        const reading = pageBeingRead(document);
        if (!reading) continue;
        return documents.length === 1
          ? extractionText.readingPage(reading.page, reading.total)
          : extractionText.readingPageOf(document.name, reading.page, reading.total);
      }
      return msg('Getting the text out of your documents. Scanned pages take longest.', {
        id: 'run.progress.reading-text',
      });
    }
    case 'paused':
      return shown === undefined ? pausedText() : pausedAt(shown);
    case 'completed':
      return runSeconds(run) === undefined
        ? msg('Done.', { id: 'run.progress.done' })
        : msg(str`Done in ${formatDuration(runSeconds(run)!)}.`, { id: 'run.progress.done-in' });
    case 'partially_completed':
      return describeOutcome(countDocuments(run));
    case 'failed': {
      const counts = countDocuments(run);
      return counts.failed > 0
        ? describeOutcome(counts)
        : msg('Stopped with a problem.', { id: 'run.progress.failed' });
    }
    case 'cancelled':
      return cancelledText();
  }
}

const pausedText = () => msg('Paused.', { id: 'run.progress.paused' });
const pausedAt = (percent: number) =>
  msg(str`Paused at ${formatPercent(percent)} done.`, { id: 'run.progress.paused-at' });
const cancelledText = () => msg('Cancelled.', { id: 'run.progress.cancelled' });

/** How long a finished run took, in seconds, from its ISO 8601 `duration`. */
export function runSeconds(run: Run): number | undefined {
  return secondsOfDuration(run.duration);
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
      return msg('Read.', { id: 'document.progress.read' });
    case 'failed':
      return (
        failureReason(document) ?? msg('It could not be read.', { id: 'document.progress.failed' })
      );
    case 'queued':
    case 'running':
      if (run.status === 'cancelled') return cancelledText();
      if (run.status === 'paused')
        return percent === undefined || document.status === 'queued'
          ? pausedText()
          : pausedAt(percent);
      // Documents are read (and counted) before any is extracted, while still queued.
      if (reading) return extractionText.readingPage(reading.page, reading.total);
      if (document.status === 'queued') return extractionText.documentWaiting;
      return percent === undefined
        ? msg('Getting the text out. Scanned pages take longest.', {
            id: 'document.progress.reading-text',
          })
        : msg(str`${formatPercent(percent)} done.`, { id: 'document.progress.percent' });
  }
}
