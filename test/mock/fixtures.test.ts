import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import {
  BASE_ARTICLES,
  COMMITTED_SEED,
  fixturesDataDir,
} from '../../src/mock/fixtures/committed.js';
import { decompress, serialize } from '../../src/mock/fixtures/data-files.js';
import { generateBase } from '../../src/mock/fixtures/generate.js';
import type { FixtureStore } from '../../src/mock/fixtures/types.js';
import { loadFixtures } from '../../src/mock/store/load.js';

const NOW = new Date('2026-03-15T10:00:00.000Z');
const DAY = 86_400_000;
const store: FixtureStore = await loadFixtures({ now: NOW });

/** published_at of every indexed article, newest first, as numbers. */
const publishedMs = (s: FixtureStore): Float64Array =>
  Float64Array.from(s.table.order, (row) => s.table.published.data[row]!);
/** Articles of the rows. */
const articlesOf = (s: FixtureStore, rows: readonly number[]) =>
  rows.map((row) => s.json.article(row));

// The project's copy of the provider's document (spec/README.md).
const openapi = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'spec', 'openapi.json'), 'utf8'),
) as {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content: Record<string, { schema: unknown }> }> }>
  >;
};
function responseSchema(path: string, method: string): Record<string, unknown> {
  const schema =
    openapi.paths[path]?.[method]?.responses['200']?.content['application/json']?.schema;
  if (!schema) throw new Error(`no schema for ${method} ${path}`);
  return schema as Record<string, unknown>;
}
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

