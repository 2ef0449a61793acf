/**
 * Media-type negotiation in one place, through Hono's `accepts` and its Accept parser. The
 * choice is RFC 9110's (§12.5.1), which Hono's default match is not: the most specific range
 * that matches an offered type decides that type's quality (so `application/json;q=0,
 * *\/*;q=0.1` refuses JSON, where a match on `*\/*` alone would give it), and the offered
 * type with the highest quality wins, ties going to the earlier offer. No Accept, or one
 * that names no media range, gives the first offer, which is always JSON.
 */
import type { Context } from 'hono';
import { accepts } from 'hono/accepts';
import type { Accept } from 'hono/utils/accept';
import { parseAccept } from 'hono/utils/accept';
import { isPlainJsonApi, jsonApiMediaType as jsonApiType } from './json-api.js';
import { notAcceptable } from './problem.js';

export const resourceMediaTypes = [
  'application/json',
  'application/vnd.api+json',
  'application/ld+json',
  'text/csv',
  'text/html',
] as const;
export type ResourceMediaType = (typeof resourceMediaTypes)[number];

/**
 * The q-value of an entry of an Accept-like header (RFC 9110 §12.4.2). One that is not a
 * number counts as 0, where Hono's parser reads it as 1: a value the client did not
 * write must not make a type (or an encoding) acceptable.
 */
export function qualityOf(entry: Accept): number {
  const written = entry.params.q ?? entry.params.Q;
  if (written === undefined) return 1;
  const q = Number(written);
  return Number.isFinite(q) ? Math.min(Math.max(q, 0), 1) : 0;
}

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

function mediaRangeOf(entry: Accept): MediaRange | undefined {
  const [type, subtype] = entry.type.toLowerCase().split('/');
  return type && subtype ? { type, subtype, q: qualityOf(entry) } : undefined;
}

function specificity(range: MediaRange, type: string, subtype: string): number {
  if (range.type === type && range.subtype === subtype) return 3;
  if (range.type === type && range.subtype === '*') return 2;
  if (range.type === '*' && range.subtype === '*') return 1;
  return 0;
}

/**
 * Whether an Accept entry is the JSON:API media type with a parameter JSON:API 1.1 does not
 * allow there (anything but `ext` and `profile`), or with an extension (none is supported).
 */
function isForeignJsonApi(entry: Accept): boolean {
  return entry.type.toLowerCase() === jsonApiType && !isPlainJsonApi(Object.keys(entry.params));
}

/**
 * `accepts`' match: the best of `supports`, '' when none is acceptable. JSON:API 1.1 has a
 * request whose Accept names its media type only with parameters it does not know
 * answered with a 406, whatever else the Accept allows; such an entry never matches.
 */
function bestOffer(entries: Accept[], { supports }: { supports: string[] }): string {
  const jsonApi = entries.filter((entry) => entry.type.toLowerCase() === jsonApiType);
  if (jsonApi.length > 0 && jsonApi.every(isForeignJsonApi)) return '';
  const ranges = entries
    .filter((entry) => !isForeignJsonApi(entry))
    .map(mediaRangeOf)
    .filter((range) => range !== undefined);
  if (ranges.length === 0) return supports[0]!;
  let best = '';
  let bestQ = 0;
  for (const candidate of supports) {
    const [type, subtype] = candidate.split('/') as [string, string];
    let matchQ = -1;
    let matchSpecificity = 0;
    for (const range of ranges) {
      const level = specificity(range, type, subtype);
      if (level > matchSpecificity) {
        matchSpecificity = level;
        matchQ = range.q;
      }
    }
    if (matchQ > bestQ) {
      best = candidate;
      bestQ = matchQ;
    }
  }
  return best;
}

/** The offered type to answer with, or `undefined` when the client accepts none of them. */
export function negotiate<T extends string>(c: Context, offered: readonly T[]): T | undefined {
  const chosen = accepts(c, {
    header: 'Accept',
    supports: [...offered],
    default: offered[0]!,
    match: bestOffer,
  });
  return chosen === '' ? undefined : (chosen as T);
}

export function negotiateOrThrow<T extends string>(c: Context, offered: readonly T[]): T {
  const chosen = negotiate(c, offered);
  if (!chosen) throw notAcceptable(offered);
  return chosen;
}

/** Whether the request's Accept names any media range at all (`x` or `;;` name none). */
export function namesMediaRange(c: Context): boolean {
  return parseAccept(c.req.header('accept') ?? '').some((entry) => mediaRangeOf(entry));
}

/** Whether the request's Accept names this media type itself (not by a wildcard) with q > 0. */
export function namesMediaType(c: Context, mediaType: string): boolean {
  return parseAccept(c.req.header('accept') ?? '').some((entry) => {
    const range = mediaRangeOf(entry);
    return range !== undefined && `${range.type}/${range.subtype}` === mediaType && range.q > 0;
  });
}

/** The bare media type of a Content-Type header: lower case, without parameters. */
export function essence(contentType: string | null | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}
