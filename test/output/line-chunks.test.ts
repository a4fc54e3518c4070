import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LineReader } from '../../src/output/line-reader.js';
import { ChunkBuffers, lineChunks } from '../../src/output/parallel/line-chunks.js';

async function cut(pieces: (string | Buffer)[], size: number, buffers?: ChunkBuffers) {
  const out: { text: string; whole: boolean }[] = [];
  const input = Readable.from(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
  for await (const chunk of lineChunks(input, () => size, buffers)) {
    out.push({ text: chunk.bytes.toString(), whole: chunk.whole });
  }
  return out;
}

describe('lineChunks', () => {
  it('cuts at the last line end once a chunk is big enough, and keeps every byte', async () => {
    const chunks = await cut(['{"a":1}\n{"b"', ':2}\n{"c":3}\n{"d', '":4}'], 20);
    expect(chunks).toEqual([
      { text: '{"a":1}\n{"b":2}\n{"c":3}\n', whole: true },
      { text: '{"d":4}', whole: true },
    ]);
  });

  it('ends a chunk before a long line that runs on past its size', async () => {
    // The second piece brings the size on, and has no line end itself.
    const chunks = await cut(
      ['{"a":1}\n{"b":2}\n{"l', 'ong":"xxxxxxxx', 'xxxxxxxxxx', '"}\n{"c":3}'],
      20,
    );
    expect(chunks).toEqual([
      { text: '{"a":1}\n{"b":2}\n', whole: true },
      { text: '{"long":"xxxxxxxxxxxxxxxxxx"}\n', whole: true },
      { text: '{"c":3}', whole: true },
    ]);
  });

  it('never cuts inside a UTF-8 character or a line', async () => {
    const lines = Array.from({ length: 50 }, (_, i) => JSON.stringify({ i, t: 'é😀漢' }));
    const bytes = Buffer.from(lines.join('\n'));
    const pieces: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += 7) pieces.push(bytes.subarray(i, i + 7));
    const chunks = await cut(pieces, 64);
    expect(chunks.length).toBeGreaterThan(10);
    for (const c of chunks.slice(0, -1)) expect(c.text.endsWith('\n')).toBe(true);
    expect(chunks.map((c) => c.text).join('')).toBe(lines.join('\n'));
  });

  it('gives out buffers again once they are handed back', async () => {
    const buffers = new ChunkBuffers();
    const first = buffers.take(100);
    buffers.give(first);
    const second = buffers.take(90);
    expect(second.buffer).toBe(first.buffer);
    expect(second.length).toBe(90);
    expect(buffers.take(90).buffer).not.toBe(first.buffer);
  });
});

describe('LineReader, strict (as on a worker)', () => {
  it('stops at a line that is not one record, where a lenient reader scans on', () => {
    const text = '{"a":1}\n{\n  "b": 2\n}\n{"c":3}\n';
    const strict = new LineReader({ mode: 'lines', strict: true });
    strict.feed(text);
    expect(strict.failed).toBe(true);
    const lenient = new LineReader({ mode: 'lines' });
    lenient.feed(text);
    lenient.end();
    expect(lenient.out).toEqual([{ a: 1 }, { b: 2 }, { c: 3 }]);
  });

  it('reads array lines from the middle of an array and counts lines', () => {
    const reader = new LineReader({ mode: 'array', strict: true, line: 10 });
    reader.feed('{"a":1},\n{"b":2}\n]\n\n');
    reader.finishLine();
    expect(reader.failed).toBe(false);
    expect(reader.out).toEqual([{ a: 1 }, { b: 2 }]);
    expect(reader.mode).toBe('after');
    expect(reader.line).toBe(14);
  });
});
