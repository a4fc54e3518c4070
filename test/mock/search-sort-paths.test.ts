/**
 * Sorting takes two roads: a numeric field's column (read_time, shares…) or
 * a key computed per article (composite keys). Both must give the order a
 * full sort gives, ties included.
 */
import { describe, expect, it } from 'vitest';
import { createSearchEngine } from '../../src/mock/search/index.js';
import { languageOf } from '../../src/mock/search/row.js';
import { SORT_KEYS, type SortBy, keyField, sortRows } from '../../src/mock/search/sort.js';
import { loadFixtures } from '../../src/mock/store/load.js';
import { ctx } from './search-fixture.js';

const now = new Date('2026-03-15T12:00:00Z');
const store = await loadFixtures({ now, articles: 3000 });
const engine = createSearchEngine(store);
const t = store.table;
const context = ctx({ now });

const BY: Exclude<SortBy, 'relevance'>[] = [
  'read_time',
  'sentiment.overall.score',
  'source.rank.opr',
  'shares.twitter.max',
  'media.images.width.max',
  'engagement',
  'quality',
];

function expected(
  by: Exclude<SortBy, 'relevance'>,
  order: 'asc' | 'desc',
  keep: (row: number) => boolean,
) {
  return sortRows(t, [...t.order].filter(keep), SORT_KEYS[by], order).map((row) => t.id.data[row]);
}

describe('both sorting roads', () => {
  it('include field sorts that read columns and composite ones that do not', () => {
    expect(keyField(SORT_KEYS.read_time)).toBe('read_time');
    expect(keyField(SORT_KEYS.engagement)).toBeUndefined();
  });

  it.each(BY)('%s: pages 1 and 3 as a full sort orders them', (by) => {
    for (const order of ['asc', 'desc'] as const) {
      const all = expected(by, order, () => true);
      for (const page of [1, 3]) {
        const body = engine.everything(
          { 'sort.by': by, 'sort.order': order, per_page: 40, page },
          context,
        ).body;
        const ids = (body['results'] as { id: number }[]).map((a) => a.id);
        expect(ids, `${by} ${order} page ${page}`).toEqual(all.slice((page - 1) * 40, page * 40));
        expect(body['has_next_pages']).toBe(page * 40 < all.length);
      }
      const german = expected(by, order, (row) => languageOf(t, row) === 'de');
      const body = engine.everything(
        { 'sort.by': by, 'sort.order': order, 'language.code': 'de', per_page: 25 },
        context,
      ).body;
      expect((body['results'] as { id: number }[]).map((a) => a.id)).toEqual(german.slice(0, 25));
    }
  });
});
