import type { SORT_BY } from '../../params/search-values.js';
import type { ArticleTable } from '../store/table.js';
import { FIELDS, narrowest, shortest } from './fields.js';
import { authorOf, imageCount, isClickbait, isDuplicate, sourceOf } from './row.js';

export type SortBy = (typeof SORT_BY)[number];
/** A sort key; undefined (no image to measure) always sorts last. */
export type SortKey = (t: ArticleTable, row: number) => number | undefined;

/** Sort keys that are one numeric field, by the field's name: they can be read from its column. */
const KEY_FIELDS = new Map<SortKey, string>();

const field = (name: string): SortKey => {
  const accessor = FIELDS[name];
  if (accessor?.kind !== 'number') throw new Error(`sort key ${name} is not a numeric field`);
  KEY_FIELDS.set(accessor.value, name);
  return accessor.value;
};

/** The numeric field a sort key reads, when it is one (so a column holds the keys). */
export const keyField = (key: SortKey): string | undefined => KEY_FIELDS.get(key);

const shares: SortKey = (t, r) =>
  (t.sharesFacebook.data[r] as number) +
  (t.sharesTwitter.data[r] as number) +
  (t.sharesReddit.data[r] as number);
const authority = (t: ArticleTable, r: number): number => sourceOf(t, r).rankings.opr;

/**
 * The service does not define its composite sorts; the mock's definitions:
 * - engagement: total shares;
 * - quality: authority, media, author, originality and readability together;
 * - trust: authority plus verified/premium source, minus clickbait and duplicates;
 * - controversy: how far title and body sentiment, and the entities' sentiments, diverge;
 * - media_richness: images plus videos, a video counting double;
 * - new, created_at: indexing time (fixtures are indexed when published, posted articles
 *   when posted); id: indexing order too, as posted and published articles get the next id;
 * - shares.X.min / shares.X.max: both sort by X's shares (sort.order picks the direction).
 * `relevance` depends on the request and is supplied by the engine.
 */
export const SORT_KEYS: Readonly<Record<Exclude<SortBy, 'relevance'>, SortKey>> = {
  published_at: (t, r) => t.published.data[r],
  created_at: (t, r) => t.created.data[r],
  new: (t, r) => t.created.data[r],
  id: (t, r) => t.id.data[r],
  engagement: shares,
  quality: (t, r) =>
    authority(t, r) * 10 +
    (imageCount(t, r) > 0 ? 10 : 0) +
    (authorOf(t, r).id !== null ? 10 : 0) +
    (isDuplicate(t, r) ? 0 : 10) +
    (isClickbait(t, r) ? 0 : 10) +
    (t.ease.data[r] as number) / 10,
  trust: (t, r) => {
    const s = sourceOf(t, r);
    return (
      authority(t, r) * 10 +
      (s.is_verified ? 20 : 0) +
      (s.is_premium ? 10 : 0) -
      (isClickbait(t, r) ? 20 : 0) -
      (isDuplicate(t, r) ? 10 : 0)
    );
  },
  controversy: (t, r) => {
    let lo = 0;
    let hi = 0;
    for (let i = t.entities.from(r); i < t.entities.to(r); i++) {
      lo = Math.min(lo, t.entityScore.data[i] as number);
      hi = Math.max(hi, t.entityScore.data[i] as number);
    }
    return (
      Math.abs((t.sentimentTitle.data[r] as number) - (t.sentimentBody.data[r] as number)) +
      (hi - lo)
    );
  },
  'source.rank.opr': field('source.rank.opr'),
  'sentiment.overall.score': field('sentiment.overall.score'),
  'sentiment.title.score': field('sentiment.title.score'),
  'sentiment.body.score': field('sentiment.body.score'),
  read_time: field('read_time'),
  sentences_count: field('sentences_count'),
  paragraphs_count: field('paragraphs_count'),
  characters_count: field('characters_count'),
  'media.images.count': field('media.images.count'),
  'media.videos.count': field('media.videos.count'),
  'media.images.width.min': narrowest,
  'media.images.width.max': field('media.images.width'),
  'media.images.height.min': shortest,
  'media.images.height.max': field('media.images.height'),
  media_richness: (t, r) => imageCount(t, r) + 2 * (t.videoCount.data[r] as number),
  'shares.facebook.min': field('shares.facebook'),
  'shares.facebook.max': field('shares.facebook'),
  'shares.twitter.min': field('shares.twitter'),
  'shares.twitter.max': field('shares.twitter'),
  'shares.reddit.min': field('shares.reddit'),
  'shares.reddit.max': field('shares.reddit'),
};

/**
 * The rows sorted by `key` in `order`; ties fall back to newest first, then
 * the higher id, so every order is total and answers are deterministic. Only
 * the first `limit` places are ordered (a page never shows more); the rest
 * follow in no set order.
 */
export function sortRows(
  t: ArticleTable,
  rows: number[],
  key: SortKey,
  order: 'asc' | 'desc',
  limit = rows.length,
): number[] {
  const n = rows.length;
  const top = ranked(t, rows, key, order, limit);
  const chosen = new Uint8Array(n);
  const out: number[] = [];
  for (let i = 0; i < top.length; i++) {
    const p = top[i] as number;
    chosen[p] = 1;
    out.push(rows[p] as number);
  }
  for (let i = 0; i < n; i++) if (chosen[i] === 0) out.push(rows[i] as number);
  return out;
}

