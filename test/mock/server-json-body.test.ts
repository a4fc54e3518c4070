import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeJson } from '../../src/mock/json-body.js';
import { RawArticle } from '../../src/mock/store/article-json.js';

/** A stored article as the engine hands it over: its JSON bytes. */
const raw = (value: object): RawArticle =>
  new RawArticle(0, Buffer.from(JSON.stringify(value), 'utf8'));

describe('encodeJson', () => {
  const stored = [
    { id: 1, title: 'a "quoted" \u0000 title, ünïcødé 東京' },
    { id: 2, title: 'b' },
  ];

  it.each([
    ['a page of stored articles', { status: 'ok', results: stored.map(raw), page: 1 }],
    [
      'a profile',
      { id: 5, coverage: { n: 1 }, recent_articles: [raw(stored[1]!), { id: 9, copy: true }] },
    ],
    ['an empty page', { status: 'ok', results: [] }],
    ['no list', { status: 'ok', count: 3 }],
    ['a bare array', [stored[0]]],
    ['a string', 'pong'],
  ])('writes %s exactly as JSON.stringify does', (_name, body) => {
    // JSON.stringify reads a RawArticle through its toJSON (the parsed article).
    expect(encodeJson(body).toString('utf8')).toBe(JSON.stringify(body));
  });

  it('copies a stored article in as its bytes', () => {
    const article = raw({ id: 7, title: 'x' });
    const bytes = encodeJson({ results: [article] });
    expect(bytes.includes(article.bytes)).toBe(true);
  });

  it('matches JSON.stringify for any JSON body, stored articles or not', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.array(fc.tuple(fc.dictionary(fc.string(), fc.jsonValue()), fc.boolean())),
        (rest, items) => {
          const body = { ...rest, results: items.map(([v, stored]) => (stored ? raw(v) : v)) };
          expect(encodeJson(body).toString('utf8')).toBe(JSON.stringify(body));
        },
      ),
    );
  });
});
