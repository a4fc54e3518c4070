/** The one "did you mean" (src/output/closest-name.ts): its distance and its two rankings. */
import { describe, expect, it } from 'vitest';
import {
  closestByPrefix,
  closestNames,
  didYouMean,
  editDistance,
  suggestionHint,
} from '../../src/output/closest-name.js';

describe('did you mean', () => {
  it('editDistance: one per insertion, deletion, substitution or swap of neighbours', () => {
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('abc', '')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('gte', 'get')).toBe(1);
    expect(editDistance('serach', 'search')).toBe(1);
    expect(editDistance('ca', 'abc')).toBe(3);
  });

  it('fields: a dotted name found by its last part, closest first', () => {
    expect(closestNames('name', ['source.name', 'title', 'author.id'])).toEqual(['source.name']);
    expect(closestNames('titel', ['title', 'body'])).toEqual(['title']);
    expect(closestNames('zzzzzz', ['title', 'body'])).toEqual([]);
    expect(didYouMean('titel', ['title'])).toBe('did you mean title?');
  });

  it('flags and commands: a name the input starts wins over spelling', () => {
    expect(closestByPrefix('--language', ['--lang', '--language-code', '--languages'])).toEqual([
      '--languages',
      '--language-code',
    ]);
    expect(closestByPrefix('gte', ['get', 'list'])).toEqual(['get']);
    expect(suggestionHint(['get'])).toBe('did you mean get?');
    expect(suggestionHint(['a', 'b'])).toBe('did you mean one of a, b?');
    expect(suggestionHint([])).toBeUndefined();
  });
});
