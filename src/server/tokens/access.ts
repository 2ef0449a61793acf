/**
 * What each token may see. A personal access token sees everything; an embed session
 * sees its extractor, its bucket and that bucket's runs of its extractor, and nothing
 * else. Whatever lies outside is reported exactly as a missing thing is (NotFoundError),
 * so ids cannot be probed.
 */
import { NotFoundError } from '../errors.js';
import type { Principal } from './tokens.js';

export type PersonalPrincipal = Extract<Principal, { kind: 'personal' }>;

export function isPersonal(principal: Principal): principal is PersonalPrincipal {
  return principal.kind === 'personal';
}

/** Only personal access tokens get past; a session token is told there is nothing here. */
export function requirePersonal(principal: Principal): asserts principal is PersonalPrincipal {
  if (!isPersonal(principal)) throw new NotFoundError();
}

export function canSeeBucket(principal: Principal, bucketId: string): boolean {
  return principal.kind === 'personal' || principal.bucketId === bucketId;
}

export function canSeeExtractor(principal: Principal, extractorId: string): boolean {
  return principal.kind === 'personal' || principal.extractorId === extractorId;
}

export function canSeeRun(
  principal: Principal,
  run: { bucket_id: string; extractor_id: string },
): boolean {
  return canSeeBucket(principal, run.bucket_id) && canSeeExtractor(principal, run.extractor_id);
}
