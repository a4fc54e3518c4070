/** Records shaped as the service sends them: the mock's committed fixture articles and directory entries. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { ApiRecord } from '../../src/output/types.js';

const data = join(import.meta.dirname, '..', '..', 'fixtures', 'data');

function gz(file: string): unknown {
  return JSON.parse(gunzipSync(readFileSync(join(data, file))).toString('utf8'));
}

let articles: ApiRecord[] | undefined;

/** The first `count` fixture articles (full ones: entities, categories, topics, …). */
export function fixtureArticles(count: number): ApiRecord[] {
  articles ??= gz('articles-00.json.gz') as ApiRecord[];
  return structuredClone(articles.slice(0, count));
}

/** People of the directory, as /v1/people lists them. */
export function fixturePeople(count: number): ApiRecord[] {
  const catalogue = gz('catalogue.json.gz') as { people: ApiRecord[] };
  return catalogue.people.slice(0, count);
}

/** The lists of an article that have child tables (`articles__<list>`). */
export const ARTICLE_LISTS = [
  'entities',
  'categories',
  'topics',
  'industries',
  'events',
  'locations_mentioned',
] as const;

/** How many items each article's list holds, summed. */
export function listTotal(records: readonly ApiRecord[], field: string): number {
  return records.reduce(
    (n, r) => n + (Array.isArray(r[field]) ? (r[field] as unknown[]).length : 0),
    0,
  );
}
