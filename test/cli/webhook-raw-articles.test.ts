import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { articleRanges } from '../../src/cli/webhooks/raw-articles.js';

const slices = (text: string) => {
  const body = Buffer.from(text);
  return articleRanges(body)?.ranges.map(([a, b]) => body.subarray(a, b).toString('utf8'));
};

describe('articleRanges (listen writes articles as the signed bytes)', () => {
  it('finds every article of any compact body, each slice the article’s own JSON', () => {
    const article = fc.record({
      id: fc.integer(),
      title: fc.string({ unit: 'binary' }),
      tags: fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(null))),
      nested: fc.dictionary(fc.string(), fc.jsonValue()),
    });
    fc.assert(
      fc.property(fc.array(article, { maxLength: 8 }), fc.string(), (articles, noise) => {
        // A decoy "articles" key deeper down and another key before the real one.
        const text = JSON.stringify({
          event: 'articles.new',
          meta: { articles: [{ id: -1 }], note: noise },
          webhook_id: 1,
          articles,
        });
        const got = slices(text);
        expect(got).toEqual(articles.map((a) => JSON.stringify(a)));
      }),
      { numRuns: 200 },
    );
  });

  it('gives up (undefined) on a pretty-printed body or an unexpected shape', () => {
    const pretty = JSON.stringify({ event: 'articles.new', articles: [{ id: 1 }] }, null, 2);
    expect(slices(pretty)).toBeUndefined();
    expect(slices('{"event":"articles.new","articles":{"id":1}}')).toBeUndefined();
    expect(slices('{"event":"articles.new","articles":[1,2]}')).toBeUndefined();
    expect(slices('{"event":"other"}')).toBeUndefined();
    expect(slices('{"articles":[]}')).toEqual([]);
    expect(slices('{"articles" : [ {"id":1} , {"id":"x\\"}"} ]}')).toEqual([
      '{"id":1}',
      '{"id":"x\\"}"}',
    ]);
  });
});
