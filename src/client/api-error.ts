/**
 * What went wrong in a call to the service, in words a person can act on. The service
 * answers every error with an RFC 9457 problem document; its `detail` is written for
 * people, so it is what the interface shows. Failures that never reached the service
 * (offline, a blocked request) and answers we cannot read get their own plain messages.
 */
import { msg, str } from '@lit/localize';
import type { Problem } from '../contract/resources.js';
import { problemSchema } from '../contract/resources.js';
import { formattingLocale } from '../locales/localization.js';

// The errors' own messages are for developers, in English (the console, a host's handler);
// describeError gives people's words in the interface's language.
export const networkErrorMessage =
  'We could not reach the service. Check your connection and try again.';
export const unexpectedAnswerMessage =
  'The service sent an answer we did not expect. Please try again in a moment.';

export const sessionEndedMessage =
  'Your session has ended, so this could not be done. What you entered before is saved: ' +
  'ask for a new link to go on.';

export class ApiError extends Error {
  /** The HTTP status, or 0 when the request never got an answer. */
  readonly status: number;
  readonly problem: Problem | undefined;

  constructor(status: number, message: string, problem?: Problem) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.problem = problem;
  }

  /** Pointers into the request body the service found fault with, and why (422s). */
  get fieldErrors(): { pointer: string; detail: string }[] {
    return (this.problem?.errors ?? []).flatMap((error) =>
      error.pointer === undefined ? [] : [{ pointer: error.pointer, detail: error.detail }],
    );
  }

  /** The run status a 409 reports, so a control can redraw for it. */
  get currentStatus(): string | undefined {
    return this.problem?.currentStatus;
  }
}

/** An ApiError from an answer that is not a success, reading its problem document if any. */
export function errorFromAnswer(
  status: number,
  contentType: string | null,
  body: string,
): ApiError {
  let problem: Problem | undefined;
  if (contentType && /json/i.test(contentType)) {
    try {
      const parsed = problemSchema.safeParse(JSON.parse(body));
      if (parsed.success) problem = parsed.data;
    } catch {
      // A proxy's HTML error page or a truncated body: fall through to the generic words.
    }
  }
  // The service's words for a token ("The access token has expired") are a developer's.
  const message = status === 401 ? sessionEndedMessage : problem?.detail;
  return new ApiError(status, message || fallbackMessage(status), problem);
}

function fallbackMessage(status: number): string {
  if (status === 0)
    return msg('We could not reach the service. Check your connection and try again.', {
      id: 'error.network',
    });
  if (status === 401)
    return msg(
      'Your session has ended, so this could not be done. What you entered before is saved: ask for a new link to go on.',
      { id: 'error.session-ended' },
    );
  if (status === 404)
    return msg('We could not find what you were looking for. It may have been removed.', {
      id: 'error.not-found',
    });
  if (status === 413) return msg('The file is too large.', { id: 'error.too-large' });
  if (status >= 500)
    return msg('The service ran into a problem. Please try again in a moment.', {
      id: 'error.server',
    });
  return msg(str`The service refused the request (HTTP ${status}).`, { id: 'error.refused' });
}

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/**
 * The words to show for any error a call may throw, in the interface's language. The
 * service writes its problem details in English, so in another language the status's own
 * words stand in for them.
 */
export function describeError(error: unknown): string {
  if (!(error instanceof ApiError)) return fallbackMessage(0);
  if (error.message === unexpectedAnswerMessage)
    return msg('The service sent an answer we did not expect. Please try again in a moment.', {
      id: 'error.unexpected-answer',
    });
  // A 401's detail is the token's ("The access token has expired"), not a person's words.
  if (error.status === 401) return fallbackMessage(401);
  if (error.problem?.detail && formattingLocale().split('-')[0] === 'en') return error.message;
  return fallbackMessage(error.status);
}