/**
 * The first `limit` rows in the order of `sortRows`, and nothing else: for a
 * page that needs neither the rest nor facets over every match.
 */
export function topRows(
  t: ArticleTable,
  rows: ArrayLike<number>,
  key: SortKey,
  order: 'asc' | 'desc',
  limit: number,
): number[] {
  const top = ranked(t, rows, key, order, limit);
  const out: number[] = [];
  for (let i = 0; i < Math.min(limit, top.length); i++) out.push(rows[top[i] as number] as number);
  return out;
}

/**
 * Key buffers reused from one ranking to the next (searches run one at a
 * time and a ranking never outlives its call). Fresh typed arrays of 100,000
 * entries per search are external memory that pushes V8 into full
 * collections of the whole store's heap: tens of milliseconds each.
 */
let buffers = { keys: new Float64Array(0), times: new Float64Array(0), ids: new Float64Array(0) };

function scratch(n: number): { keys: Float64Array; times: Float64Array; ids: Float64Array } {
  if (buffers.keys.length < n) {
    const size = Math.max(n, buffers.keys.length * 2);
    buffers = {
      keys: new Float64Array(size),
      times: new Float64Array(size),
      ids: new Float64Array(size),
    };
  }
  return buffers;
}

function ranked(
  t: ArticleTable,
  rows: ArrayLike<number>,
  key: SortKey,
  order: 'asc' | 'desc',
  limit: number,
): ArrayLike<number> {
  const n = rows.length;
  // Keys in typed arrays, read once per article: the comparator then never reads the table.
  const { keys, times, ids } = scratch(n);
  const published = t.published.data;
  const id = t.id.data;
  for (let i = 0; i < n; i++) {
    const row = rows[i] as number;
    keys[i] = key(t, row) ?? Number.NaN;
    times[i] = published[row] as number;
    ids[i] = id[row] as number;
  }
  return rank(n, keys, times, ids, order, limit);
}

/**
 * `topRows` for a key that is one numeric field, reading the keys from its
 * column (columns.ts) instead of computing them.
 */
export function topRowsByColumn(
  t: ArticleTable,
  rows: Int32Array,
  column: Float64Array,
  order: 'asc' | 'desc',
  limit: number,
): number[] {
  const n = rows.length;
  const { keys, times, ids } = scratch(n);
  const published = t.published.data;
  const id = t.id.data;
  for (let i = 0; i < n; i++) {
    const row = rows[i] as number;
    keys[i] = column[row] as number;
    times[i] = published[row] as number;
    ids[i] = id[row] as number;
  }
  const top = rank(n, keys, times, ids, order, limit);
  const out: number[] = [];
  for (let i = 0; i < Math.min(limit, top.length); i++) out.push(rows[top[i] as number] as number);
  return out;
}

/** Positions 0..n-1 ranked by key (NaN last), then newest, then the higher id. */
function rank(
  n: number,
  keys: Float64Array,
  times: Float64Array,
  ids: Float64Array,
  order: 'asc' | 'desc',
  limit: number,
): ArrayLike<number> {
  const dir = order === 'asc' ? 1 : -1;
  const before = (a: number, b: number): number => {
    const ka = keys[a] as number;
    const kb = keys[b] as number;
    if (ka !== kb) {
      // NaN (no value) sorts last in both directions.
      if (Number.isNaN(ka)) return Number.isNaN(kb) ? 0 : 1;
      if (Number.isNaN(kb)) return -1;
      return (ka - kb) * dir;
    }
    return (times[b] as number) - (times[a] as number) || (ids[b] as number) - (ids[a] as number);
  };
  return limit >= n / 2 ? allSorted(n, before) : topK(n, Math.max(0, limit), before);
}

function allSorted(n: number, before: (a: number, b: number) => number): Uint32Array {
  const positions = new Uint32Array(n);
  for (let i = 0; i < n; i++) positions[i] = i;
  return positions.sort(before);
}

/** The k first positions in order, through a heap of the k best seen so far (its root: the worst of them). */
function topK(n: number, k: number, before: (a: number, b: number) => number): number[] {
  const heap: number[] = [];
  const worse = (a: number, b: number) => before(a, b) > 0;
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && worse(heap[l] as number, heap[m] as number)) m = l;
      if (r < heap.length && worse(heap[r] as number, heap[m] as number)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m] as number, heap[i] as number];
      i = m;
    }
  };
  for (let p = 0; p < n && k > 0; p++) {
    if (heap.length < k) {
      heap.push(p);
      for (let i = heap.length - 1; i > 0; ) {
        const parent = (i - 1) >> 1;
        if (!worse(heap[i] as number, heap[parent] as number)) break;
        [heap[i], heap[parent]] = [heap[parent] as number, heap[i] as number];
        i = parent;
      }
    } else if (before(p, heap[0] as number) < 0) {
      heap[0] = p;
      down(0);
    }
  }
  return heap.sort(before);
}
