import type { Prepared } from './prepare.js';
import type { Doc, DocFilter } from './types.js';

/** First index in `docs` (published_at descending) whose time is ≤ `ms`. */
function firstAtOrBefore(docs: readonly Doc[], ms: number): number {
  let lo = 0;
  let hi = docs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((docs[mid] as Doc).publishedAt <= ms) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The slice [begin, end) of `docs` within the request's date bounds. */
function dateRange(prepared: Prepared, docs: readonly Doc[]): [number, number] {
  const begin = prepared.to === Infinity ? 0 : firstAtOrBefore(docs, prepared.to);
  const end = prepared.from === -Infinity ? docs.length : firstAtOrBefore(docs, prepared.from - 1);
  return [begin, end];
}

/** True when every filter accepts the document (small enough for V8 to inline in the loops). */
function passes(filters: readonly DocFilter[], doc: Doc, ix: number): boolean {
  for (let f = 0; f < filters.length; f++) {
    if (!(filters[f] as DocFilter)(doc, ix)) return false;
  }
  return true;
}

/**
 * The candidates matching every filter, in the candidates' order. `docs` must be
 * sorted by published_at descending (the store's order, and its per-entity and
 * per-story lists'), so the date bounds cut a slice before any predicate runs.
 * `stopAfter`: the scan ends once that many matches are found (a page in the
 * natural order needs its own articles plus one, to know a next page exists).
 */
export function select(
  prepared: Prepared,
  docs: readonly Doc[],
  extra: readonly DocFilter[] = [],
  stopAfter = Number.POSITIVE_INFINITY,
): Doc[] {
  const filters = [...extra, ...prepared.filters];
  // The whole index: positions are loop indexes, so column filters never touch the article.
  const whole = docs === prepared.indexDocs;
  const [begin, end] = dateRange(prepared, docs);
  if (filters.length === 0) return docs.slice(begin, Math.min(end, begin + stopAfter));
  const out: Doc[] = [];
  for (let i = begin; i < end && out.length < stopAfter; i++) {
    const doc = docs[i] as Doc;
    if (passes(filters, doc, whole ? i : doc.ix)) out.push(doc);
  }
  return out;
}

/** How many candidates match every filter, without collecting them (/v1/news/count). */
export function countMatches(prepared: Prepared, docs: readonly Doc[]): number {
  const filters = prepared.filters;
  const whole = docs === prepared.indexDocs;
  const [begin, end] = dateRange(prepared, docs);
  if (filters.length === 0) return Math.max(0, end - begin);
  let count = 0;
  for (let i = begin; i < end; i++) {
    const doc = docs[i] as Doc;
    if (passes(filters, doc, whole ? i : doc.ix)) count++;
  }
  return count;
}

/** Reused by `selectPositions` (see `scratch` in sort.ts for why). */
let positionsBuffer = new Int32Array(0);

/**
 * The positions in the whole index (`prepared.indexDocs`) of the matches, in
 * index order: for ranking from columns without touching the articles. The
 * array is reused by the next call: use it before searching again.
 */
export function selectPositions(prepared: Prepared, extra: readonly DocFilter[] = []): Int32Array {
  const docs = prepared.indexDocs;
  if (docs === undefined) throw new Error('selectPositions needs the index columns');
  const filters = [...extra, ...prepared.filters];
  const [begin, end] = dateRange(prepared, docs);
  if (positionsBuffer.length < end - begin) positionsBuffer = new Int32Array(docs.length);
  const out = positionsBuffer;
  let k = 0;
  for (let i = begin; i < end; i++) {
    if (passes(filters, docs[i] as Doc, i)) out[k++] = i;
  }
  return out.subarray(0, k);
}
