/**
 * What the extraction and results views say about a run's documents (one per file), in the
 * person's words. The extractor's labels name the views' headings and buttons; these
 * built-in texts have no label of their own yet, and move into a catalogue with the others.
 */
import type { DocumentCounts } from '../client/run-documents.js';
import type { DocumentStatus } from '../contract/run-status.js';

/** A document's state in a word or two, beside its name (never in colour alone). */
export const documentStatusNames: Record<DocumentStatus, string> = {
  queued: 'Waiting',
  running: 'Reading',
  completed: 'Read',
  failed: 'Could not be read',
};

function documentsWord(count: number): string {
  return count === 1 ? '1 document' : `${count} documents`;
}

/** How a run's reading of its documents ended: "3 of 4 documents read; 1 could not be read." */
export function describeOutcome(counts: DocumentCounts): string {
  const { total, completed, failed } = counts;
  if (failed === 0) return completed === 1 ? '1 document read.' : `All ${total} documents read.`;
  if (completed === 0)
    return total === 1
      ? 'The document could not be read.'
      : `None of the ${total} documents could be read.`;
  return `${completed} of ${documentsWord(total)} read; ${failed} could not be read.`;
}

export const documentText = {
  replace: 'Replace file',
  /** The button's accessible name: its visible words, then which document. */
  replaceName: (name: string) => `Replace file ${name}`,
  sending: (name: string, percent: number) => `Sending ${name}: ${percent}%`,
  /** What Submit sends when some documents could not be read. */
  submitsRead: (completed: number) =>
    completed === 1
      ? 'Submit sends the document that was read.'
      : `Submit sends the ${completed} documents that were read.`,
  failedTitle: (name: string) => `We could not read “${name}”.`,
  failedNext:
    'Replace it with another file, such as a clearer scan or the original, and it is read ' +
    'again. The other documents and your changes stay as they are.',
  documents: 'Documents',
  position: (index: number, total: number) => `Document ${index + 1} of ${total}`,
  previous: 'Previous',
  previousName: 'Previous document',
  next: 'Next',
  nextName: 'Next document',
  nextNamed: (name: string) => `Next document: ${name}`,
  attention: 'Needs attention',
};
