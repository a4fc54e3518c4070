/**
 * The fixture store (src/mock/store/): the file the build writes, the
 * columns, the article bytes, and how the table grows and shrinks.
 */
// needs dist/: the store file the build wrote (storeFilePath) is checked against a fresh encoding.
// own process: it drops rows from the fixture store every mock of the process is built on.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  COMMITTED_SEED,
  REFERENCE_INSTANT,
  fixturesDataDir,
} from '../../src/mock/fixtures/committed.js';
import { catalogueLists, parseFiles } from '../../src/mock/fixtures/data-files.js';
import { ExtraArticles } from '../../src/mock/fixtures/generate.js';
import { buildWorld } from '../../src/mock/fixtures/world.js';
import { buildCatalogue } from '../../src/mock/store/catalogue.js';
import { makeExtras } from '../../src/mock/store/extras.js';
import {
  COMMITTED_FILES,
  committedSource,
  encodeSet,
  loadFixtures,
  storeFilePath,
} from '../../src/mock/store/load.js';
import { readStoreFile, writeStoreFile } from '../../src/mock/store/store-file.js';
import { ArticleTable, BODY } from '../../src/mock/store/table.js';
import {
  CODED_COLUMNS,
  appendTable,
  compactTable,
  namedColumns,
} from '../../src/mock/store/table-layout.js';

const NOW = new Date('2026-03-15T12:00:00.000Z');
const dir = mkdtempSync(join(tmpdir(), 'news-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The committed files encoded now, as build-store.ts does. */
function encodeCommitted() {
  const data = fixturesDataDir();
  const { catalogue, articles } = parseFiles((name) => readFileSync(join(data, name)));
  const set = encodeSet(articles, catalogueLists(catalogue));
  return { set, source: committedSource(data, COMMITTED_FILES) };
}

/** Every column value of every row, codes read through their dictionaries. */
function values(table: ArticleTable): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const [name, column] of namedColumns(table)) {
    const dict = CODED_COLUMNS[name];
    const raw = Array.from(column.data.subarray(0, column.length));
    out[name] =
      dict === undefined ? raw : raw.map((code) => JSON.stringify(table.dict[dict].values[code]));
  }
  out['titles'] = [...table.titles];
  return out;
}

describe('the store file', () => {
  it('the build wrote the committed fixtures as they encode now (run `npm run build` after a change)', () => {
    const { set, source } = encodeCommitted();
    const fresh = join(dir, 'fresh.bin');
    writeStoreFile(fresh, {
      seed: COMMITTED_SEED,
      reference: new Date(REFERENCE_INSTANT).toISOString(),
      source,
      table: set.table,
      json: set.json,
      catalogue: buildCatalogue(set.table, set.lists),
    });
    expect(readFileSync(fresh).equals(readFileSync(storeFilePath()))).toBe(true);
  });

  it('is refused when stale or damaged (store-fallback.test.ts: the store is then encoded in memory)', () => {
    const { source } = encodeCommitted();
    const good = readFileSync(storeFilePath());
    expect(readStoreFile(storeFilePath(), source)).toBeDefined();
    // Built from other files (a regenerated data set): refused.
    const first = COMMITTED_FILES[0] as string;
    expect(readStoreFile(storeFilePath(), { ...source, [first]: 1 })).toBeUndefined();
    // Cut short, or not a store file at all: refused.
    const cut = join(dir, 'cut.bin');
    writeFileSync(cut, good.subarray(0, good.length - 100));
    expect(readStoreFile(cut, source)).toBeUndefined();
    writeFileSync(cut, 'not a store');
    expect(readStoreFile(cut, source)).toBeUndefined();
    expect(readStoreFile(join(dir, 'missing.bin'), source)).toBeUndefined();
  });

  it('loads the same articles and columns as an encoding in memory', async () => {
    const store = await loadFixtures({ now: NOW });
    const { set } = encodeCommitted();
    // The file's dates are relative; a loaded store's are shifted to `now`.
    const shift = NOW.getTime() - REFERENCE_INSTANT;
    const shifted = values(set.table);
    shifted['published'] = (shifted['published'] as number[]).map((ms) => ms + shift);
    shifted['created'] = (shifted['created'] as number[]).map((ms) => ms + shift);
    expect(values(store.table)).toEqual(shifted);
    const fromMemory = parseFiles((name) => readFileSync(join(fixturesDataDir(), name))).articles;
    const byId = new Map(store.articles.map((a) => [a.id, a]));
    for (const a of fromMemory.slice(0, 300)) {
      const loaded = byId.get(a.id)!;
      expect(Date.parse(loaded.published_at) - Date.parse(a.published_at)).toBe(shift);
      expect({ ...loaded, published_at: a.published_at }).toEqual(a);
    }
  });
});

describe('the article table', () => {
  const world = buildWorld(COMMITTED_SEED);
  const extras = new ExtraArticles(world, COMMITTED_SEED);
  const indexes = Int32Array.from({ length: 600 }, (_, i) => i);
  const published = Float64Array.from(indexes, (i) => NOW.getTime() - i * 60_000);

  it('holds the same values for an extra made lean as for the whole article', async () => {
    const lean = new ArticleTable();
    await makeExtras({ seed: COMMITTED_SEED, indexes, published }, lean, extras);
    const whole = new ArticleTable();
    for (const [k, i] of indexes.entries()) {
      const ms = published[k] as number;
      whole.append(extras.make(i), { kind: BODY.extra, ref: i }, ms, ms);
    }
    expect(values(lean)).toEqual(values(whole));
  });

  it('is the same made in parts and merged (worker threads) as made in one go', async () => {
    const one = new ArticleTable();
    await makeExtras({ seed: COMMITTED_SEED, indexes, published }, one, extras);
    const merged = new ArticleTable();
    for (const [from, to] of [
      [0, 250],
      [250, 600],
    ] as const) {
      const part = new ArticleTable();
      await makeExtras(
        {
          seed: COMMITTED_SEED,
          indexes: indexes.slice(from, to),
          published: published.slice(from, to),
        },
        part,
        extras,
      );
      appendTable(merged, part);
    }
    expect(values(merged)).toEqual(values(one));
  });

  it('drops rows from the index and, compacted, keeps the others with their values', async () => {
    const store = await loadFixtures({ now: NOW });
    const t = store.table;
    const before = store.articles;
    const gone = new Set([t.order[3]!, t.order[10]!, t.order[2000]!]);
    const goneIds = [...gone].map((row) => t.id.data[row]);
    t.remove(gone);
    expect(store.size).toBe(before.length - 3);
    for (const id of goneIds) expect(store.article(id!)).toBeUndefined();
    const kept = before.filter((a) => !goneIds.includes(a.id));
    expect(store.articles).toEqual(kept);
    const generation = t.generation;
    compactTable(t);
    expect(t.generation).toBe(generation + 1);
    expect(t.rows).toBe(kept.length);
    expect(store.articles).toEqual(kept);
    expect(store.rowsOf('entity', kept[0]!.entities[0]!.id).length).toBeGreaterThan(0);
  });
});
