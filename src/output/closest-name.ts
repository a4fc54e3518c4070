/**
 * "Did you mean": the known names closest to a mistyped one, for every
 * place that suggests one (fields, config keys, MCP tools and arguments,
 * flags, commands, help topics), over one edit distance. Dependency-free:
 * used on error paths of start-up code.
 */

/**
 * Optimal string alignment distance: an insertion, a deletion, a
 * substitution or a swap of two neighbours (`gte` → `get`) costs one.
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  let before: number[] = [];
  for (let i = 1; i <= a.length; i++) {
    const last = row.slice();
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      const swap =
        i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]
          ? before[j - 2]! + 1
          : Number.POSITIVE_INFINITY;
      row[j] = Math.min(
        above + 1,
        row[j - 1]! + 1,
        diagonal + (a[i - 1] === b[j - 1] ? 0 : 1),
        swap,
      );
      diagonal = above;
    }
    before = last;
  }
  return row[b.length]!;
}

/**
 * Field and key names: up to `max` of the closest within reach of `typed`
 * (ties at the best distance, shortest first); empty when nothing is close. Lower-case, plus a bonus for names that end
 * with the typed text (`name` → `source.name`), so a short field finds its
 * dotted home.
 */
export function closestNames(typed: string, names: readonly string[], max = 3): string[] {
  const t = typed.toLowerCase();
  const scored: { name: string; score: number }[] = [];
  for (const name of names) {
    const n = name.toLowerCase();
    let score = editDistance(t, n);
    // The last dotted part typed alone, or a part of the path typed exactly.
    const tail = n.slice(n.lastIndexOf('.') + 1);
    if (t.length >= 2 && (tail === t || n.endsWith(`.${t}`))) score = Math.min(score, 1);
    else score = Math.min(score, editDistance(t, tail) + 1);
    const limit = Math.max(2, Math.floor(t.length / 3));
    if (score <= limit) scored.push({ name, score });
  }
  scored.sort((a, b) => a.score - b.score || a.name.length - b.name.length);
  // Only the closest: `tilte` is a swap from `title`, and `sentiment.title` one more step away.
  const best = scored[0]?.score;
  return scored
    .filter((s) => s.score === best)
    .slice(0, max)
    .map((s) => s.name);
}

/**
 * Flags and commands: up to `max` candidates close to `input`, best first;
 * none when nothing is close. A name the input starts (`--language` →
 * `--language-code`) wins over spelling distance (`gte` → `get`).
 */
export function closestByPrefix(input: string, candidates: readonly string[], max = 3): string[] {
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
    .map((c) => ({ c, d: editDistance(typed, bare(c)) }))
    .filter(({ d }) => d <= limit)
    .sort((x, y) => x.d - y.d || x.c.localeCompare(y.c))
    .slice(0, max)
    .map(({ c }) => c);
}

/** A flag's or command's `hint:` line: `did you mean X?`, `did you mean one of X, Y?`; undefined for none. */
export function suggestionHint(found: readonly string[]): string | undefined {
  if (found.length === 0) return undefined;
  return `did you mean ${found.length === 1 ? found[0] : `one of ${found.join(', ')}`}?`;
}

/** ` did you mean a, b?` style hint text for a field or key, or undefined when nothing is close. */
export function didYouMean(typed: string, names: readonly string[]): string | undefined {
  const close = closestNames(typed, names);
  return close.length === 0 ? undefined : `did you mean ${close.join(', ')}?`;
}
