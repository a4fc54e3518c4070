/**
 * GET /v1/suggest/{entities,categories,topics,industries}?prefix=… — bare
 * arrays, as in the OpenAPI document. Matching is case-insensitive: names
 * that start with the prefix come first, then names with a later word that
 * starts with it ("musk" finds "Elon Musk"); topics also match on their slug
 * ("economy." lists the economy group). At most `SUGGEST_LIMIT` items; free.
 */
import { MockHttpError } from './error-envelope.js';
import type { FixtureStore } from './store/fixture-store.js';

export type SuggestKind = 'entities' | 'categories' | 'topics' | 'industries';
export const SUGGEST_LIMIT = 10;

interface Named {
  name: string;
  id: number | string;
}

export function suggest(store: FixtureStore, kind: SuggestKind, prefixParam: unknown): unknown[] {
  const prefix =
    typeof prefixParam === 'string' || typeof prefixParam === 'number'
      ? String(prefixParam).trim()
      : '';
  if (prefix === '') throw new MockHttpError(400, undefined, 'The prefix parameter is required.');
  const items: readonly Named[] = store.suggest[kind];
  return rank(items, prefix.toLowerCase(), kind === 'topics').slice(0, SUGGEST_LIMIT);
}

function rank<T extends Named>(items: readonly T[], prefix: string, matchId: boolean): T[] {
  const starts: T[] = [];
  const words: T[] = [];
  for (const item of items) {
    const name = item.name.toLowerCase();
    if (name.startsWith(prefix) || (matchId && String(item.id).toLowerCase().startsWith(prefix))) {
      starts.push(item);
    } else if (name.split(/[\s\-/&,.()]+/).some((w, i) => i > 0 && w.startsWith(prefix))) {
      words.push(item);
    }
  }
  const byName = (a: T, b: T): number =>
    a.name.length - b.name.length || a.name.localeCompare(b.name);
  return [...starts.sort(byName), ...words.sort(byName)];
}
