/**
 * Loading what the app shows for a session token (the session, its extractor and bucket,
 * and the bucket's latest run of that extractor), and the words for what went wrong.
 */
import { msg } from '@lit/localize';
import { ApiError, describeError } from '../../client/api-error.js';
import { ExtractorClient, idOf, TokenKindError } from '../../client/client.js';
import type { Bucket, CurrentSession, Extractor, Run } from '../../contract/resources.js';

export interface LoadedFlow {
  client: ExtractorClient;
  session: CurrentSession;
  extractor: Extractor;
  bucket: Bucket;
  run: Run | undefined;
}

export class MissingSessionError extends Error {
  constructor() {
    super('This page needs an embed session to work.');
  }
}

/** How many of a bucket's latest runs to look at for one of this session's extractor. */
const runLookback = 5;

export async function loadFlow(
  baseUrl: string,
  token: string,
  signal: AbortSignal,
): Promise<LoadedFlow> {
  if (!token) throw new MissingSessionError();
  const client = new ExtractorClient({ baseUrl: baseUrl || window.location.origin, token });
  const session = await client.getCurrentSession(signal);
  const [extractor, bucket] = await Promise.all([
    client.getExtractor(idOf('extractor', session.savedExtractor), signal),
    client.getBucket(idOf('bucket', session.bucket), signal),
  ]);
  return {
    client,
    session,
    extractor,
    bucket,
    run: await latestRun(client, bucket, extractor, signal),
  };
}

/** The bucket's latest run of this extractor; a session cannot see runs of other extractors. */
async function latestRun(
  client: ExtractorClient,
  bucket: Bucket,
  extractor: Extractor,
  signal: AbortSignal,
): Promise<Run | undefined> {
  for (const reference of bucket.runs.slice(-runLookback).reverse()) {
    try {
      const run = await client.getRun(idOf('run', reference), signal);
      if (idOf('extractor', run.savedExtractor) === extractor.id) return run;
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error;
    }
  }
  return undefined;
}

export function viewLoadError(): string {
  return msg('This part of the page could not be loaded. Check your connection and try again.', {
    id: 'app.view-load-error',
  });
}

export function loadErrorMessage(error: unknown): string {
  // Written for the partner's developer, who is the one to see it: a browser was given
  // a personal access token.
  if (error instanceof TokenKindError) return error.message;
  if (error instanceof MissingSessionError)
    return msg('This page needs an embed session to work. Open the link you were given again.', {
      id: 'app.missing-session',
    });
  if (error instanceof ApiError && error.status === 401)
    return msg(
      'This session has ended or is not valid. Ask whoever sent you this link for a new one.',
      {
        id: 'app.session-invalid',
      },
    );
  if (error instanceof ApiError && error.status === 404)
    return msg('The extractor of this session no longer exists.', {
      id: 'app.extractor-gone',
    });
  return describeError(error);
}
