/**
 * Where the last complete record of a live file ends (src/output/complete-records.ts),
 * for a file cut at any byte: jsonl at its last line end, csv at its last
 * line end outside quotes, quoted line ends and quotes split across the
 * 1 MiB read chunks included.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completeLength } from '../../src/output/complete-records.js';
import { csvLine } from '../../src/output/formats/csv.js';

const dir = mkdtempSync(join(tmpdir(), 'news-complete-records-'));
let n = 0;
async function lengthOf(text: string | Buffer, ends: 'line' | 'csv'): Promise<number> {
  const file = join(dir, `f${n++}`);
  writeFileSync(file, text);
  return completeLength(file, ends);
}

/** A seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('completeLength', () => {
  it('line files end at their last line end; none is 0', async () => {
    expect(await lengthOf('', 'line')).toBe(0);
    expect(await lengthOf('{"id":1}', 'line')).toBe(0);
    expect(await lengthOf('{"id":1}\n{"id":2}\n', 'line')).toBe(18);
    expect(await lengthOf('{"id":1}\n{"id":2,"ti', 'line')).toBe(9);
    // Found from the end, across chunks.
    const long = `${'x'.repeat(3 * 1024 * 1024)}\n${'y'.repeat(1024 * 1024 + 5)}`;
    expect(await lengthOf(long, 'line')).toBe(3 * 1024 * 1024 + 1);
  });

  it('csv: a line end inside quotes ends no record', async () => {
    const head = 'id,title\r\n';
    const whole = `${head}1,"two\r\nlines, one record"\r\n`;
    expect(await lengthOf(whole, 'csv')).toBe(whole.length);
    expect(await lengthOf(`${whole}500009999,"Torn title, cut mid`, 'csv')).toBe(whole.length);
    expect(await lengthOf(`${whole}500009999,"Torn\r\ntitle, cut`, 'csv')).toBe(whole.length);
    expect(await lengthOf(`${whole}2,"said ""hi""\r`, 'csv')).toBe(whole.length);
    expect(await lengthOf('id,ti', 'csv')).toBe(0);
  });

  it('csv cut at any byte of a file of several chunks: the last whole record before the cut', async () => {
    const next = random(7);
    const pieces = ['"', ',', '\n', '\r\n', ' ', 'abc', 'é', '日本', '""'];
    const cell = () => {
      let s = '';
      const parts = Math.floor(next() * 40);
      for (let i = 0; i < parts; i++) s += pieces[Math.floor(next() * pieces.length)];
      return s;
    };
    const ends: number[] = [];
    const chunks: Buffer[] = [];
    let size = 0;
    while (size < 2.5 * 1024 * 1024) {
      const row = Buffer.from(csvLine([Math.floor(next() * 1e9), cell(), cell()], (s) => s));
      chunks.push(row);
      size += row.length;
      ends.push(size);
    }
    const file = Buffer.concat(chunks);
    const cuts = [1024 * 1024, 2 * 1024 * 1024, file.length];
    for (let i = 0; i < 12; i++) cuts.push(Math.floor(next() * file.length));
    for (const base of [1024 * 1024, 2 * 1024 * 1024]) {
      for (let d = -3; d <= 3; d++) cuts.push(base + d);
    }
    for (const cut of cuts) {
      const expected = ends.filter((e) => e <= cut).at(-1) ?? 0;
      expect(await lengthOf(file.subarray(0, cut), 'csv'), `cut at ${cut}`).toBe(expected);
    }
  }, 30_000);
});
