/**
 * "Did you mean": the known names closest to a mistyped one. Damerau-free
 * Levenshtein distance over lower-case text, plus a bonus for names that end
 * with the typed text (`name` → `source.name`), so a short field finds its
 * dotted home. Dependency-free: used on error paths of start-up code.
 */

function distance(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Up to `max` names within reach of `typed`, closest first; empty when nothing is close. */
export function closestNames(typed: string, names: readonly string[], max = 3): string[] {
  const t = typed.toLowerCase();
  const scored: { name: string; score: number }[] = [];
  for (const name of names) {
    const n = name.toLowerCase();
    let score = distance(t, n);
    // The last dotted part typed alone, or a part of the path typed exactly.
    const tail = n.slice(n.lastIndexOf('.') + 1);
    if (t.length >= 2 && (tail === t || n.endsWith(`.${t}`))) score = Math.min(score, 1);
    else score = Math.min(score, distance(t, tail) + 1);
    const limit = Math.max(2, Math.floor(t.length / 3));
    if (score <= limit) scored.push({ name, score });
  }
  scored.sort((a, b) => a.score - b.score || a.name.length - b.name.length);
  return scored.slice(0, max).map((s) => s.name);
}

/** ` did you mean a, b?` style hint text, or undefined when nothing is close. */
export function didYouMean(typed: string, names: readonly string[]): string | undefined {
  const close = closestNames(typed, names);
  return close.length === 0 ? undefined : `did you mean ${close.join(', ')}?`;
}
