import { describe, expect, test } from 'vitest';
import {
  type QueryNode,
  QueryError,
  parseQuery,
  validateQuery,
} from '../../src/params/query/index.js';

const title = (value: string): QueryNode => ({
  kind: 'predicate',
  field: 'title',
  comparison: { op: 'eq', value },
});
const pred = (
  field: string,
  comparison: Extract<QueryNode, { kind: 'predicate' }>['comparison'],
): QueryNode => ({
  kind: 'predicate',
  field,
  comparison,
});

function error(text: string): QueryError {
  try {
    parseQuery(text);
  } catch (e) {
    if (e instanceof QueryError) return e;
    throw e;
  }
  throw new Error(`expected ${JSON.stringify(text)} to fail`);
}

describe('operators and precedence', () => {
  test.each<[string, QueryNode]>([
    ['tesla', title('tesla')],
    ['aa AND bb', { kind: 'and', children: [title('aa'), title('bb')] }],
    ['aa bb', { kind: 'and', children: [title('aa'), title('bb')] }],
    ['aa OR bb', { kind: 'or', children: [title('aa'), title('bb')] }],
    ['NOT aa', { kind: 'not', child: title('aa') }],
    ['NOT NOT aa', { kind: 'not', child: { kind: 'not', child: title('aa') } }],
    // NOT > AND > OR
    [
      'aa OR bb AND cc',
      {
        kind: 'or',
        children: [title('aa'), { kind: 'and', children: [title('bb'), title('cc')] }],
      },
    ],
    [
      'aa AND bb OR cc',
      {
        kind: 'or',
        children: [{ kind: 'and', children: [title('aa'), title('bb')] }, title('cc')],
      },
    ],
    [
      'NOT aa AND bb',
      { kind: 'and', children: [{ kind: 'not', child: title('aa') }, title('bb')] },
    ],
    ['NOT aa OR bb', { kind: 'or', children: [{ kind: 'not', child: title('aa') }, title('bb')] }],
    [
      'aa AND NOT bb',
      { kind: 'and', children: [title('aa'), { kind: 'not', child: title('bb') }] },
    ],
    [
      '(aa OR bb) AND cc',
      {
        kind: 'and',
        children: [{ kind: 'or', children: [title('aa'), title('bb')] }, title('cc')],
      },
    ],
    [
      'NOT (aa OR bb)',
      { kind: 'not', child: { kind: 'or', children: [title('aa'), title('bb')] } },
    ],
    ['((aa))', title('aa')],
    [
      'aa AND (bb AND cc)',
      {
        kind: 'and',
        children: [title('aa'), { kind: 'and', children: [title('bb'), title('cc')] }],
      },
    ],
  ])('%s', (text, tree) => {
    expect(parseQuery(text)).toEqual(tree);
  });
});

