/**
 * The pieces of the result budget alone: the cut at record boundaries
 * (result-budget.ts), the shortening of one record (record-shortening.ts),
 * the page and limit that continue at a position (continuation.ts) and the
 * pages kept for it (page-cache.ts).
 */
import { describe, expect, it } from 'vitest';
import { argumentsFrom } from '../../src/cli/mcp/continuation.js';
import { PageCache, listKey } from '../../src/cli/mcp/page-cache.js';
import { shortenRecord } from '../../src/cli/mcp/record-shortening.js';
import { type Content, budgetLine, fitResult } from '../../src/cli/mcp/result-budget.js';
import type { ApiResponse, RequestSpec } from '../../src/api/types.js';

const records = Array.from({ length: 40 }, (_, i) => ({ id: i + 1, body: 'x'.repeat(500) }));
const render = (c: Content) =>
  [
    ...budgetLine(c, 5000, 'articles'),
    'head',
    ...(c['results'] as unknown[]).map((r) => JSON.stringify(r)),
  ].join('\n');

describe('fitResult', () => {
  const content = { results: records, returned: 40, has_more: true };
  const next = (kept: number) => ({ page: 2, limit: kept });

  it('leaves a result that fits as it was, with next', () => {
    const fitted = fitResult(
      { results: records.slice(0, 3), returned: 3, has_more: true },
      { max: 5000, articles: true, render, next },
    );
    expect(fitted.content).toEqual({
      results: records.slice(0, 3),
      returned: 3,
      has_more: true,
      next: { page: 2, limit: 3 },
    });
  });

  it('keeps the whole records that fit, in order, and says what it left out', () => {
    const fitted = fitResult(content, { max: 5000, articles: true, render, next });
    const kept = fitted.content['results'] as { id: number }[];
    expect(kept.length).toBeGreaterThan(5);
    expect(kept.map((r) => r.id)).toEqual(records.slice(0, kept.length).map((r) => r.id));
    expect(fitted.content).toMatchObject({
      truncated: true,
      left_out: 40 - kept.length,
      returned: kept.length,
    });
    expect(fitted.text.length).toBeLessThanOrEqual(5000);
    expect(JSON.stringify(fitted.content).length).toBeLessThanOrEqual(5000);
    expect(fitted.text.split('\n')[0]).toBe(
      `${kept.length} of 40 articles shown to stay within 5,000 characters; continue with ${JSON.stringify(fitted.content['next'])}`,
    );
    // One more record would not have fitted.
    const more = { ...fitted.content, results: records.slice(0, kept.length + 1) };
    expect(JSON.stringify(more).length + render(more).length).toBeGreaterThan(5000);
  });

  it('shortens a first record that does not fit alone, keeping its id', () => {
    const big = [{ id: 7, body: 'y'.repeat(20_000), title: 't' }];
    const fitted = fitResult(
      { results: big, returned: 1, has_more: false },
      { max: 5000, articles: true, render, next: () => undefined },
    );
    expect(fitted.content).toMatchObject({ truncated: true, left_out: 0, cut_fields: ['body'] });
    const record = (fitted.content['results'] as Record<string, string>[])[0]!;
    expect(record['id']).toBe(7);
    expect(record['title']).toBe('t');
    expect(record['body']).toMatch(
      /… \[[\d,]+ of 20,000 characters cut to fit the result; fields: /,
    );
    expect(fitted.text.length).toBeLessThanOrEqual(5000);
  });
});

describe('shortenRecord', () => {
  it('cuts the longest texts first, then the longest lists, with markers', () => {
    const record = {
      id: 1,
      name: 'short',
      bio: 'b'.repeat(3000),
      items: Array.from({ length: 400 }, (_, i) => i),
    };
    const { record: out, cut } = shortenRecord(record, 1000, false);
    expect(JSON.stringify(out).length).toBeLessThanOrEqual(1000);
    expect(out['name']).toBe('short');
    expect(cut).toEqual(['bio', 'items']);
    const items = out['items'] as unknown[];
    expect(items.at(-1)).toMatch(
      /^\[\d+ of 400 items cut to fit the result; fields: \["id", "items"\] has it alone\]$/,
    );
  });

  it('leaves a record that fits alone', () => {
    const record = { id: 1, bio: 'b'.repeat(30) };
    expect(shortenRecord(record, 1000, true)).toEqual({ record, cut: [] });
  });
});

describe('argumentsFrom', () => {
  it('keeps the limit where it starts a page, else the largest page size that does', () => {
    expect(argumentsFrom(20, 10, 100)).toEqual({ page: 3 });
    expect(argumentsFrom(16, 100, 84)).toEqual({ page: 2, limit: 16 });
    expect(argumentsFrom(31, 16, 69)).toEqual({ page: 2, limit: 31 });
    expect(argumentsFrom(89, 25, 11)).toEqual({ page: 90, limit: 1 });
    // Past the page in hand, a page size a next chose gives way to the largest.
    expect(argumentsFrom(100, 1, 100, false)).toEqual({ page: 2, limit: 100 });
  });
});

describe('PageCache', () => {
  const response = {
    usage: {},
    status: 200,
    headers: {},
    body: {},
    attempts: 1,
  } as ApiResponse<unknown>;
  const spec: RequestSpec = {
    method: 'POST',
    path: '/v1/news/everything',
    body: { q: 1, page: 1, per_page: 100 },
  };
  const page = (start: number, hasNext: boolean) => ({
    start,
    records: Array.from({ length: 100 }, (_, i) => ({ id: start + i })),
    envelope: {},
    response,
    hasNext,
  });

  it('serves a continuation inside a page in hand, never the page itself', () => {
    const cache = new PageCache();
    const key = listKey(spec);
    expect(listKey({ ...spec, body: { per_page: 12, page: 2, q: 1 } })).toBe(key);
    cache.put(key, page(0, true));
    expect(cache.window(key, 0, 100)).toBeUndefined();
    expect(cache.window(key, 12, 12)?.records.map((r) => r['id'])).toEqual(
      Array.from({ length: 12 }, (_, i) => 12 + i),
    );
    expect(cache.window(key, 90, 20)).toBeUndefined();
    expect(cache.extent(key, 50)).toEqual({ end: 100, hasNext: true });
  });

  it('serves past the end of a list that ends in hand, and forgets old pages', () => {
    let now = 0;
    const cache = new PageCache(() => now);
    const key = listKey(spec);
    cache.put(key, page(0, false));
    expect(cache.window(key, 90, 20)).toMatchObject({ hasNext: false });
    now += 11 * 60_000;
    expect(cache.window(key, 12, 12)).toBeUndefined();
  });
});