describe('fixture data set', () => {
  it('is deterministic for a seed and now', async () => {
    const again = await loadFixtures({ now: NOW });
    expect(JSON.stringify(again.articles)).toBe(JSON.stringify(store.articles));
    expect(again.journalists).toEqual(store.journalists);
  });

  it('committed files equal a fresh generation (run `npm run fixtures` after changing the generator)', () => {
    const fresh = serialize(generateBase(COMMITTED_SEED));
    const dir = fixturesDataDir();
    const committed = readdirSync(dir)
      .filter((n) => n.endsWith('.json.gz'))
      .sort();
    expect(committed).toEqual([...fresh.keys()]);
    for (const [name, text] of fresh) {
      const file = readFileSync(join(dir, name));
      expect(file.length).toBeLessThan(5 * 1024 * 1024);
      expect(decompress(file) === text, `${name} differs from a fresh generation`).toBe(true);
    }
  });

  it('has the required breadth', () => {
    expect(store.articles.length).toBe(BASE_ARTICLES);
    expect(store.articles.length).toBeGreaterThanOrEqual(2000);
    expect(new Set(store.articles.map((a) => a.language)).size).toBeGreaterThanOrEqual(8);
    expect(new Set(store.articles.map((a) => a.source.id)).size).toBeGreaterThanOrEqual(100);
    expect(
      new Set(store.articles.map((a) => a.source.location.country_code)).size,
    ).toBeGreaterThanOrEqual(20);
    for (const s of store.sources) {
      expect(['left', 'center', 'right']).toContain(s.bias);
      expect(s.country_code).toMatch(/^[A-Z]{2}$/);
    }
  });

  it('spans the 400 days before now, newest first, with plenty in the last 31 days and the last day', () => {
    const ms = publishedMs(store);
    const now = NOW.getTime();
    for (let i = 1; i < ms.length; i++) expect(ms[i - 1]!).toBeGreaterThanOrEqual(ms[i]!);
    expect(ms[0]!).toBeLessThanOrEqual(now);
    expect(now - ms[ms.length - 1]!).toBeGreaterThan(390 * DAY);
    expect(now - ms[ms.length - 1]!).toBeLessThanOrEqual(400 * DAY);
    expect(ms.filter((m) => m > now - 31 * DAY).length).toBeGreaterThanOrEqual(600);
    expect(ms.filter((m) => m > now - DAY).length).toBeGreaterThanOrEqual(30);
    expect(Date.parse(store.articles[0]!.published_at)).toBe(ms[0]);
  });

  it('shifts dates with now', async () => {
    const later = await loadFixtures({ now: new Date(NOW.getTime() + 10 * DAY) });
    expect(publishedMs(later)[0]! - publishedMs(store)[0]!).toBe(10 * DAY);
    expect(later.articles[5]!.id).toBe(store.articles[5]!.id);
  });

  it('every article is valid against the OpenAPI article schema', () => {
    const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
    const everything = responseSchema('/v1/news/everything', 'post') as {
      properties: { results: { items: object } };
    };
    const validate = ajv.compile(everything.properties.results.items);
    const bad = store.articles.filter((a) => !validate(a));
    expect(bad.length, JSON.stringify(validate.errors)).toBe(0);
    // Nothing is missing either: every schema property is present in every article
    // (image only when the article has images).
    const props = Object.keys(
      (everything.properties.results.items as { properties: object }).properties,
    );
    for (const a of store.articles.slice(0, 200)) {
      for (const p of props)
        if (p !== 'image' || a.media.some((m) => m.type === 'image')) expect(a).toHaveProperty(p);
    }
  });

  it('suggest items, directory records and event types match their response schemas', () => {
    const ajv = addFormats(new Ajv({ strict: false }));
    const check = (path: string, data: unknown): void => {
      const validate = ajv.compile(responseSchema(path, 'get'));
      expect(validate(data), `${path}: ${JSON.stringify(validate.errors)}`).toBe(true);
    };
    check('/v1/suggest/entities', store.suggest.entities);
    check('/v1/suggest/categories', store.suggest.categories);
    check('/v1/suggest/topics', store.suggest.topics);
    check('/v1/suggest/industries', store.suggest.industries);
    const list = (results: unknown[]) => ({
      status: 'ok',
      limit: 100,
      page: 1,
      has_next_pages: false,
      results,
    });
    check('/v1/people', list(store.people));
    check('/v1/companies', list(store.companies));
    check('/v1/journalists', list(store.journalists));
    check('/v1/news/event-types', {
      status: 'ok',
      categories: store.eventCategories,
      event_types: store.eventTypes,
    });
  });

  it('has the 44 event types with the categories the spec fixes', () => {
    expect(store.eventTypes).toHaveLength(44);
    expect(new Set(store.eventTypes.map((e) => e.code)).size).toBe(44);
    const category = new Map(store.eventTypes.map((e) => [e.code, e.category]));
    for (const code of ['merger-acquisition', 'ipo', 'layoffs'])
      expect(category.get(code)).toBe('business');
    for (const code of ['election', 'protest']) expect(category.get(code)).toBe('society');
    for (const code of ['earthquake', 'wildfire']) expect(category.get(code)).toBe('environment');
    // Articles carry events whose category agrees with the table.
    for (const a of store.articles)
      for (const e of a.events) expect(category.get(e.type)).toBe(e.category);
  });

  it('ties people, companies and journalists to articles', () => {
    expect(store.people.length).toBeGreaterThanOrEqual(30);
    expect(store.companies.length).toBeGreaterThanOrEqual(30);
    for (const p of [...store.people, ...store.companies]) {
      expect(store.rowsOf('entity', p.id).length).toBeGreaterThan(0);
      expect(p.links.articles).toBe(`/v1/news/entity/${p.id}`);
      expect(p.links.wikidata).toMatch(/^https:\/\/www\.wikidata\.org\/wiki\/Q\d+$/);
    }
    for (const j of store.journalists) {
      const ids = store.journalistAuthorIds.get(j.id) ?? [];
      expect(ids[0]).toBe(j.id);
      const articles = articlesOf(
        store,
        ids.flatMap((id) => store.rowsOf('author', id)),
      );
      expect(articles.every((a) => a.author.name === j.name)).toBe(true);
      expect(new Set(articles.map((a) => a.source.id)).size).toBe(j.outlet_count);
    }
    expect(store.journalists.filter((j) => j.outlet_count >= 8).length).toBeGreaterThanOrEqual(3);
    // Some names merge several author records.
    expect([...store.journalistAuthorIds.values()].some((ids) => ids.length > 1)).toBe(true);
  });

  it('makes the filters meaningful: each selects some articles and not others', () => {
    const a = store.articles;
    const images = (f: (w: number, h: number) => boolean) => (x: (typeof a)[number]) =>
      x.media.some((m) => m.type === 'image' && f(m.width, m.height));
    const filters: Record<string, (x: (typeof a)[number]) => boolean> = {
      positive: (x) => x.sentiment.overall.polarity === 'positive',
      negative: (x) => x.sentiment.overall.polarity === 'negative',
      mixed: (x) => x.sentiment.title.polarity !== x.sentiment.body.polarity,
      easy: (x) => x.readability.flesch_reading_ease >= 60,
      difficult: (x) => x.readability.flesch_reading_ease < 40,
      deepDive: (x) => x.read_time >= 10,
      hq: images((w) => w >= 1200),
      fullhd: images((w) => w >= 1920),
      uhd: images((w) => w >= 3840),
      thumbnail: images((w) => w <= 300),
      portrait: images((w, h) => h > w),
      landscape: images((w, h) => w > h),
      video: (x) => x.media.some((m) => m.type === 'video'),
      image: (x) => x.image !== undefined,
      geo: (x) => x.locations_mentioned.some((l) => l.lat !== null),
      author: (x) => x.author.id !== null,
      duplicate: (x) => x.is_duplicate,
      paywall: (x) => !x.is_free,
      breaking: (x) => x.is_breaking,
      clickbait: (x) => x.is_clickbait,
      leftBias: (x) => x.source.bias === 'left',
      highRank: (x) => x.source.rankings.opr >= 8,
      premium: (x) => x.source.is_premium,
      events: (x) => x.events.length > 0,
      businessEvent: (x) => x.events.some((e) => e.category === 'business'),
      sport: (x) => x.categories.some((c) => c.id === 15000000),
      topic: (x) => x.topics.some((t) => t.id === 'economy.interest-rates'),
      industry: (x) => x.industries.some((i) => i.id === 312),
      nonLatin: (x) => /[\u0400-\u04ff\u0600-\u06ff\u3040-\u30ff\u4e00-\u9fff]/.test(x.title),
    };
    for (const [name, f] of Object.entries(filters)) {
      const n = a.filter(f).length;
      expect(n, name).toBeGreaterThan(0);
      expect(n, name).toBeLessThan(a.length);
    }
    for (const type of [
      'person',
      'organization',
      'brand',
      'location',
      'natural-disaster',
      'disease',
      'event',
      'sport',
      'product',
    ]) {
      expect(
        a.some((x) => x.entities.some((e) => e.type === type)),
        type,
      ).toBe(true);
    }
  });

  it('has the variety the search tests need', () => {
    const now = NOW.getTime();
    const ms = publishedMs(store);
    const recent = store.articles.filter((_, i) => ms[i]! > now - 31 * DAY);
    expect(recent.filter((x) => x.title.includes('rate cut')).length).toBeGreaterThanOrEqual(5);
    expect(
      recent.filter((x) => x.title.toLowerCase().includes('interest rates')).length,
    ).toBeGreaterThanOrEqual(5);
    // Entity blocks: one entity positive and another negative in the same article.
    expect(
      store.articles.filter(
        (x) =>
          x.entities.some((e) => e.sentiment.polarity === 'positive') &&
          x.entities.some((e) => e.sentiment.polarity === 'negative'),
      ).length,
    ).toBeGreaterThan(50);
    // Stories with several articles, and duplicates pointing at their original.
    const stories = new Map<number, number>();
    for (const x of store.articles) stories.set(x.story.id, (stories.get(x.story.id) ?? 0) + 1);
    expect([...stories.values()].filter((n) => n >= 5).length).toBeGreaterThan(0);
    expect(store.duplicateOf.size).toBeGreaterThanOrEqual(20);
    for (const [dup, original] of store.duplicateOf) {
      const d = store.article(dup)!;
      const o = store.article(original)!;
      expect(d.is_duplicate).toBe(true);
      expect(d.title).toBe(o.title);
      expect(d.story.id).toBe(o.story.id);
    }
    // Entity positions point at the entity's name.
    for (const x of store.articles.slice(0, 300)) {
      for (const e of x.entities) {
        for (const p of e.title.pos) expect(x.title.slice(p.start, p.end)).toBe(e.name);
        for (const p of e.body.pos) expect(x.body.slice(p.start, p.end)).toBe(e.name);
        expect(e.frequency).toBe(e.title.pos.length + e.body.pos.length);
      }
    }
    // Articles with and without authors; high-authority outlets in the last day.
    expect(store.articles.some((x) => x.author.id === null)).toBe(true);
    const lastDay = store.articles.filter((_, i) => ms[i]! > now - DAY);
    expect(lastDay.filter((x) => x.source.rankings.opr >= 8).length).toBeGreaterThan(3);
  });

  it('generates a different, equally valid set for another seed', async () => {
    const other = await loadFixtures({ seed: 7, now: NOW });
    expect(other.articles.length).toBe(BASE_ARTICLES);
    expect(
      other.articles[0]!.title === store.articles[0]!.title &&
        other.articles[1]!.title === store.articles[1]!.title,
    ).toBe(false);
    expect(JSON.stringify((await loadFixtures({ seed: 7, now: NOW })).articles)).toBe(
      JSON.stringify(other.articles),
    );
  });
});
