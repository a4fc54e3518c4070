import { describe, expect, test } from 'vitest';
import {
  type Comparison,
  type QueryTarget,
  compileQuery,
  parseQuery,
} from '../../src/params/query/index.js';
import { DOCS, type Doc, type Ent, tinyTarget } from './tiny-target.js';

/** Ids of the documents the query selects. */
const select = (query: string): number[] => {
  const test = compileQuery(parseQuery(query), tinyTarget);
  return DOCS.filter(test).map((d) => d.id);
};

describe('compileQuery over the tiny target', () => {
  test.each<[string, number[]]>([
    ['tesla', [3, 4, 7]],
    ['title:tesla', [3, 4, 7]],
    ['interest rates', [1, 2, 8]],
    ['"interest rates"', [1, 8]],
    ['"interest rates"~2', [1, 2, 8]],
    ['tesla OR breaking', [3, 4, 5, 7, 8]],
    ['tesla AND NOT musk', [3]],
    ['NOT tesla', [1, 2, 5, 6, 8]],
    ['NOT NOT tesla', [3, 4, 7]],
    ['breaking OR tesla AND musk', [4, 5, 7, 8]],
    ['(breaking OR tesla) AND musk', [4, 7]],
    ['language.code:(fr OR de)', [4, 6, 8]],
    ['title:(tesla AND musk)', [4, 7]],
    ['source.bias:left', [2, 4, 8]],
    ['read_time:>5', [3, 6, 8]],
    ['read_time:>=5', [3, 6, 7, 8]],
    ['read_time:<3', [2, 5]],
    ['read_time:<=3', [2, 4, 5]],
    ['read_time:4', [1]],
    ['read_time:[3 TO 6]', [1, 3, 4, 7]],
    ['read_time:[10 TO *]', [8]],
    ['read_time:(<2 OR >10)', [5, 8]],
    ['sentiment.overall.score:[* TO -0.3]', [3, 4]],
    ['has_image:0', [2, 5, 7]],
    ['published_at:[2025-01-15 TO 2025-01-20T23:59:59Z]', [3, 4, 5]],
    ['published_at:<2025-01-12T09:30:00Z', [1]],
    // A date without a time is its whole day.
    ['published_at:2025-01-31', [8]],
    ['published_at:[2025-01-20 TO 2025-01-31]', [5, 6, 7, 8]],
    ['published_at:<=2025-01-16', [1, 2, 3, 4]],
    ['published_at:<2025-01-16', [1, 2, 3]],
    ['published_at:>2025-01-22', [7, 8]],
    ['published_at:>=2025-01-22', [6, 7, 8]],
    ['title.starts_with:"Breaking"', [5, 8]],
    ['entity.id:2', [3, 4, 7]],
  ])('%s', (query, ids) => {
    expect(select(query)).toEqual(ids);
  });

  test('an entity block holds for one and the same entity', () => {
    // Doc 4 has Tesla (positive) and Musk (negative): the flat AND would match it, the block does not.
    expect(select('{{entity.name:Tesla AND entity.sentiment.polarity:negative}}')).toEqual([3]);
    expect(select('entity.id:1 AND {{entity.sentiment.polarity:negative}}')).toEqual([3, 4]);
    expect(select('{{entity.type:person AND entity.sentiment.score:>0.6}}')).toEqual([7]);
    expect(select('{{entity.name:Tesla AND NOT entity.sentiment.polarity:positive}}')).toEqual([
      3, 6,
    ]);
    expect(select('NOT {{entity.type:person}}')).toEqual([1, 2, 5, 6, 8]);
    expect(select('{{entity.id:(1 OR 2) AND entity.sentiment.polarity:negative}}')).toEqual([3, 4]);
  });

  test('leaf predicates are made once, at compile time', () => {
    const asked: string[] = [];
    const counting: QueryTarget<Doc, Ent> = {
      predicate(field: string, c: Comparison) {
        asked.push(field);
        return tinyTarget.predicate(field, c);
      },
      entities: tinyTarget.entities,
      entityPredicate(field: string, c: Comparison) {
        asked.push(field);
        return tinyTarget.entityPredicate(field, c);
      },
    };
    const run = compileQuery(
      parseQuery('tesla AND read_time:>2 AND {{entity.name:Tesla}}'),
      counting,
    );
    for (const d of DOCS) run(d);
    for (const d of DOCS) run(d);
    expect(asked).toEqual(['title', 'read_time', 'entity.name']);
  });

  test('wide AND and OR short-circuit in order', () => {
    const seen: string[] = [];
    const target: QueryTarget<Doc, Ent> = {
      predicate: (field, c) => (d) => {
        seen.push(c.op === 'eq' ? c.value : field);
        return tinyTarget.predicate(field, c)(d);
      },
      entities: tinyTarget.entities,
      entityPredicate: tinyTarget.entityPredicate,
    };
    const doc = DOCS[2] as Doc; // "Tesla shares fall after recall"
    compileQuery(parseQuery('zz OR yy OR tesla OR xx OR ww'), target)(doc);
    expect(seen).toEqual(['zz', 'yy', 'tesla']);
    seen.length = 0;
    compileQuery(parseQuery('tesla AND shares AND zz AND fall AND recall'), target)(doc);
    expect(seen).toEqual(['tesla', 'shares', 'zz']);
  });
});
