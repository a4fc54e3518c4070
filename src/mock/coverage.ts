/**
 * The coverage block of a directory profile, computed from the articles that
 * mention the entity (people, companies) or carry the byline (journalists),
 * relative to the mock clock. Field names and shapes follow the OpenAPI
 * profile schemas; the spec leaves the list lengths open, the mock keeps 10.
 */
import { languageOf, listValues, polarity, sourceOf } from './search/row.js';
import type { FixtureStore } from './store/fixture-store.js';

const TOP = 10;
const DAY_MS = 86_400_000;
const TIMELINE_MONTHS = 24;

interface Counted {
  id: number | string;
  name: string;
  count: number;
}

export interface CoverageBase {
  article_count: number;
  first_seen: string | null;
  last_seen: string | null;
  sentiment: { positive: number; neutral: number; negative: number };
  momentum: { last_30_days: number; previous_30_days: number; change_pct: number | null };
  timeline: { period: string; count: number }[];
  top_topics: Counted[];
  top_countries: (Counted & { code: string })[];
  top_languages: (Counted & { code: string })[];
}

export interface EntityCoverage extends CoverageBase {
  top_sources: (Counted & { domain: string })[];
  related_entities: Counted[];
}

export interface JournalistCoverage extends CoverageBase {
  top_entities: Counted[];
}

/** The entity's name in a mention. */
function mentioned(store: FixtureStore, row: number): { id: number; name: string }[] {
  const t = store.table;
  return listValues(t.entities, t.entityCode, t.dict.entities, row, (e) => e);
}

/** `rows` newest first, as the store's index keeps them. */
export function entityCoverage(
  store: FixtureStore,
  entityId: number,
  rows: readonly number[],
  now: Date,
): EntityCoverage {
  const sources = new Tally<Counted & { domain: string }>();
  const related = new Tally<Counted>();
  for (const row of rows) {
    const source = sourceOf(store.table, row);
    sources.add(source.id, () => ({
      id: source.id,
      name: source.name,
      domain: source.domain,
      count: 0,
    }));
    for (const e of mentioned(store, row)) {
      if (e.id !== entityId) related.add(e.id, () => ({ id: e.id, name: e.name, count: 0 }));
    }
  }
  return {
    ...baseCoverage(store, rows, now),
    top_sources: sources.top(TOP),
    related_entities: related.top(TOP),
  };
}

export function journalistCoverage(
  store: FixtureStore,
  rows: readonly number[],
  now: Date,
): JournalistCoverage {
  const entities = new Tally<Counted>();
  for (const row of rows) {
    for (const e of mentioned(store, row))
      entities.add(e.id, () => ({ id: e.id, name: e.name, count: 0 }));
  }
  return { ...baseCoverage(store, rows, now), top_entities: entities.top(TOP) };
}

function baseCoverage(store: FixtureStore, rows: readonly number[], now: Date): CoverageBase {
  const t = store.table;
  const sentiment = { positive: 0, neutral: 0, negative: 0 };
  const topics = new Tally<Counted>();
  const countries = new Tally<Counted & { code: string }>();
  const languages = new Tally<Counted & { code: string }>();
  const months = new Map<string, number>();
  const nowMs = now.getTime();
  let last30 = 0;
  let previous30 = 0;
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;

  for (const row of rows) {
    const ms = t.published.data[row] as number;
    if (ms < first) first = ms;
    if (ms > last) last = ms;
    const age = nowMs - ms;
    if (age < 30 * DAY_MS) last30++;
    else if (age < 60 * DAY_MS) previous30++;
    sentiment[polarity(t.polarityOverall.data[row] as number)]++;
    const month = new Date(ms).toISOString().slice(0, 7);
    months.set(month, (months.get(month) ?? 0) + 1);
    for (const topic of listValues(t.topics, t.topicCode, t.dict.topics, row, (x) => x))
      topics.add(topic.id, () => ({ id: topic.id, name: topic.name, count: 0 }));
    const location = sourceOf(t, row).location;
    const code = location.country_code;
    if (code !== '') {
      countries.add(code, () => {
        const c = store.countries.find((x) => x.code === code);
        return { id: c?.id ?? 0, name: c?.name ?? location.country_name, code, count: 0 };
      });
    }
    const language = languageOf(t, row);
    languages.add(language, () => {
      const l = store.languages.find((x) => x.code === language);
      return { id: l?.id ?? 0, name: l?.name ?? language, code: language, count: 0 };
    });
  }

  const none = rows.length === 0;
  return {
    article_count: rows.length,
    first_seen: none ? null : new Date(first).toISOString().slice(0, 10),
    last_seen: none ? null : new Date(last).toISOString().slice(0, 10),
    sentiment,
    momentum: {
      last_30_days: last30,
      previous_30_days: previous30,
      // The schema says integer or null; null when there is nothing to compare with.
      change_pct: previous30 === 0 ? null : Math.round(((last30 - previous30) / previous30) * 100),
    },
    timeline: none ? [] : timeline(months, first, Math.max(last, nowMs)),
    top_topics: topics.top(TOP),
    top_countries: countries.top(TOP),
    top_languages: languages.top(TOP),
  };
}

/**
 * Every month from the first mention (at most 24 months back) to the current
 * one, zero months included, so the series can be charted as is.
 */
function timeline(
  months: Map<string, number>,
  firstMs: number,
  endMs: number,
): { period: string; count: number }[] {
  const end = new Date(endMs);
  let year = end.getUTCFullYear();
  let month = end.getUTCMonth();
  const firstPeriod = new Date(firstMs).toISOString().slice(0, 7);
  const out: { period: string; count: number }[] = [];
  for (let i = 0; i < TIMELINE_MONTHS; i++) {
    const period = `${year}-${String(month + 1).padStart(2, '0')}`;
    out.push({ period, count: months.get(period) ?? 0 });
    if (period <= firstPeriod) break;
    month--;
    if (month < 0) {
      month = 11;
      year--;
    }
  }
  return out.reverse();
}

/** Counts by key; ties broken by first appearance, which is newest first. */
class Tally<T extends { count: number }> {
  private readonly items = new Map<number | string, T>();

  add(key: number | string, make: () => T): void {
    let item = this.items.get(key);
    if (item === undefined) {
      item = make();
      this.items.set(key, item);
    }
    item.count++;
  }

  top(n: number): T[] {
    return [...this.items.values()].sort((a, b) => b.count - a.count).slice(0, n);
  }
}
