// "Did you mean …?" for a mistyped command or option: the nearest name by
// edit distance (a swap of two neighbours counts once), as git and cobra suggest.

/** The most edits a suggestion may be away: two, and fewer for a short word, or "ab" would suggest anything. */
function maxDistance(word: string): number {
  return Math.min(2, Math.max(1, Math.floor(word.length / 3)));
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of adjacent characters. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      const previous = rows[i - 1];
      const row = rows[i] as number[];
      if (previous === undefined) {
        row.push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, (rows[i - 2]?.[j - 2] ?? 0) + 1);
      row.push(best);
    }
  }
  return rows[a.length]?.[b.length] ?? Math.max(a.length, b.length);
}

/** The candidate nearest to `word` within the distance above (the first of equals), or undefined. */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  // Bounded: a pasted paragraph is no mistyped name.
  if (word.length > 64) return undefined;
  const lower = word.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(lower, name.toLowerCase());
    if (distance <= maxDistance(word) && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}
