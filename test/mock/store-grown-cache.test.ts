/**
 * A grown set kept between runs (src/mock/store/grown-cache.ts): written by
 * the start that makes it, read by the next one, the same articles field for
 * field whatever `now` each start has; a damaged file is made again.
 */
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { grownFile, grownSaved } from '../../src/mock/store/grown-cache.js';
import { loadFixtures } from '../../src/mock/store/load.js';
import { namedColumns } from '../../src/mock/store/table-layout.js';
import type { FixtureStore } from '../../src/mock/store/fixture-store.js';

const dir = mkdtempSync(join(tmpdir(), 'news-grown-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ARTICLES = 2600;
const NOW = new Date('2026-03-15T12:00:00.000Z');
const LATER = new Date('2026-07-01T08:30:00.000Z');

/** Every column's values and every indexed article, newest first. */
function contents(store: FixtureStore) {
  const columns = Object.fromEntries(
    namedColumns(store.table).map(([name, c]) => [name, Array.from(c.data.subarray(0, c.length))]),
  );
  return {
    columns,
    order: Array.from(store.table.order),
    dicts: Object.fromEntries(Object.entries(store.table.dict).map(([k, d]) => [k, d.values])),
    titles: [...store.table.titles],
  };
}

/** Every indexed article's JSON, newest first (text compares faster than objects). */
const articles = (store: FixtureStore): string[] =>
  Array.from(store.table.order, (row) => store.json.bytes(row).toString('utf8'));

describe('a grown set kept in the cache directory', () => {
  it('is written by the start that makes it and read by the next, the same set', async () => {
    const cacheDir = join(dir, 'a');
    const made = await loadFixtures({ now: NOW, articles: ARTICLES, cacheDir });
    await grownSaved();
    const file = grownFile(cacheDir, made.seed, ARTICLES).path;
    expect(readdirSync(cacheDir)).toEqual([file.slice(cacheDir.length + 1)]);
    const kept = await loadFixtures({ now: NOW, articles: ARTICLES, cacheDir });
    expect(contents(kept)).toEqual(contents(made));
    expect(articles(kept)).toEqual(articles(made));
    expect(kept.journalists).toEqual(made.journalists);
    expect(kept.suggest.entities).toEqual(made.suggest.entities);
  });

  it('holds no date of its own: another --now gives what the generator gives for it', async () => {
    const cacheDir = join(dir, 'b');
    await loadFixtures({ now: NOW, articles: ARTICLES, cacheDir });
    await grownSaved();
    const kept = await loadFixtures({ now: LATER, articles: ARTICLES, cacheDir });
    const fresh = await loadFixtures({ now: LATER, articles: ARTICLES });
    expect(contents(kept)).toEqual(contents(fresh));
    expect(articles(kept)).toEqual(articles(fresh));
  });

  it('makes a damaged file again', async () => {
    const cacheDir = join(dir, 'c');
    const { path } = grownFile(cacheDir, 20240611, ARTICLES);
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(path, 'not a store file');
    const again = await loadFixtures({ now: NOW, articles: ARTICLES, cacheDir });
    await grownSaved();
    expect(again.size).toBe(ARTICLES);
    expect(articles(await loadFixtures({ now: NOW, articles: ARTICLES }))).toEqual(articles(again));
    expect(readFileSync(path).subarray(0, 8).toString()).toBe('NEWSSTOR');
  });

  it('keeps the three newest files', async () => {
    const cacheDir = join(dir, 'd');
    for (const [i, n] of [2500, 2501, 2502, 2503].entries()) {
      await loadFixtures({ now: NOW, articles: n, cacheDir });
      await grownSaved();
      // Older modification times for the earlier ones, whatever the clock's resolution.
      const { path } = grownFile(cacheDir, 20240611, n);
      const t = new Date(NOW.getTime() + i * 60_000);
      utimesSync(path, t, t);
    }
    await loadFixtures({ now: NOW, articles: 2504, cacheDir });
    await grownSaved();
    const left = readdirSync(cacheDir).sort();
    expect(left).toHaveLength(3);
    expect(left.some((n) => n.includes('-2504-'))).toBe(true);
    expect(left.some((n) => n.includes('-2500-'))).toBe(false);
  });
});
