/**
 * One record made to fit a size: its longest text fields shortened first
 * (every text over a cap is cut to it, the cap as high as the size allows),
 * then its longest lists (every list over a length keeps that many items),
 * each cut leaving a marker in place that says how much went and how to get
 * it whole. Ids are never cut: an agent must still be able to name the
 * record. What was cut is named by its dotted path, list positions left out
 * (`recent_articles.body`).
 */
import type { ApiRecord } from '../../output/types.js';

/** Text is never cut below this: a shortened field still says what it was about. */
const MIN_TEXT = 60;

interface Caps {
  readonly text: number;
  readonly items: number;
}

const NONE: Caps = { text: Number.POSITIVE_INFINITY, items: Number.POSITIVE_INFINITY };

export interface Shortened {
  readonly record: ApiRecord;
  /** The dotted paths of the fields cut, in the order met. */
  readonly cut: readonly string[];
}

const size = (value: unknown) => JSON.stringify(value).length;

function grouped(n: number): string {
  return n.toLocaleString('en-US');
}

/** Where a cut field's whole value is: `fields` names it, `export_news` writes whole articles. */
function howToGet(path: string, articles: boolean): string {
  const top = path.split('.')[0] ?? path;
  return articles
    ? `fields: ["id", "${top}"] with a smaller limit, or export_news, has it whole`
    : `fields: ["id", "${top}"] has it alone`;
}

function walk(
  value: unknown,
  path: string,
  caps: Caps,
  articles: boolean,
  cut: Set<string>,
): unknown {
  if (typeof value === 'string') {
    if (value.length <= caps.text) return value;
    cut.add(path);
    const kept = value.slice(0, caps.text).trimEnd();
    return `${kept}… [${grouped(value.length - kept.length)} of ${grouped(value.length)} characters cut to fit the result; ${howToGet(path, articles)}]`;
  }
  if (Array.isArray(value)) {
    const kept = value.length > caps.items ? value.slice(0, caps.items) : value;
    const items: unknown[] = kept.map((item) => walk(item, path, caps, articles, cut));
    if (kept.length < value.length) {
      cut.add(path);
      items.push(
        `[${grouped(value.length - kept.length)} of ${grouped(value.length)} items cut to fit the result; ${howToGet(path, articles)}]`,
      );
    }
    return items;
  }
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      out[key] =
        key === 'id'
          ? inner
          : walk(inner, path === '' ? key : `${path}.${key}`, caps, articles, cut);
    }
    return out;
  }
  return value;
}

function apply(record: ApiRecord, caps: Caps, articles: boolean): Shortened {
  const cut = new Set<string>();
  const shaped = walk(record, '', caps, articles, cut) as ApiRecord;
  return { record: shaped, cut: [...cut] };
}

function longest(value: unknown, pick: (v: unknown) => number | undefined): number {
  let most = 0;
  const visit = (v: unknown): void => {
    most = Math.max(most, pick(v) ?? 0);
    if (Array.isArray(v)) for (const item of v) visit(item);
    else if (typeof v === 'object' && v !== null)
      for (const inner of Object.values(v)) visit(inner);
  };
  visit(value);
  return most;
}

/** The largest cap in [low, high] whose result fits `limit` (low when none does). */
function largestFitting(low: number, high: number, fits: (cap: number) => boolean): number {
  let lo = low;
  let hi = high;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * `record` within `limit` characters of JSON, or as near as text and list
 * cuts take it; then the largest fields other than the id are left out,
 * each replaced by a marker, until it fits.
 */
export function shortenRecord(record: ApiRecord, limit: number, articles: boolean): Shortened {
  if (size(record) <= limit) return { record, cut: [] };
  const fitsWith = (caps: Caps) => size(apply(record, caps, articles).record) <= limit;
  const maxText = longest(record, (v) => (typeof v === 'string' ? v.length : undefined));
  if (maxText > MIN_TEXT) {
    const text = largestFitting(MIN_TEXT, maxText, (cap) => fitsWith({ ...NONE, text: cap }));
    const result = apply(record, { ...NONE, text }, articles);
    if (size(result.record) <= limit) return result;
  }
  const text = MIN_TEXT;
  const maxItems = longest(record, (v) => (Array.isArray(v) ? v.length : undefined));
  const items = largestFitting(0, maxItems, (cap) => fitsWith({ text, items: cap }));
  const result = apply(record, { text, items }, articles);
  if (size(result.record) <= limit) return result;
  // Still too large (many small fields): whole fields go, largest first, the id stays.
  const shaped: ApiRecord = { ...result.record };
  const cut = new Set(result.cut);
  const keys = Object.keys(shaped)
    .filter((k) => k !== 'id')
    .sort((a, b) => size(shaped[b]) - size(shaped[a]));
  for (const key of keys) {
    if (size(shaped) <= limit) break;
    shaped[key] =
      `[${grouped(size(record[key]))} characters cut to fit the result; ${howToGet(key, articles)}]`;
    cut.add(key);
  }
  return { record: shaped, cut: [...cut] };
}
