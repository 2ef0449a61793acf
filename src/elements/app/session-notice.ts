/**
 * The full page's notice that its session ends soon or has ended. The app loads it only when
 * the notice is due (two minutes before the session ends), so the first view stays small.
 */
import { msg, str } from '@lit/localize';
import { html, nothing } from 'lit';
import { formattingLocale } from '../../locales/localization.js';

export type SessionNotice = 'expiring' | 'final' | 'ended';

export interface SessionNoticeState {
  notice: SessionNotice;
  /** When the session ends (ISO 8601). */
  expiresAt: string;
  /** A renewal is on its way. */
  renewing: boolean;
  /** Continue working: asks for a new token for the same session. */
  onContinue: () => void;
}

/** Ending soon (with Continue working while the session may be renewed), or ended. */
export function renderSessionNotice({
  notice,
  expiresAt,
  renewing,
  onContinue,
}: SessionNoticeState) {
  const at = new Date(expiresAt).toLocaleTimeString(formattingLocale(), { timeStyle: 'short' });
  const [title, text] =
    notice === 'ended'
      ? [
          msg('Your session has ended', { id: 'session.ended' }),
          msg(
            'For your security this page stops working after a while. Everything you entered up to now is saved: ask whoever sent you this link for a new one, and you will go on where you left off.',
            { id: 'session.ended-text' },
          ),
        ]
      : [
          msg(str`Your session ends at ${at}`, { id: 'session.ends-at' }),
          notice === 'expiring'
            ? msg('Everything you entered is saved. Continue to keep working on this page.', {
                id: 'session.expiring-text',
              })
            : msg(
                'Everything you entered is saved. It cannot be extended further: finish soon, or ask for a new link later.',
                { id: 'session.final-text' },
              ),
        ];
  return html`<div
    class="message session-notice ${notice === 'ended' ? 'error' : ''}"
    part="session-notice"
    role="alert"
    tabindex="-1"
  >
    <span class="message-title">${title}</span>
    <span>${text}</span>
    ${
      notice === 'expiring'
        ? html`<button
            class="button primary"
            part="button continue-session-button"
            type="button"
            aria-disabled=${renewing ? 'true' : 'false'}
            @click=${onContinue}
          >
            ${
              renewing
                ? msg('Continuing…', { id: 'session.continuing' })
                : msg('Continue working', { id: 'session.continue' })
            }
          </button>`
        : nothing
    }
  </div>`;
}
