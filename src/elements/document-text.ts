/**
 * What the extraction and results views say about a run's documents (one per file), in the
 * person's words. The extractor's labels name the views' headings and buttons; these
 * built-in texts are the catalogue's (src/locales), read when they are shown.
 */
import { msg, str } from '@lit/localize';
import type { DocumentCounts } from '../client/run-documents.js';
import type { DocumentStatus } from '../contract/run-status.js';
import { formatNumber, formatPercent } from '../locales/format.js';
import { plural } from '../locales/plural.js';

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
