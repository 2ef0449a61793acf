/**
 * The question a view asks before a new run would leave a person's edits of the current
 * results behind (issue 14: "an action that would discard edits asks first"). Start over in
 * the extraction view and Begin in the bucket view both start a new run, which reads the
 * files afresh; the edits stay with the old run, which the person would no longer see.
 */
import { msg, str } from '@lit/localize';
import { html } from 'lit';

export interface DiscardEditsWarning {
  /** The label of the button that starts the new run: pressed again, it goes ahead. */
  buttonLabel: string;
  /** Back to the edits instead. */
  onKeep: () => void;
}

/** The warning, focusable (`tabindex="-1"`) so that focus can move to it as it shows. */
export function renderDiscardEditsWarning({ buttonLabel, onKeep }: DiscardEditsWarning) {
  return html`<p
    class="message warning confirm-restart"
    part="restart-warning"
    role="alert"
    tabindex="-1"
  >
    <span class="message-title"
      >${msg('Your changes would not be carried over.', { id: 'discard-edits.title' })}</span
    >
    ${msg(
      str`A new run reads the files again from the beginning; the values you corrected stay with the results you have now. Press “${buttonLabel}” again to start anyway, or go back to your changes.`,
      { id: 'discard-edits.text' },
    )}
    <button class="button small" part="button keep-edits-button" type="button" @click=${onKeep}>
      ${msg('Keep my changes', { id: 'discard-edits.keep' })}
    </button>
  </p>`;
}
