/**
 * The tokenizer's ASCII fast path (src/mock/search/text.ts) finds exactly
 * the words the Unicode rule finds, on every kind of text.
 */
import { describe, expect, it } from 'vitest';
import { tokenize } from '../../src/mock/search/text.js';

const UNICODE_WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;
const byRule = (text: string): string[] => text.toLowerCase().match(UNICODE_WORD) ?? [];

/** A seeded mix of ASCII letters, digits, punctuation, apostrophes and a few non-ASCII letters. */
function texts(count: number): string[] {
  const alphabet = 'abcXYZ09 \'’-.,;:!?"()\t\n\u212AİéßÆ日本ä';
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  return Array.from({ length: count }, () =>
    Array.from(
      { length: 1 + Math.floor(next() * 30) },
      () =>
        // Mostly ASCII, as titles are.
        alphabet[Math.floor(next() * (next() < 0.8 ? 17 : alphabet.length))],
    ).join(''),
  );
}

describe('tokenize', () => {
  it('finds what the Unicode rule finds, ASCII or not', () => {
    const cases = [
      "Musk's rates: 3 cuts, ECB's 'hawks' o'clock",
      'Zinsen überraschen Experten',
      '\u212A (the Kelvin sign) lower-cases to ASCII',
      'İstanbul',
      ...texts(2000),
    ];
    for (const text of cases) expect(tokenize(text), text).toEqual(byRule(text));
  });
});
