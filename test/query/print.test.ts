import { describe, expect, test } from 'vitest';
import {
  QueryError,
  caretLine,
  describeQuery,
  parseQuery,
  printQuery,
} from '../../src/params/query/index.js';

describe('printQuery: canonical form', () => {
  test.each([
    ['tesla', 'tesla'],
    ['aa bb', 'aa AND bb'],
    ['title:tesla', 'tesla'],
    ['aa  OR   bb', 'aa OR bb'],
    ['aa OR (bb AND cc)', 'aa OR bb AND cc'],
    ['(aa OR bb) cc', '(aa OR bb) AND cc'],
    ['aa AND (bb AND cc)', 'aa AND (bb AND cc)'],
    ['(aa OR bb) OR cc', '(aa OR bb) OR cc'],
    ['NOT (aa AND bb)', 'NOT (aa AND bb)'],
    ['((aa))', 'aa'],
    ['"interest rates"~5', '"interest rates"~5'],
    ['"interest rates"~0', '"interest rates"'],
    ['title:"say \\"hi\\""', '"say \\"hi\\""'],
    ['title:10:30', 'title:10:30'],
    ['title:AND', 'title:AND'],
    ['title:-aa', 'title:-aa'],
    ['source.domain:"nytimes.com"', 'source.domain:nytimes.com'],
    ['source.domain:"a*b.com"', 'source.domain:"a*b.com"'],
    ['person.name:"Elon Musk"', 'person.name:"Elon Musk"'],
    ['read_time: >= 5', 'read_time:>=5'],
    ['readability.ease:60.50', 'readability.ease:60.5'],
    ['read_time:[3 TO *]', 'read_time:[3 TO *]'],
    ['language.code:(en OR fr)', 'language.code:(en OR fr)'],
    ['title:(aa bb)', 'title:(aa AND bb)'],
    [
      '{{ entity.name:Tesla   entity.sentiment.polarity:negative }}',
      '{{entity.name:Tesla AND entity.sentiment.polarity:negative}}',
    ],
  ])('%s → %s', (text, canonical) => {
    const tree = parseQuery(text);
    expect(printQuery(tree)).toBe(canonical);
    expect(parseQuery(canonical)).toEqual(tree);
  });
});

test('describeQuery draws an indented tree', () => {
  const tree = parseQuery(
    '"interest rates"~5 AND NOT source.bias:right AND {{entity.name:Tesla AND entity.sentiment.score:<0}} AND language.code:(en OR fr)',
  );
  expect(describeQuery(tree)).toBe(
    [
      'AND',
      '  title phrase "interest rates" within 5 words',
      '  NOT',
      '    source.bias = right',
      '  ENTITY (all conditions hold for one entity)',
      '    AND',
      '      entity.name = Tesla',
      '      entity.sentiment.score < 0',
      '  language.code any of',
      '    = en',
      '    = fr',
    ].join('\n'),
  );
});

describe('caretLine', () => {
  const caret = (text: string): string => {
    try {
      parseQuery(text);
    } catch (e) {
      if (e instanceof QueryError) return caretLine(text, e);
    }
    throw new Error('expected an error');
  };

  test('puts carets under the fault', () => {
    expect(caret('tesla AND foo:bar')).toBe('tesla AND foo:bar\n          ^^^');
    expect(caret('tes*la')).toBe('tes*la\n   ^');
  });

  test('points past the end for a missing value', () => {
    expect(caret('title:')).toBe('title:\n      ^');
  });

  test('keeps columns when the text has line breaks', () => {
    expect(caret('aa\nAND\tfoo:x')).toBe('aa AND foo:x\n       ^^^');
  });

  test('shows a window around the fault of a long query', () => {
    const text = `"${'aa '.repeat(30)}" ${' '.repeat(300)}foo:bar ${' '.repeat(300)}bb`;
    const [line, carets] = caret(text).split('\n') as [string, string];
    expect(line.startsWith('…')).toBe(true);
    expect(line.endsWith('…')).toBe(true);
    expect(line.length).toBeLessThanOrEqual(80);
    expect(line.slice(carets.indexOf('^'), carets.indexOf('^') + 3)).toBe('foo');
  });
});
