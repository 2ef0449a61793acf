/**
 * Media-type negotiation in one place. `Accept` is read with its q-values (RFC 9110 §12.5.1):
 * the most specific range that matches an offered type decides that type's quality, and
 * the offered type with the highest quality wins, ties going to the earlier offer. No
 * `Accept` (or `*\/*`) gives the first offer, which is always JSON.
 */
import { notAcceptable } from './problem.js';

export const resourceMediaTypes = [
  'application/json',
  'application/vnd.api+json',
  'application/ld+json',
  'text/csv',
  'text/html',
] as const;
export type ResourceMediaType = (typeof resourceMediaTypes)[number];

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

export function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [range, ...params] = part.trim().split(';');
    const [type, subtype] = (range ?? '').trim().toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=').map((piece) => piece.trim());
      if (name?.toLowerCase() === 'q') {
        const parsed = Number(value);
        q = Number.isFinite(parsed) ? Math.min(Math.max(parsed, 0), 1) : 0;
      }
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}

function specificity(range: MediaRange, type: string, subtype: string): number {
  if (range.type === type && range.subtype === subtype) return 3;
  if (range.type === type && range.subtype === '*') return 2;
  if (range.type === '*' && range.subtype === '*') return 1;
  return 0;
}

/** The offered type to answer with, or `undefined` when the client accepts none of them. */
export function negotiate<T extends string>(
  accept: string | null | undefined,
  offered: readonly T[],
): T | undefined {
  if (!accept || !accept.trim()) return offered[0];
  const ranges = parseAccept(accept);
  if (ranges.length === 0) return offered[0];
  let best: T | undefined;
  let bestQ = 0;
  for (const candidate of offered) {
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

export function negotiateOrThrow<T extends string>(
  accept: string | null | undefined,
  offered: readonly T[],
): T {
  const chosen = negotiate(accept, offered);
  if (!chosen) throw notAcceptable(offered);
  return chosen;
}

/** The bare media type of a Content-Type header: lower case, without parameters. */
export function essence(contentType: string | null | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}
