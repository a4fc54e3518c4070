import { describe, expect, it } from 'vitest';
import { BASE_ARTICLES } from '../../src/mock/fixtures/generate.js';
import { loadFixtures } from '../../src/mock/fixtures/load.js';

const NOW = new Date('2026-03-15T10:00:00.000Z');

describe('--articles growth', () => {
  it('grows the set to 100,000 articles, deterministically', () => {
    const big = loadFixtures({ now: NOW, articles: 100_000 });
    expect(big.articles.length).toBe(100_000);
    expect(big.articleById.size).toBe(100_000);
    for (let i = 1; i < big.publishedMs.length; i++)
      expect(big.publishedMs[i - 1]! >= big.publishedMs[i]!).toBe(true);
    // The synthetic stream does not depend on the total: a smaller growth is its prefix.
    const small = loadFixtures({ now: NOW, articles: BASE_ARTICLES + 500 });
    const extras = small.articles.filter((a) => a.id >= 700_000_000);
    expect(extras).toHaveLength(500);
    for (const a of extras)
      expect(JSON.stringify(big.articleById.get(a.id))).toBe(JSON.stringify(a));
    // The base set is untouched by growth.
    const base = loadFixtures({ now: NOW });
    for (const a of base.articles.slice(0, 100))
      expect(big.articleById.get(a.id)?.title).toBe(a.title);
    // Growth stays spread over the whole period.
    const now = NOW.getTime();
    expect(big.publishedMs.filter((m) => m > now - 31 * 86_400_000).length).toBeGreaterThan(25_000);
  }, 60_000);
});
