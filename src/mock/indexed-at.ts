/**
 * When the mock indexed an article, for `sort.by=created_at` (and `new`):
 * a posted article is indexed when it is posted, whatever its published_at
 * (late indexing). Fixture articles carry no mark: they were indexed when
 * published. Kept beside the article, not in it, so responses do not change.
 */
import type { Article } from './fixtures/types.js';

const INDEXED_AT = new WeakMap<Article, number>();

export function markIndexed(article: Article, at: Date): void {
  INDEXED_AT.set(article, at.getTime());
}

export function indexedAtMs(article: Article): number | undefined {
  return INDEXED_AT.get(article);
}