describe('predicates by field type', () => {
  test.each<[string, QueryNode]>([
    // text
    ['title:tesla', title('tesla')],
    ['"interest rates"', pred('title', { op: 'phrase', value: 'interest rates', slop: 0 })],
    ['"interest rates"~5', pred('title', { op: 'phrase', value: 'interest rates', slop: 5 })],
    ['title:"interest rates"~2', pred('title', { op: 'phrase', value: 'interest rates', slop: 2 })],
    [
      'title.starts_with:"Breaking news"',
      pred('title.starts_with', { op: 'eq', value: 'Breaking news' }),
    ],
    ['title.ends_with:today', pred('title.ends_with', { op: 'eq', value: 'today' })],
    [
      'title.pattern:"rates (up|down)"',
      pred('title.pattern', { op: 'eq', value: 'rates (up|down)' }),
    ],
    ['person.name:"Elon Musk"', pred('person.name', { op: 'eq', value: 'Elon Musk' })],
    ['"say \\"hi\\" \\\\ bye"', pred('title', { op: 'phrase', value: 'say "hi" \\ bye', slop: 0 })],
    ['title:10:30', pred('title', { op: 'eq', value: '10:30' })],
    // keyword (enum, pattern, free)
    ['source.bias:left', pred('source.bias', { op: 'eq', value: 'left' })],
    ['language.code:en', pred('language.code', { op: 'eq', value: 'en' })],
    ['category.id:medtop:04000000', pred('category.id', { op: 'eq', value: 'medtop:04000000' })],
    ['source.domain:"nytimes.com"', pred('source.domain', { op: 'eq', value: 'nytimes.com' })],
    [
      'event.type:merger-acquisition',
      pred('event.type', { op: 'eq', value: 'merger-acquisition' }),
    ],
    ['entity.id:123', pred('entity.id', { op: 'eq', value: '123' })],
    // integer
    ['read_time:5', pred('read_time', { op: 'eq', value: '5' })],
    ['read_time:>5', pred('read_time', { op: 'gt', value: 5 })],
    ['read_time:>=5', pred('read_time', { op: 'gte', value: 5 })],
    ['read_time:<5', pred('read_time', { op: 'lt', value: 5 })],
    ['read_time:<=5', pred('read_time', { op: 'lte', value: 5 })],
    ['read_time: >= 5', pred('read_time', { op: 'gte', value: 5 })],
    ['read_time:[3 TO 10]', pred('read_time', { op: 'range', from: 3, to: 10 })],
    ['read_time:[3 TO *]', pred('read_time', { op: 'range', from: 3, to: undefined })],
    ['source.rank.opr:[* TO 5]', pred('source.rank.opr', { op: 'range', from: undefined, to: 5 })],
    // number
    ['sentiment.overall.score:<-0.5', pred('sentiment.overall.score', { op: 'lt', value: -0.5 })],
    [
      'sentiment.title.score:[-1 TO 1]',
      pred('sentiment.title.score', { op: 'range', from: -1, to: 1 }),
    ],
    ['sentiment.body.score:-0', pred('sentiment.body.score', { op: 'eq', value: '0' })],
    ['readability.ease:60.50', pred('readability.ease', { op: 'eq', value: '60.5' })],
    // flag
    ['has_image:1', pred('has_image', { op: 'eq', value: '1' })],
    ['is_paywall:0', pred('is_paywall', { op: 'eq', value: '0' })],
    // date
    ['published_at:2025-01-15', pred('published_at', { op: 'eq', value: '2025-01-15' })],
    [
      'published_at:>=2025-01-01T10:00:00Z',
      pred('published_at', { op: 'gte', value: '2025-01-01T10:00:00Z' }),
    ],
    [
      'published_at:[2025-01-01 TO 2025-01-31]',
      pred('published_at', { op: 'range', from: '2025-01-01', to: '2025-01-31' }),
    ],
  ])('%s', (text, tree) => {
    expect(parseQuery(text)).toEqual(tree);
  });

  test('field groups keep their operator', () => {
    expect(parseQuery('language.code:(en OR fr OR de)')).toEqual({
      kind: 'group',
      field: 'language.code',
      op: 'or',
      values: [
        { op: 'eq', value: 'en' },
        { op: 'eq', value: 'fr' },
        { op: 'eq', value: 'de' },
      ],
    });
    expect(parseQuery('title:(tesla AND "model y")')).toEqual({
      kind: 'group',
      field: 'title',
      op: 'and',
      values: [
        { op: 'eq', value: 'tesla' },
        { op: 'phrase', value: 'model y', slop: 0 },
      ],
    });
    expect(parseQuery('read_time:(<2 OR [10 TO *])')).toEqual({
      kind: 'group',
      field: 'read_time',
      op: 'or',
      values: [
        { op: 'lt', value: 2 },
        { op: 'range', from: 10, to: undefined },
      ],
    });
    expect(parseQuery('source.bias:(left)')).toEqual(
      pred('source.bias', { op: 'eq', value: 'left' }),
    );
  });

  test('entity blocks', () => {
    expect(parseQuery('{{entity.name:Tesla AND entity.sentiment.polarity:negative}}')).toEqual({
      kind: 'entity',
      child: {
        kind: 'and',
        children: [
          pred('entity.name', { op: 'eq', value: 'Tesla' }),
          pred('entity.sentiment.polarity', { op: 'eq', value: 'negative' }),
        ],
      },
    });
    expect(
      parseQuery('{{ entity.type:person AND entity.sentiment.score:[-1 TO -0.5] }} AND tesla'),
    ).toEqual({
      kind: 'and',
      children: [
        {
          kind: 'entity',
          child: {
            kind: 'and',
            children: [
              pred('entity.type', { op: 'eq', value: 'person' }),
              pred('entity.sentiment.score', { op: 'range', from: -1, to: -0.5 }),
            ],
          },
        },
        title('tesla'),
      ],
    });
    // entity.id works both ways: an article that mentions it, or the entity itself.
    expect(parseQuery('entity.id:42')).toEqual(pred('entity.id', { op: 'eq', value: '42' }));
    expect(parseQuery('{{entity.id:42}}')).toEqual({
      kind: 'entity',
      child: pred('entity.id', { op: 'eq', value: '42' }),
    });
  });

  test('quoted wildcards are literal text', () => {
    expect(parseQuery('"what?"')).toEqual(pred('title', { op: 'phrase', value: 'what?', slop: 0 }));
  });
});

