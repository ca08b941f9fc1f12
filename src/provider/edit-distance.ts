/**
 * Edit distance between two names, for did-you-mean hints and password-like names. Two adjacent
 * letters swapped count as one edit (`bcm` is one edit from `bmc`), as the commonest typing slip
 * should: with insertions, deletions and substitutions alone a swap costs two, and then `bcm` is as
 * close to `mtm` as to `bmc`.
 */

/**
 * The optimal-string-alignment distance (insertions, deletions, substitutions and swaps of two
 * adjacent characters) between `a` and `b`, or `limit` when it is at least `limit` (the length
 * difference alone decides that without the full table).
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      let best = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (beforePrevious[j - 2] ?? 0) + 1);
      }
      current.push(best);
    }
    beforePrevious = previous;
    previous = current;
  }
  return Math.min(previous[b.length] ?? limit, limit);
}

/**
 * The candidate closest to `name` that is near enough to be what was meant (fewer edits than a
 * third of the name, at least 2), the first in name order among equals; undefined when none is.
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.max(2, Math.ceil(name.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const candidate of [...candidates].sort()) {
    const distance = editDistance(name, candidate, limit);
    if (distance < limit && (best === undefined || distance < best.distance))
      best = { name: candidate, distance };
  }
  return best?.name;
}
