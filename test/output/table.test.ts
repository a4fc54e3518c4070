/**
 * The table writer: our layout drawn by cli-table3. What the golden file and
 * test/cli/terminal-output.test.ts do not pin: wide and combining characters,
 * a cut that lands inside an emoji, escape sequences, the box across pages,
 * the empty table, and no colour.
 */
import { readFileSync } from 'node:fs';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import type { ApiRecord } from '../../src/output/types.js';
import { exportToFile } from './helpers.js';

const article = (id: number, title: string): ApiRecord => ({
  id,
  title,
  language: 'en',
  published_at: '2025-03-04T05:06:07Z',
  source: { domain: 'example.com' },
});

async function table(
  records: readonly ApiRecord[],
  terminalWidth: number,
  tableStyle: 'plain' | 'box' = 'plain',
): Promise<string[]> {
  const { path } = await exportToFile('table', records, { terminalWidth, tableStyle });
  return readFileSync(path, 'utf8').replace(/\n$/, '').split('\n');
}

const WIDE = [
  article(1, '東京で会議、市場は好感：円相場が上昇'),
  article(2, 'Family 👩‍👩‍👧 and flags 🇫🇷🇩🇪 and faces 😀😀😀'),
  article(3, 'Combining: cafe\u0301, nai\u0308ve, Zoe\u0308 and plain ASCII text'),
  article(4, 'Plain ASCII title that is long enough to be cut'),
];

describe('table', () => {
  it('wide characters, emoji sequences and combining marks line up, whole or cut', async () => {
    for (const width of [60, 70, 80, 200]) {
      const lines = await table(WIDE, width, 'box');
      // In a box every line is as wide as the top border: a misjudged width shows at once.
      expect(new Set(lines.map((l) => stringWidth(l))), `width ${width}`).toEqual(
        new Set([stringWidth(lines[0]!)]),
      );
      expect(stringWidth(lines[0]!)).toBeLessThanOrEqual(width);
    }
    const whole = await table(WIDE, 200);
    expect(whole.join('\n')).toContain('👩‍👩‍👧 and flags 🇫🇷🇩🇪');
    expect(whole.join('\n')).toContain('cafe\u0301, nai\u0308ve');
  });

  it('a cut never leaves half an emoji (cli-table3 cuts by UTF-16 unit)', async () => {
    const records = [article(10, `a${'😀'.repeat(30)}`), article(11, '🇫🇷'.repeat(20))];
    let cuts = 0;
    for (let width = 50; width <= 70; width++) {
      const lines = await table(records, width);
      for (const line of lines.slice(1)) {
        expect(line.isWellFormed(), JSON.stringify(line)).toBe(true);
        expect(line).not.toContain('\uFFFD');
        expect(stringWidth(line)).toBeLessThanOrEqual(width);
        if (line.includes('…')) cuts += 1;
        // The id after the cut title stays in its column.
        expect(stringWidth(line.slice(0, line.lastIndexOf(' ') + 1))).toBe(
          stringWidth(lines[0]!.slice(0, lines[0]!.lastIndexOf(' ') + 1)),
        );
      }
    }
    expect(cuts).toBe(42);
  });

  it('escape sequences in a cell are removed before cli-table3 measures it', async () => {
    const lines = await table(
      [
        article(1, '\x1b[31mred\x1b[0m \x1b]8;;https://evil.example\x07link\x1b]8;;\x07 \x1b[2J'),
        article(2, 'plain'),
      ],
      80,
    );
    expect(lines.join('\n')).not.toMatch(/[\x1b\x07]/);
    expect(lines[1]).toMatch(/ red link +1$/);
    expect(lines[1]!.indexOf('red')).toBe(lines[2]!.indexOf('plain'));
  });

  it('a boxed table streams: one top, one header rule, one bottom, the same widths on every page', async () => {
    const records = [1, 2, 3, 4, 5].map((i) => article(i, `Title ${'x'.repeat(i * 10)}`));
    // Pages of 2: widths come from the first page, so later titles are cut to it.
    const lines = await table(records, 120, 'box');
    expect(lines).toHaveLength(1 + 1 + 1 + 5 + 1);
    expect(lines.filter((l) => l.startsWith('┌'))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('├'))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('└'))).toEqual([lines.at(-1)]);
    expect(new Set(lines.map((l) => stringWidth(l))).size).toBe(1);
    expect(lines[1]).toMatch(/^│ published +│ source +│ lang │ title +│ id │$/);
    expect(lines.slice(5, 8).every((l) => l.includes('…'))).toBe(true);
  });

  it('no records: the header alone, boxed or not', async () => {
    expect(await table([], 80)).toEqual(['published  source  lang  title  id']);
    expect(await table([], 80, 'box')).toEqual([
      '┌───────────┬────────┬──────┬───────┬────┐',
      '│ published │ source │ lang │ title │ id │',
      '└───────────┴────────┴──────┴───────┴────┘',
    ]);
  });

  it('draws no colour, even where colour is forced (cli-table3 colours headers by default)', async () => {
    const saved = process.env['FORCE_COLOR'];
    process.env['FORCE_COLOR'] = '1';
    try {
      for (const style of ['plain', 'box'] as const) {
        expect((await table(WIDE, 80, style)).join('\n')).not.toContain('\x1b');
      }
    } finally {
      if (saved === undefined) delete process.env['FORCE_COLOR'];
      else process.env['FORCE_COLOR'] = saved;
    }
  });
});
