/**
 * What the extraction and results views say about a run's documents (one per file), in the
 * person's words. The extractor's labels name the views' headings and buttons; these
 * built-in texts are the catalogue's (src/locales), read when they are shown.
 */
import { msg, str } from '@lit/localize';
import type { DocumentCounts, RunDocumentState } from '../../client/run-documents.js';
import type { DocumentErrorCode } from '../../contract/resources.js';
import type { DocumentStatus } from '../../contract/run-status.js';
import { formatNumber, formatPercent } from '../../locales/format.js';
import { plural } from '../../locales/plural.js';

/** A document's state in a word or two, beside its name (never in colour alone). */
export const documentStatusNames: Record<DocumentStatus, string> = {
  get queued() {
    return msg('Waiting', { id: 'document.status.queued' });
  },
  get running() {
    return msg('Reading', { id: 'document.status.running' });
  },
  get completed() {
    return msg('Read', { id: 'document.status.completed' });
  },
  get failed() {
    return msg('Could not be read', { id: 'document.status.failed' });
  },
};

/** How a run's reading of its documents ended: "3 of 4 documents read; 1 could not be read." */
export function describeOutcome(counts: DocumentCounts): string {
  const { total, completed, failed } = counts;
  const all = formatNumber(total);
  if (failed === 0)
    return completed === 1
      ? msg('1 document read.', { id: 'document.outcome.one-read' })
      : msg(str`All ${all} documents read.`, { id: 'document.outcome.all-read' });
  if (completed === 0)
    return total === 1
      ? msg('The document could not be read.', { id: 'document.outcome.one-failed' })
      : msg(str`None of the ${all} documents could be read.`, { id: 'document.outcome.none-read' });
  const read = formatNumber(completed);
  const unread = formatNumber(failed);
  return plural(
    total,
    {
      one: str`${read} of ${all} document read; ${unread} could not be read.`,
      other: str`${read} of ${all} documents read; ${unread} could not be read.`,
    },
    { id: 'document.outcome.some-read' },
  );
}

/**
 * Why a document failed, by its `errorCode`, naming it. Each says the cause, not that it
 * could not be read: its badge, and the title above it in the results, say that already.
 */
const failureReasons: Record<DocumentErrorCode, (name: string) => string> = {
  damaged_file: (name) => msg(str`${name} may be damaged.`, { id: 'failure.damaged_file' }),
  password_protected: (name) =>
    msg(str`${name} is protected by a password.`, { id: 'failure.password_protected' }),
  no_text: (name) => msg(str`No text could be found in ${name}.`, { id: 'failure.no_text' }),
  unsupported_type: (name) =>
    msg(str`${name} is of a file type that cannot be read.`, { id: 'failure.unsupported_type' }),
  too_large: (name) =>
    msg(str`${name} is too large or too complex to read.`, { id: 'failure.too_large' }),
  file_missing: (name) => msg(str`${name} is no longer available.`, { id: 'failure.file_missing' }),
  misconfigured: (name) =>
    msg(str`The service is not set up to read ${name}. Please contact support.`, {
      id: 'failure.misconfigured',
    }),
  model_unavailable: (name) =>
    msg(str`The service that reads ${name} is not available right now. Please try again later.`, {
      id: 'failure.model_unavailable',
    }),
  model_refused: (name) =>
    msg(str`The AI model declined to process ${name}.`, { id: 'failure.model_refused' }),
  extraction_failed: (name) =>
    msg(str`An error on our side kept ${name} from being read.`, {
      id: 'failure.extraction_failed',
    }),
};

/**
 * Why a document failed, in the person's words; the service's own sentence, in English, for
 * a failure the interface has no words for (one stored before failures had codes, or a code
 * newer than this interface, which the contract reads as none).
 */
export function failureReason(
  document: Pick<RunDocumentState, 'name' | 'error' | 'errorCode'>,
): string | null {
  return (
    (document.errorCode && failureReasons[document.errorCode]?.(document.name)) || document.error
  );
}

export const documentText = {
  get replace() {
    return msg('Replace file', { id: 'document.replace' });
  },
  /** The button's accessible name: its visible words, then which document. */
  replaceName: (name: string) => msg(str`Replace file ${name}`, { id: 'document.replace-name' }),
  sending: (name: string, percent: number) =>
    msg(str`Sending ${name}: ${formatPercent(percent)}`, { id: 'document.sending' }),
  /** What Submit sends when some documents could not be read. */
  submitsRead: (completed: number) =>
    completed === 1
      ? msg('Submit sends the document that was read.', { id: 'document.submits-one' })
      : msg(str`Submit sends the ${formatNumber(completed)} documents that were read.`, {
          id: 'document.submits-some',
        }),
  failedTitle: (name: string) => msg(str`We could not read “${name}”.`, { id: 'document.failed' }),
  get failedNext() {
    return msg(
      'Replace it with another file, such as a clearer scan or the original, and it is read ' +
        'again. The other documents and your changes stay as they are.',
      { id: 'document.failed-next' },
    );
  },
  get documents() {
    return msg('Documents', { id: 'document.documents' });
  },
  position: (index: number, total: number) =>
    msg(str`Document ${formatNumber(index + 1)} of ${formatNumber(total)}`, {
      id: 'document.position',
    }),
  get previous() {
    return msg('Previous', { id: 'document.previous' });
  },
  get previousName() {
    return msg('Previous document', { id: 'document.previous-name' });
  },
  get next() {
    return msg('Next', { id: 'document.next' });
  },
  get nextName() {
    return msg('Next document', { id: 'document.next-name' });
  },
  nextNamed: (name: string) => msg(str`Next document: ${name}`, { id: 'document.next-named' }),
  get attention() {
    return msg('Needs attention', { id: 'document.attention' });
  },
};
