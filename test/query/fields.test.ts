import { expect, test } from 'vitest';
import { queryFields } from '../../src/params/query/index.js';
import { SEARCH_PARAMS } from '../../src/params/search-params.js';

const fields = new Map(queryFields().map((f) => [f.name, f]));

test('every filter of the parameter table is a field, under its base name', () => {
  for (const def of SEARCH_PARAMS) {
    if (['Pagination', 'Highlighting', 'Facets', 'Output'].includes(def.group)) continue;
    if (
      ['query', 'prompt', 'search'].includes(def.name) ||
      /^location\.(bbox|lat|lng|radius)/.test(def.name)
    )
      continue;
    const base = def.name
      .replace(/^ignore\./, '')
      .replace(/^title_/, 'title.')
      .replace(/\.(min|max|start|end)$/, '');
    expect(fields.has(base), `${def.name} → ${base}`).toBe(true);
  }
});

test('names that are not fields', () => {
  for (const name of [
    'query',
    'prompt',
    'search',
    'page',
    'per_page',
    'sort.by',
    'hl',
    'facet.field',
    'fl',
    'ignore.title',
    'read_time.min',
    'published_at.start',
    'title_starts_with',
    'location.lat',
  ]) {
    expect(fields.has(name), name).toBe(false);
  }
});

test.each([
  ['title', 'text'],
  ['title.starts_with', 'text'],
  ['title.ends_with', 'text'],
  ['title.pattern', 'text'],
  ['person.name', 'text'],
  ['author.name', 'text'],
  ['language.code', 'keyword'],
  ['source.bias', 'keyword'],
  ['category.id', 'keyword'],
  ['source.domain', 'keyword'],
  ['read_time', 'integer'],
  ['source.rank.opr', 'integer'],
  ['media.images.width', 'integer'],
  ['sentiment.overall.score', 'number'],
  ['sentiment_gap', 'number'],
  ['has_image', 'flag'],
  ['is_breaking', 'flag'],
  ['published_at', 'date'],
  ['entity.id', 'keyword'],
  ['entity.name', 'text'],
  ['entity.type', 'keyword'],
  ['entity.sentiment.polarity', 'keyword'],
  ['entity.sentiment.score', 'number'],
])('%s is %s', (name, type) => {
  expect(fields.get(name)?.type).toBe(type);
});

test('entity fields and where they are legal', () => {
  const where = (name: string) => {
    const f = fields.get(name);
    return [f?.inEntityBlock, f?.outsideEntityBlock];
  };
  expect(where('entity.id')).toEqual([true, true]);
  expect(where('entity.name')).toEqual([true, false]);
  expect(where('entity.type')).toEqual([true, false]);
  expect(where('entity.sentiment.polarity')).toEqual([true, false]);
  expect(where('entity.sentiment.score')).toEqual([true, false]);
  expect(where('title')).toEqual([false, true]);
  expect(where('person.name')).toEqual([false, true]);
});

test('values come from the table', () => {
  expect(fields.get('source.bias')?.values).toEqual(['left', 'center', 'right']);
  expect(fields.get('entity.sentiment.polarity')?.values).toEqual([
    'positive',
    'negative',
    'neutral',
  ]);
  expect(fields.get('has_image')?.values).toEqual(['0', '1']);
  expect(fields.get('event.type')?.values).toContain('merger-acquisition');
  expect(fields.get('title')?.values).toBeUndefined();
});

test('docs/QUERY-LANGUAGE.md lists every field under its type, and no other', async () => {
  const { readFile } = await import('node:fs/promises');
  const doc = await readFile(new URL('../../docs/QUERY-LANGUAGE.md', import.meta.url), 'utf8');
  const documented = new Map<string, string>();
  for (const line of doc.split('\n')) {
    const row = /^\| (text|keyword|integer|number|flag|date) \| [^|]*\| (.*) \|$/.exec(line);
    if (!row?.[1] || row[2] === undefined) continue;
    for (const m of row[2].matchAll(/`([^`]+)`/g)) documented.set(m[1] as string, row[1]);
  }
  const actual = new Map(queryFields().map((f) => [f.name, f.type as string]));
  expect(Object.fromEntries(documented)).toEqual(Object.fromEntries(actual));
});
