/**
 * What the results view says of itself: how a document's edits stand (saved, saving, not
 * saved, how many values need attention) and what a submitted run says.
 */
import { msg, str } from '@lit/localize';
import { formatDateTime, formatNumber } from '../../locales/format.js';
import { plural } from '../../locales/plural.js';

/** What a save status is made of: a document's draft (results-view/document-drafts.ts). */
export interface DraftStatus {
  readonly saveState: 'saved' | 'pending' | 'saving' | 'failed';
  readonly saveError: string | undefined;
  readonly revision: number;
  readonly editor: { readonly violations: { readonly size: number } };
}

/** The save status of a document's edits; nothing once the results are submitted. */
export function saveStatusText(draft: DraftStatus, submitted: boolean): string {
  if (submitted) return '';
  const count = draft.editor.violations.size;
  // Drafts are saved valid or not; what is invalid only holds back Submit.
  const attention =
    count === 0
      ? ''
      : plural(
          count,
          {
            one: str`${formatNumber(count)} value needs attention before you submit.`,
            other: str`${formatNumber(count)} values need attention before you submit.`,
          },
          { id: 'results.attention' },
        );
  switch (draft.saveState) {
    case 'saved':
      if (draft.revision === 0) return attention;
      return count === 0
        ? msg('All changes saved.', { id: 'results.saved' })
        : joinSentences(
            msg('All changes saved as your draft.', { id: 'results.saved-draft' }),
            attention,
          );
    case 'pending':
      return joinSentences(msg('Unsaved changes…', { id: 'results.unsaved' }), attention);
    case 'saving':
      return joinSentences(msg('Saving…', { id: 'results.saving' }), attention);
    case 'failed':
      return draft.saveError ?? msg('Your changes are not saved.', { id: 'results.not-saved' });
  }
}

export function submitAnyway(): string {
  return msg('Submit anyway', { id: 'results.submit-anyway' });
}

/** A document's name in the locale's quotation marks (“invoice.pdf”, „Rechnung.pdf“). */
export function quoted(name: string): string {
  return msg(str`“${name}”`, { id: 'results.quoted-name' });
}

/** Two sentences of a status, the second left out when empty. */
function joinSentences(first: string, second: string): string {
  return second ? `${first} ${second}` : first;
}

export function submittedText(iso: string | null | undefined): string {
  const date = new Date(iso ?? '');
  return Number.isNaN(date.getTime())
    ? msg('Your results were sent. They can no longer be changed here.', {
        id: 'results.sent',
      })
    : msg(
        str`Your results were sent on ${formatDateTime(date)}. They can no longer be changed here.`,
        {
          id: 'results.sent-on',
        },
      );
}
