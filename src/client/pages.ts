/**
 * The pages of a bucket's files, for the review beside the document: the file resource
 * (how many pages, shown how), a page as a picture or as text, and the words printed on a
 * page with their boxes. Apart from client.ts, so that none of it loads before the results
 * view does. Everything goes with the session token in the Authorization header: an
 * `<img src>` could carry it only in the address (`?access_token=`), where server and proxy
 * logs, the history and Referer headers would keep it; a picture is fetched as a Blob and
 * shown through an object URL instead.
 */
import { fileIriOf } from '../contract/iri.js';
import { bucketFileSchema, type BucketFile } from '../contract/resources.js';
import { pageWordsSchema, type PageWords } from '../contract/review.js';
import { ApiError, unexpectedAnswerMessage } from './api-error.js';
import { checked, type ExtractorClient } from './client.js';

/** A file of a bucket, with how many pages it has and how they are shown. */
export async function getFile(
  client: ExtractorClient,
  bucketId: string,
  fileId: string,
  signal?: AbortSignal,
): Promise<BucketFile> {
  const response = await client.get(fileIriOf(bucketId, fileId), {
    accept: 'application/json',
    signal,
  });
  return checked(bucketFileSchema, await jsonOf(response));
}

/** Page `page` of a PDF or an image, drawn `width` pixels wide; the browser may keep it. */
export async function getPagePicture(
  client: ExtractorClient,
  bucketId: string,
  fileId: string,
  page: number,
  width: number,
  signal?: AbortSignal,
): Promise<Blob> {
  const response = await client.get(`${fileIriOf(bucketId, fileId)}/pages/${page}?width=${width}`, {
    accept: 'image/webp,image/png;q=0.9',
    cache: 'default',
    signal,
  });
  return response.blob();
}

/** Page `page` of a text document as the run read it (where its sources' offsets point). */
export async function getPageText(
  client: ExtractorClient,
  bucketId: string,
  fileId: string,
  page: number,
  runId: string,
  signal?: AbortSignal,
): Promise<string> {
  const query = new URLSearchParams({ run: runId });
  const response = await client.get(`${fileIriOf(bucketId, fileId)}/pages/${page}?${query}`, {
    accept: 'text/plain',
    signal,
  });
  return response.text();
}

/** The words printed on page `page` of a PDF or an image, each with its box. */
export async function getPageWords(
  client: ExtractorClient,
  bucketId: string,
  fileId: string,
  page: number,
  signal?: AbortSignal,
): Promise<PageWords> {
  const response = await client.get(`${fileIriOf(bucketId, fileId)}/pages/${page}/words`, {
    accept: 'application/json',
    cache: 'default',
    signal,
  });
  return checked(pageWordsSchema, await jsonOf(response));
}

async function jsonOf(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    throw new ApiError(response.status, unexpectedAnswerMessage);
  }
}
