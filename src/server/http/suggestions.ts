/**
 * The name a client probably meant, for a 422 that refuses a misspelt field
 * (`allowdownload`, `redirectURL`): the known name it equals but for case and separators,
 * else one within two edits of it.
 */
export function suggestedName(name: string, known: readonly string[]): string | undefined {
  const folded = fold(name);
  const sameLetters = known.find((candidate) => fold(candidate) === folded);
  if (sameLetters) return sameLetters;
  // Two edits make any short name into another: only names long enough to be told apart.
  if (folded.length < 5) return undefined;
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(folded, fold(candidate), 2);
    if (distance <= 2 && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}

function fold(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Levenshtein distance of `a` and `b`, or `limit + 1` once it is known to be larger. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    if (Math.min(...current) > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}