const WORDS_65 = Array.from({ length: 65 }, (_, i) => `w${i}`).join(' OR ');

describe('error codes', () => {
  test.each<[string, string, number, number]>([
    // [query, code, position, length]
    ['', 'ER0701', 0, 0],
    ['   ', 'ER0701', 0, 3],
    ['aa AND', 'ER0701', 3, 3],
    ['AND aa', 'ER0701', 0, 3],
    ['aa OR OR bb', 'ER0701', 3, 2],
    ['NOT', 'ER0701', 0, 3],
    ['(aa', 'ER0701', 0, 1],
    ['aa)', 'ER0701', 2, 1],
    ['()', 'ER0701', 0, 2],
    ['"open', 'ER0701', 0, 5],
    ['"aa"~', 'ER0701', 4, 1],
    ['"a\\b"', 'ER0701', 2, 2],
    ['aa and bb', 'ER0701', 3, 3],
    ['aa TO bb', 'ER0701', 3, 2],
    ['{entity.id:1}', 'ER0701', 0, 1],
    ['{{entity.id:1', 'ER0701', 0, 2],
    ['{{}}', 'ER0701', 0, 4],
    ['title:', 'ER0701', 6, 0],
    ['title:()', 'ER0701', 7, 1],
    ['read_time:[1 TO]', 'ER0701', 15, 1],
    ['read_time:[1 5]', 'ER0701', 13, 1],
    ['title:(aa OR bb AND cc)', 'ER0701', 16, 3],
    ['title:(NOT aa)', 'ER0701', 7, 3],
    [':aa', 'ER0701', 0, 1],
    ['\\aa', 'ER0701', 0, 1],
    // ER0702 unknown field
    ['foo:bar', 'ER0702', 0, 3],
    ['title_starts_with:aa', 'ER0702', 0, 17],
    ['ignore.title:aa', 'ER0702', 0, 12],
    ['read_time.min:3', 'ER0702', 0, 13],
    ['query:aa', 'ER0702', 0, 5],
    ['per_page:10', 'ER0702', 0, 8],
    ['location.lat:10', 'ER0702', 0, 12],
    // ER0703 invalid value
    ['source.bias:Left', 'ER0703', 12, 4],
    ['language.code:eng', 'ER0703', 14, 3],
    ['category.id:sport', 'ER0703', 12, 5],
    ['read_time:abc', 'ER0703', 10, 3],
    ['read_time:2.5', 'ER0703', 10, 3],
    ['read_time:1001', 'ER0703', 10, 4],
    ['sentiment.overall.score:>1.5', 'ER0703', 25, 3],
    ['has_image:2', 'ER0703', 10, 1],
    ['published_at:2025-13-45', 'ER0703', 13, 10],
    ['read_time:[5 TO 1]', 'ER0703', 10, 8],
    ['read_time:[* TO *]', 'ER0703', 10, 8],
    ['{{entity.type:company}}', 'ER0703', 14, 7],
    ['""', 'ER0703', 0, 2],
    [`title:${'x'.repeat(101)}`, 'ER0703', 6, 101],
    // ER0704 wildcard
    ['tes*la', 'ER0704', 3, 1],
    ['wh?t', 'ER0704', 2, 1],
    ['*', 'ER0704', 0, 1],
    ['source.domain:*.com', 'ER0704', 14, 1],
    ['read_time:[1 TO 5*]', 'ER0704', 17, 1],
    ['*:aa', 'ER0704', 0, 1],
    // ER0705 single-character term
    ['a', 'ER0705', 0, 1],
    ['aa OR b', 'ER0705', 6, 1],
    ['"b"', 'ER0705', 0, 3],
    ['title:x', 'ER0705', 6, 1],
    ['person.name:x', 'ER0705', 12, 1],
    // ER0710 unsupported operator
    ['tesla~2', 'ER0710', 5, 1],
    ['tesla^2', 'ER0710', 5, 1],
    ['"aa bb"^2', 'ER0710', 7, 1],
    ['title:>aa', 'ER0710', 6, 3],
    ['source.bias:[left TO right]', 'ER0710', 12, 15],
    ['has_image:>0', 'ER0710', 10, 2],
    ['title.starts_with:"aa bb"~2', 'ER0710', 18, 9],
    ['aa && bb', 'ER0710', 3, 2],
    ['-aa', 'ER0710', 0, 1],
    // ER0711 limits
    [`${'x'.repeat(4001)}`, 'ER0711', 4000, 1],
    [`${'('.repeat(11)}aa${')'.repeat(11)}`, 'ER0711', 10, 1],
    [`${'{{entity.id:1 AND '}${'('.repeat(10)}entity.id:2${')'.repeat(10)}}}`, 'ER0711', 27, 1],
    [WORDS_65, 'ER0711', WORDS_65.lastIndexOf('w64'), 3],
    [
      `language.code:(${Array.from({ length: 21 }, () => 'en').join(' OR ')})`,
      'ER0711',
      15 + 20 * 6,
      2,
    ],
    // ER0712 entity block rules
    ['entity.sentiment.polarity:negative', 'ER0712', 0, 25],
    ['entity.name:Tesla', 'ER0712', 0, 11],
    ['{{title:tesla}}', 'ER0712', 2, 5],
    ['{{tesla}}', 'ER0712', 2, 5],
    ['{{entity.id:1 AND {{entity.id:2}}}}', 'ER0712', 18, 2],
  ])('%s → %s at %i+%i', (text, code, position, length) => {
    const e = error(text);
    expect({ code: e.code, position: e.position, length: e.length }).toEqual({
      code,
      position,
      length,
    });
  });

  test('every error is a UsageError with a message naming the code', async () => {
    const { UsageError } = await import('../../src/api/errors.js');
    const e = error('foo:bar');
    expect(e).toBeInstanceOf(UsageError);
    expect(e.message).toContain('ER0702');
    expect(e.detail).toBe('unknown field "foo"');
    expect(e.hint).toContain('news query fields');
  });

  test('the leftmost problem is the one reported', () => {
    expect(error('tes*la AND aa^2').code).toBe('ER0704');
    expect(error('aa^2 AND tes*la').code).toBe('ER0710');
  });
});

