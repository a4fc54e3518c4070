/**
 * A batch's COPY text with each list item's nested values made into JSON
 * once (batch-text.ts) is, byte for byte, what mainLines and childLines
 * make one table at a time: for the fixture articles, and for lists with
 * odd items (numbers, null, nested lists, keys and values with COPY's
 * special characters and NUL, a field no column declares).
 */
import { describe, expect, it } from 'vitest';
import { layoutFor } from '../../src/output/destinations/database/schema.js';
import { BatchText } from '../../src/output/destinations/postgres/batch-text.js';
import { childLines, mainLines } from '../../src/output/destinations/postgres/copy.js';
import type { ApiRecord } from '../../src/output/types.js';
import { fixtureArticles } from './records.js';

const layout = layoutFor({ kind: 'article', write: 'merge' });
const text = (lines: Iterable<string | Uint8Array>) => [...lines].join('');

function expectSameText(rows: ApiRecord[]) {
  const batch = new BatchText([], rows, layout.children, (spec) => spec.declared);
  expect(text(batch.main(layout.main.declared))).toBe(text(mainLines(rows, layout.main.declared)));
  for (const child of layout.children) {
    const field = child.list?.field as string;
    expect(text(batch.child(child, child.declared)), field).toBe(
      text(childLines(rows, field, child.declared)),
    );
  }
}

describe('a batch COPY text with each list made into JSON once', () => {
  it('is what the table-at-a-time text is, for the fixture articles', () => {
    expectSameText(fixtureArticles(200));
  });

  it('and for odd lists', () => {
    const odd = 'tab \t nl \n bs \\ q " nul \u0000 text \\u0000 🦆';
    const [a, b] = fixtureArticles(2) as [ApiRecord, ApiRecord];
    const entities = [
      { id: 1, name: odd, [`key ${odd}`]: { [odd]: [odd, 1, null] }, undeclared: { x: 1 } },
      7,
      null,
      'text',
      [1, { nested: true }],
      { id: 2, name: null, sentiment: { score: 0.5 }, links: [] },
    ];
    expectSameText([
      { ...a, entities, topics: 'not a list', categories: [] },
      { ...b, entities: undefined, industries: [{ id: 3, name: odd }] },
    ]);
  });

  it('makes the lines for the columns asked for, not others', () => {
    const rows = fixtureArticles(5);
    const batch = new BatchText([], rows, layout.children, (spec) => spec.declared);
    const entities = layout.children.find((c) => c.list?.field === 'entities');
    if (entities === undefined) throw new Error('no entities table');
    text(batch.main(layout.main.declared));
    const fewer = entities.declared.slice(0, 4);
    expect(text(batch.child(entities, fewer))).toBe(text(childLines(rows, 'entities', fewer)));
  });
});
