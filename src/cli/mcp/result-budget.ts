/**
 * `news mcp --max-result-chars N`: no result's text, and no result's
 * structuredContent as JSON, is longer than N characters. An agent host
 * hands a tool result to the model whole and caps it (near 25k tokens is
 * common); past the cap the host refuses the result or cuts it where it
 * likes, and the agent loses the records and the way to continue. So a
 * result that would be longer keeps as many whole records as fit, in order,
 * says how many it left out, and carries `next`: the arguments that, added
 * to the same call, return the records after the last one kept. A first
 * record that does not fit alone is shortened (record-shortening.ts).
 */
import type { ApiRecord } from '../../output/types.js';
import { shortenRecord } from './record-shortening.js';

export type Content = Record<string, unknown>;

export interface BudgetRules {
  /** The budget, in characters. */
  readonly max: number;
  /** Records are articles (the markers then also point at export_news). */
  readonly articles: boolean;
  /**
   * The arguments that continue after the first `kept` records of this
   * result, or undefined when nothing remains after them.
   */
  readonly next: (kept: number) => Record<string, unknown> | undefined;
  /** The text rendering of a content. */
  readonly render: (content: Content) => string;
}

export interface Fitted {
  readonly content: Content;
  readonly text: string;
}

function measured(content: Content, rules: BudgetRules): Fitted & { fits: boolean } {
  const text = rules.render(content);
  const fits = text.length <= rules.max && JSON.stringify(content).length <= rules.max;
  return { content, text, fits };
}

/** The content holding the first `kept` records, with what a cut result says. */
function cutTo(
  content: Content,
  results: readonly ApiRecord[],
  kept: readonly ApiRecord[],
  rules: BudgetRules,
  cutFields: readonly string[] = [],
): Content {
  const { next_page: _nextPage, next: _next, ...rest } = content;
  const next = rules.next(kept.length);
  return {
    ...rest,
    results: kept,
    returned: kept.length,
    has_more: next !== undefined || content['has_more'] === true,
    truncated: true,
    left_out: results.length - kept.length,
    ...(cutFields.length > 0 ? { cut_fields: cutFields } : {}),
    ...(next === undefined ? {} : { next }),
  };
}

/** The largest count in [0, n] for which `fits` holds (fits(0) is assumed). */
function mostThatFit(n: number, fits: (k: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** How many records a continuation from there reads at once (its `limit`; unchanged is best). */
function stride(next: Record<string, unknown> | undefined): number {
  const limit = next?.['limit'];
  return typeof limit === 'number' ? limit : Number.POSITIVE_INFINITY;
}

/** Records a cut may give up so that `next` does not start where only a tiny page size fits. */
const GIVE_UP = 4;

/**
 * Of the counts that fit, `keep` or a few fewer, the one whose continuation
 * reads the most records at once: a list cut where only a page size of 1
 * starts a page (a prime position) would otherwise go on one record a call.
 */
function steadyCut(keep: number, rules: BudgetRules): number {
  let best = keep;
  let bestStride = stride(rules.next(keep));
  for (let k = keep - 1; k >= Math.max(1, keep - GIVE_UP); k--) {
    const s = stride(rules.next(k));
    if (s > bestStride * 2) {
      best = k;
      bestStride = s;
    }
  }
  return best;
}

/**
 * The content within the budget, and its text: unchanged but for `next`
 * when it fits; else whole records up to what fits; else its first record
 * shortened.
 */
export function fitResult(content: Content, rules: BudgetRules): Fitted {
  const results = (content['results'] as ApiRecord[] | undefined) ?? [];
  const next = rules.next(results.length);
  const whole = measured(next === undefined ? content : { ...content, next }, rules);
  if (whole.fits) return whole;
  const keep = mostThatFit(
    results.length - 1,
    (k) => measured(cutTo(content, results, results.slice(0, k), rules), rules).fits,
  );
  if (keep > 0) {
    const kept = steadyCut(keep, rules);
    return measured(cutTo(content, results, results.slice(0, kept), rules), rules);
  }
  const first = results[0];
  if (first === undefined) return measured(cutTo(content, results, [], rules), rules);
  // The first record alone is too large: it is shortened to the room the rest leaves.
  const empty = measured(cutTo(content, results, [{}], rules), rules);
  let room = rules.max - Math.max(empty.text.length, JSON.stringify(empty.content).length);
  let best = empty;
  for (let attempt = 0; attempt < 6 && room > 0; attempt++) {
    const { record, cut } = shortenRecord(first, room, rules.articles);
    best = measured(cutTo(content, results, [record], rules, cut), rules);
    if (best.fits) return best;
    const over = Math.max(best.text.length, JSON.stringify(best.content).length) - rules.max;
    room -= over + 32;
  }
  return best;
}

/** The text's first line when a result was cut: what an agent must read before the records. */
export function budgetLine(content: Content, max: number, noun: string): string[] {
  if (content['truncated'] !== true) return [];
  const shown = Number(content['returned']);
  const asked = shown + Number(content['left_out'] ?? 0);
  const within = `to stay within ${max.toLocaleString('en-US')} characters`;
  const next = content['next'];
  const go = next === undefined ? 'nothing more remains' : `continue with ${JSON.stringify(next)}`;
  const lines = [`${shown} of ${asked} ${noun} shown ${within}; ${go}`];
  const cut = content['cut_fields'] as string[] | undefined;
  if (cut !== undefined && cut.length > 0) {
    lines.push(
      `fields shortened ${within}: ${cut.join(', ')} (each cut says how much went and how to get it whole)`,
    );
  }
  return lines;
}
