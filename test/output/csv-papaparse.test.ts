/**
 * Our CSV writer (formats/csv.ts) against papaparse's `unparse`, which it
 * replaced: the same bytes for generated rows of every kind of cell.
 */
import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { Cell } from '../../src/output/flatten.js';
import { csvField, csvLine } from '../../src/output/formats/csv.js';

/** The configuration the writer used with papaparse. */
const CONFIG = {
  newline: '\r\n',
  quotes: false,
  quoteChar: '"',
  delimiter: ',',
  header: false,
  escapeFormulae: false,
} as const;

const asIs = (s: string): string => s;

/** Text made mostly of the characters that decide quoting. */
const text = fc.oneof(
  fc.string(),
  fc
    .array(
      fc.constantFrom(' ', ',', '"', '\r', '\n', '\ufeff', '\t', 'a', 'é', '😀', "'", '=', ';'),
      { maxLength: 12 },
    )
    .map((parts) => parts.join('')),
);
const cell: fc.Arbitrary<Cell> = fc.oneof(
  text,
  fc.double(),
  fc.integer(),
  fc.constantFrom(0, -0, 1e21, 1e-7, 0.1, -0.42),
  fc.boolean(),
  fc.constant(null),
);

describe('csv against papaparse', () => {
  it('writes the same rows, byte for byte', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(cell, { maxLength: 8 }), { minLength: 1, maxLength: 6 }),
        (rows) => {
          const ours = rows.map((r) => csvLine(r, asIs)).join('');
          expect(ours).toBe(`${Papa.unparse(rows, CONFIG)}\r\n`);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('quotes a field for a comma, a quote, CR, LF, a BOM or edge spaces, and only then', () => {
    expect(['a', 'a b', '', "it's"].map(csvField)).toEqual(['a', 'a b', '', "it's"]);
    expect(['a,b', 'say "hi"', 'a\rb', 'a\nb', '\ufeffa', ' a', 'a '].map(csvField)).toEqual([
      '"a,b"',
      '"say ""hi"""',
      '"a\rb"',
      '"a\nb"',
      '"\ufeffa"',
      '" a"',
      '"a "',
    ]);
  });
});
