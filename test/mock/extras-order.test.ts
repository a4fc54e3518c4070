/**
 * `--articles` extras are made newest first, ties by the higher index: the
 * keyed sort (age and index in one double) gives the comparator's order, and
 * falls back to it when the keys would not be exact.
 */
import { describe, expect, it } from 'vitest';
import { newestFirst } from '../../src/mock/store/extras.js';

const byComparator = (ages: Float64Array) =>
  Int32Array.from({ length: ages.length }, (_, i) => i).sort(
    (a, b) => (ages[a] as number) - (ages[b] as number) || b - a,
  );

/** A small seeded generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('newestFirst', () => {
  it.each([
    ['whole milliseconds over 400 days, with ties', 5_000, 400 * 86_400_000, true],
    ['few distinct ages: ties everywhere', 3_000, 20, true],
    ['fractions: the comparator', 2_000, 86_400_000, false],
    ['ages too large for exact keys: the comparator', 2_000, 2 ** 50, true],
  ])('%s', (_name, count, span, whole) => {
    const next = random(count);
    const ages = Float64Array.from({ length: count }, () =>
      whole ? Math.floor(next() * span) : next() * span,
    );
    expect(Array.from(newestFirst(ages))).toEqual(Array.from(byComparator(ages)));
  });

  it('no extras, one extra', () => {
    expect(Array.from(newestFirst(new Float64Array(0)))).toEqual([]);
    expect(Array.from(newestFirst(Float64Array.of(42)))).toEqual([0]);
  });
});
