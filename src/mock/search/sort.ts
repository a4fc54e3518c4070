import type { SORT_BY } from '../../params/search-params.js';
import { FIELDS, narrowest, shortest } from './fields.js';
import type { Doc } from './types.js';

export type SortBy = (typeof SORT_BY)[number];
/** A sort key; undefined (no image to measure) always sorts last. */
export type SortKey = (doc: Doc) => number | undefined;

const field = (name: string): SortKey => {
  const accessor = FIELDS[name];
  if (accessor?.kind !== 'number') throw new Error(`sort key ${name} is not a numeric field`);
  return accessor.value;
};

const shares = (d: Doc): number => d.sharesFacebook + d.sharesTwitter + d.sharesReddit;

/**
 * The service does not define its composite sorts; the mock's definitions:
 * - engagement: total shares;
 * - quality: authority, media, author, originality and readability together;
 * - trust: authority plus verified/premium source, minus clickbait and duplicates;
 * - controversy: how far title and body sentiment, and the entities' sentiments, diverge;
 * - media_richness: images plus videos, a video counting double;
 * - new, created_at: indexing time (the fixtures index an article when it is published);
 * - shares.X.min / shares.X.max: both sort by X's shares (sort.order picks the direction).
 * `relevance` depends on the request and is supplied by the engine.
 */
export const SORT_KEYS: Readonly<Record<Exclude<SortBy, 'relevance'>, SortKey>> = {
  published_at: (d) => d.publishedAt,
  created_at: (d) => d.createdAt,
  new: (d) => d.createdAt,
  id: (d) => d.id,
  engagement: shares,
  quality: (d) =>
    d.sourceRank * 10 +
    (d.images.length > 0 ? 10 : 0) +
    (d.authorId !== null ? 10 : 0) +
    (d.isDuplicate ? 0 : 10) +
    (d.isClickbait ? 0 : 10) +
    d.ease / 10,
  trust: (d) =>
    d.sourceRank * 10 +
    (d.isVerifiedSource ? 20 : 0) +
    (d.isPremiumSource ? 10 : 0) -
    (d.isClickbait ? 20 : 0) -
    (d.isDuplicate ? 10 : 0),
  controversy: (d) => {
    let lo = 0;
    let hi = 0;
    for (const e of d.entities) {
      lo = Math.min(lo, e.score);
      hi = Math.max(hi, e.score);
    }
    return Math.abs(d.sentimentTitle - d.sentimentBody) + (hi - lo);
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
  media_richness: (d) => d.images.length + 2 * d.videoCount,
  'shares.facebook.min': field('shares.facebook'),
  'shares.facebook.max': field('shares.facebook'),
  'shares.twitter.min': field('shares.twitter'),
  'shares.twitter.max': field('shares.twitter'),
  'shares.reddit.min': field('shares.reddit'),
  'shares.reddit.max': field('shares.reddit'),
};

/**
 * Sorts in place by `key` in `order`; ties fall back to newest first, then the
 * higher id, so every order is total and answers are deterministic.
 */
export function sortDocs(docs: Doc[], key: SortKey, order: 'asc' | 'desc'): Doc[] {
  const dir = order === 'asc' ? 1 : -1;
  const keyed = docs.map((doc) => ({ doc, k: key(doc) }));
  keyed.sort((a, b) => {
    if (a.k !== b.k) {
      if (a.k === undefined) return 1;
      if (b.k === undefined) return -1;
      return (a.k - b.k) * dir;
    }
    return b.doc.publishedAt - a.doc.publishedAt || b.doc.id - a.doc.id;
  });
  for (let i = 0; i < keyed.length; i++) docs[i] = (keyed[i] as { doc: Doc }).doc;
  return docs;
}
