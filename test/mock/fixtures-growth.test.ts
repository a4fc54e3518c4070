import { describe, expect, it } from 'vitest';
import { BASE_ARTICLES } from '../../src/mock/fixtures/committed.js';
import { EXTRA_ID } from '../../src/mock/fixtures/generate.js';
import { loadFixtures } from '../../src/mock/store/load.js';
import { BODY } from '../../src/mock/store/table.js';

const NOW = new Date('2026-03-15T10:00:00.000Z');

describe('--articles growth', () => {
  it('grows the set to 100,000 articles in columns, deterministically', async () => {
    const big = await loadFixtures({ now: NOW, articles: 100_000 });
    const t = big.table;
    expect(big.size).toBe(100_000);
    const times = Float64Array.from(t.order, (row) => t.published.data[row]!);
    for (let i = 1; i < times.length; i++) expect(times[i - 1]! >= times[i]!).toBe(true);
    // The extras keep their columns only: their JSON is made again from the seed.
    const extras = [...t.order].filter((row) => t.bodyKind.data[row] === BODY.extra);
    expect(extras).toHaveLength(100_000 - BASE_ARTICLES);
    // The synthetic stream does not depend on the total: a smaller growth is its prefix.
    const small = await loadFixtures({ now: NOW, articles: BASE_ARTICLES + 500 });
    const smallExtras = small.articles.filter((a) => a.id >= EXTRA_ID);
    expect(smallExtras).toHaveLength(500);
    for (const a of smallExtras) expect(JSON.stringify(big.article(a.id))).toBe(JSON.stringify(a));
    // An extra made again has the date and the values its columns hold.
    const row = extras[1234]!;
    const made = big.json.article(row);
    expect(Date.parse(made.published_at)).toBe(t.published.data[row]);
    expect(made.title).toBe(t.titles[row]);
    expect(made.id).toBe(t.id.data[row]);
    // The base set is untouched by growth.
    const base = await loadFixtures({ now: NOW });
    for (const a of base.articles.slice(0, 100)) expect(big.article(a.id)?.title).toBe(a.title);
    // Growth stays spread over the whole period.
    const now = NOW.getTime();
    expect(times.filter((m) => m > now - 31 * 86_400_000).length).toBeGreaterThan(25_000);
  }, 60_000);
});