describe('limits at the boundary pass', () => {
  test('4000 characters', () => {
    expect(() => parseQuery(`aa${' '.repeat(3998)}`)).not.toThrow();
    // Code points, not UTF-16 units: an emoji is one character and two units.
    expect(() => parseQuery(`😀😀${' '.repeat(3998)}`)).not.toThrow();
    const e = error(`😀😀${' '.repeat(3999)}`);
    expect([e.code, e.position, e.length]).toEqual(['ER0711', 4002, 1]);
  });
  test('64 predicates', () => {
    expect(() =>
      parseQuery(Array.from({ length: 64 }, (_, i) => `w${i}`).join(' OR ')),
    ).not.toThrow();
  });
  test('depth 10', () => {
    expect(() => parseQuery(`${'('.repeat(10)}aa${')'.repeat(10)}`)).not.toThrow();
  });
  test('20 values per group, and group values count as predicates', () => {
    expect(() =>
      parseQuery(`language.code:(${Array.from({ length: 20 }, () => 'en').join(' OR ')})`),
    ).not.toThrow();
    const groups = Array.from(
      { length: 4 },
      () => `language.code:(${Array.from({ length: 16 }, () => 'en').join(' OR ')})`,
    );
    expect(() => parseQuery(groups.join(' AND '))).not.toThrow();
    expect(error(`${groups.join(' AND ')} AND aa`).code).toBe('ER0711');
  });
});

test('validateQuery returns instead of throwing', () => {
  const good = validateQuery('tesla');
  expect(good).toEqual({ ok: true, tree: title('tesla') });
  const bad = validateQuery('tes*la');
  expect(bad.ok).toBe(false);
  if (!bad.ok) expect(bad.error.code).toBe('ER0704');
});

test('an error never reaches past the end of the text', () => {
  const e = error('"\\');
  expect([e.code, e.position, e.length]).toEqual(['ER0701', 1, 1]);
});
