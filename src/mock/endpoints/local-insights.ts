import type { EngineCore } from '../search/core.js';
import { DAY_MS, startOfDay } from '../search/dates.js';
import {
  categoryIds,
  entityIds,
  eventTypes,
  geoPoint,
  isBreaking,
  polarity,
  sourceOf,
  topicIds,
} from '../search/row.js';

/** Rows of matching articles. */
type Doc = number;

const TOP = 10;
const round = (n: number, digits = 3): number => Math.round(n * 10 ** digits) / 10 ** digits;
const avg = (xs: readonly number[]): number | null =>
  xs.length === 0 ? null : round(xs.reduce((a, b) => a + b, 0) / xs.length);

function tally<K>(docs: readonly Doc[], keys: (d: Doc) => readonly K[]): Map<K, Doc[]> {
  const m = new Map<K, Doc[]>();
  for (const d of docs) {
    for (const k of new Set(keys(d))) {
      const list = m.get(k);
      if (list) list.push(d);
      else m.set(k, [d]);
    }
  }
  return m;
}

/** Largest groups first; ties by key so answers are stable. */
function top<K>(m: Map<K, Doc[]>, n = TOP): [K, Doc[]][] {
  return [...m]
    .sort((a, b) => b[1].length - a[1].length || String(a[0]).localeCompare(String(b[0])))
    .slice(0, n);
}

const ENTITY_TYPE_IDS: Readonly<Record<string, number>> = {
  person: 1,
  location: 2,
  organization: 3,
  brand: 4,
  product: 5,
  'natural-disaster': 6,
  disease: 7,
  event: 8,
  sport: 9,
  unknown: 10,
};

/**
 * The `local_insights` blocks over the matching articles. Windows the provider
 * does not define: velocity counts the last 24 hours; movers compare the last
 * 24 hours with the daily average of the 14 days before.
 */
export function insightBlocks(
  blocks: readonly string[],
  docs: readonly Doc[],
  core: EngineCore,
  now: number,
): Record<string, unknown> {
  const { store, table: t } = core.index;
  const out: Record<string, unknown> = {};
  const at = (d: Doc): number => t.published.data[d] as number;
  const sentiment = (d: Doc): number => t.sentimentOverall.data[d] as number;
  const recent = (d: Doc) => at(d) > now - DAY_MS;
  for (const block of blocks) {
    switch (block) {
      case 'mood': {
        const distribution = { positive: 0, neutral: 0, negative: 0 };
        for (const d of docs) distribution[polarity(t.polarityOverall.data[d] as number)]++;
        out['mood'] = { avg_sentiment: avg(docs.map(sentiment)), distribution };
        break;
      }
      case 'hotspots': {
        // One decimal degree (about 11 km) cells around each article's nearest place.
        const cells = tally(docs, (d) => {
          const p = geoPoint(t, d);
          return p ? [`${p.lat.toFixed(1)},${p.lng.toFixed(1)}`] : [];
        });
        out['hotspots'] = top(cells).map(([k, list]) => {
          const [lat, lng] = k.split(',').map(Number);
          return { lat: lat ?? 0, lng: lng ?? 0, count: list.length };
        });
        break;
      }
      case 'events': {
        const byType = tally(docs, (d) => eventTypes(t, d));
        out['top_events'] = top(byType).map(([type, list]) => ({
          type,
          category: store.eventTypes.find((e) => e.code === type)?.category ?? null,
          count: list.length,
          avg_sentiment: avg(list.map(sentiment)),
        }));
        break;
      }
      case 'entities': {
        const byId = tally(docs, (d) => entityIds(t, d));
        out['top_entities'] = top(byId).map(([id, list]) => {
          const e = store.entityById.get(id);
          return {
            id,
            name: e?.name ?? null,
            type_id: e ? (ENTITY_TYPE_IDS[e.type] ?? null) : null,
            count: list.length,
          };
        });
        break;
      }
      case 'bias': {
        const byBias = tally(docs, (d) => [sourceOf(t, d).bias]);
        out['bias_split'] = Object.fromEntries(
          [...byBias].map(([bias, list]) => [
            bias,
            { count: list.length, avg_sentiment: avg(list.map(sentiment)) },
          ]),
        );
        break;
      }
      case 'sources': {
        const bySource = tally(docs, (d) => {
          const id = sourceOf(t, d).id;
          return id === null ? [] : [id];
        });
        out['top_sources'] = top(bySource).map(([id, list]) => {
          const s = store.sourceById.get(id);
          return {
            id,
            domain: s?.domain ?? null,
            bias: s?.bias ?? null,
            opr: s?.rank ?? null,
            count: list.length,
          };
        });
        break;
      }
      case 'timeline': {
        const byDay = tally(docs, (d) => [new Date(startOfDay(at(d))).toISOString().slice(0, 10)]);
        out['timeline'] = Object.fromEntries(
          [...byDay].sort((a, b) => a[0].localeCompare(b[0])).map(([k, l]) => [k, l.length]),
        );
        break;
      }
      case 'top_categories': {
        const byCat = tally(docs, (d) => categoryIds(t, d));
        out['top_categories'] = top(byCat).map(([id, list]) => ({
          id,
          name:
            store.suggest.categories.find((c) => `medtop:${String(c.id).padStart(8, '0')}` === id)
              ?.name ?? null,
          count: list.length,
        }));
        break;
      }
      case 'top_topics': {
        const byTopic = tally(docs, (d) => topicIds(t, d));
        out['top_topics'] = top(byTopic).map(([id, list]) => ({
          id,
          name: store.suggest.topics.find((t) => t.id.toLowerCase() === id)?.name ?? null,
          count: list.length,
        }));
        break;
      }
      case 'breaking': {
        const n = docs.filter((d) => isBreaking(t, d)).length;
        out['breaking'] = {
          count: n,
          share: docs.length === 0 ? 0 : round((100 * n) / docs.length, 2),
        };
        break;
      }
      case 'velocity': {
        const n = docs.filter(recent).length;
        out['velocity'] = { articles_per_hour: round(n / 24, 3), window_hours: 24 };
        break;
      }
      case 'movers': {
        const baselineStart = now - 15 * DAY_MS;
        const before = (d: Doc) => at(d) > baselineStart && !recent(d) && at(d) <= now;
        const nowCounts = tally(docs.filter(recent), (d) => entityIds(t, d));
        const baseCounts = tally(docs.filter(before), (d) => entityIds(t, d));
        out['movers'] = top(nowCounts).map(([id, list]) => {
          const baseline = Math.round((baseCounts.get(id)?.length ?? 0) / 14);
          return {
            type: 'entity',
            id,
            name: store.entityById.get(id)?.name ?? null,
            count_now: list.length,
            count_baseline: baseline,
            growth_pct:
              baseline === 0 ? null : round((100 * (list.length - baseline)) / baseline, 1),
          };
        });
        break;
      }
    }
  }
  return out;
}
