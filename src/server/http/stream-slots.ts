/**
 * How many event streams each token holds open in this process. A browser needs one or two
 * (the page and a frame in it); every stream costs a connection and a look at the store
 * every two seconds, so one token may not hold hundreds of them. Past the limit a new
 * stream is refused with 429 until one of the token's streams ends.
 */
import type { Principal } from '../tokens/tokens.js';

/** Open event streams one token may hold in one process (docs/api/runs.md, "Live updates"). */
export const eventStreamsPerToken = {
  /** A browser: the full page, or a partner's page and its frame, with room to reload. */
  session: 4,
  /** A partner's server, which may follow several runs of its people at once. */
  personal: 32,
} as const satisfies Record<Principal['kind'], number>;

export class StreamSlots {
  readonly #open = new Map<string, number>();

  /** Takes one of the token's slots: the function that gives it back, or `undefined` when none is free. */
  take(principal: Principal): (() => void) | undefined {
    const { tokenId } = principal;
    const open = this.#open.get(tokenId) ?? 0;
    if (open >= eventStreamsPerToken[principal.kind]) return undefined;
    this.#open.set(tokenId, open + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#open.get(tokenId) ?? 1) - 1;
      if (left > 0) this.#open.set(tokenId, left);
      else this.#open.delete(tokenId);
    };
  }
}
