import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonBodyWriter } from '../../src/mock/json-body.js';

describe('JsonBodyWriter', () => {
  const stored = [
    { id: 1, title: 'a "quoted" \u0000 title' },
    { id: 2, title: 'b' },
  ];
  const writer = new JsonBodyWriter(
    (item) => stored.includes(item as { id: number; title: string }),
    1,
  );

  it.each([
    ['a page of stored articles', { status: 'ok', results: stored, page: 1 }],
    [
      'a profile',
      { id: 5, coverage: { n: 1 }, recent_articles: [stored[1], { id: 9, copy: true }] },
    ],
    ['an empty page', { status: 'ok', results: [] }],
    ['no list', { status: 'ok', count: 3 }],
    ['a bare array', [stored[0]]],
    ['a string', 'pong'],
  ])('writes %s exactly as JSON.stringify does, twice (cache hit)', (_name, body) => {
    expect(writer.stringify(body)).toBe(JSON.stringify(body));
    expect(writer.stringify(body)).toBe(JSON.stringify(body));
  });

  it('never serves a stale text for a changed non-stored object', () => {
    const copy = { id: 1, title: 'one' };
    expect(writer.stringify({ results: [copy] })).toBe(JSON.stringify({ results: [copy] }));
    copy.title = 'two';
    expect(writer.stringify({ results: [copy] })).toBe(JSON.stringify({ results: [copy] }));
  });

  it('matches JSON.stringify for any JSON body', () => {
    const any = new JsonBodyWriter(() => true, 8);
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.array(fc.dictionary(fc.string(), fc.jsonValue())),
        (rest, results) => {
          const body = { ...rest, results };
          expect(any.stringify(body)).toBe(JSON.stringify(body));
        },
      ),
    );
  });
});
