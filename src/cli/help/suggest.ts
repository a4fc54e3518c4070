/**
 * "Did you mean": the closest names to a typo. A name the input starts
 * (`--language` → `--language-code`) wins over spelling distance (`gte` → `get`).
 */

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      const swap =
        i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1] ? previous : Infinity;
      row[j] = Math.min(
        row[j]! + 1,
        row[j - 1]! + 1,
        previous + (a[i - 1] === b[j - 1] ? 0 : 1),
        swap,
      );
      previous = current;
    }
  }
  return row[b.length]!;
}

/** Up to `max` candidates close to `input`, best first; none when nothing is close. */
export function closest(input: string, candidates: readonly string[], max = 3): string[] {
  const unique = [...new Set(candidates)].filter((c) => c !== input);
  const bare = (s: string) => s.replace(/^-+/, '');
  const typed = bare(input);
  if (typed.length === 0) return [];
  const starting = unique
    .filter((c) => bare(c).startsWith(typed))
    .sort((a, b) => a.length - b.length);
  if (starting.length > 0) return starting.slice(0, max);
  const limit = Math.max(1, Math.min(3, Math.floor(typed.length / 3)));
  return unique
    .map((c) => ({ c, d: distance(typed, bare(c)) }))
    .filter(({ d }) => d <= limit)
    .sort((x, y) => x.d - y.d || x.c.localeCompare(y.c))
    .slice(0, max)
    .map(({ c }) => c);
}

/** The `hint:` line for what `closest` found; undefined when it found nothing. */
export function didYouMean(found: readonly string[]): string | undefined {
  if (found.length === 0) return undefined;
  return `did you mean ${found.length === 1 ? found[0] : `one of ${found.join(', ')}`}?`;
}
