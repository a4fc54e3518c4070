/**
 * A regular file cut into chunks read straight into the chunk buffers
 * (src/output/parallel/file-chunks.ts): whole lines, every byte once, the
 * last chunk marked, long lines read on into bigger buffers, buffers used
 * again.
 */
import { writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileChunks } from '../../src/output/parallel/file-chunks.js';
import { ChunkBuffers, MAX_PENDING } from '../../src/output/parallel/line-chunks.js';
import { tempDir } from './helpers.js';

async function cut(text: string | Buffer, size: number, buffers = new ChunkBuffers()) {
  const path = join(tempDir(), 'in.jsonl');
  writeFileSync(path, text);
  const handle = await open(path);
  const out: { text: string; whole: boolean; last: boolean }[] = [];
  try {
    for await (const chunk of fileChunks(handle, () => size, buffers)) {
      out.push({ text: chunk.bytes.toString(), whole: chunk.whole, last: chunk.last === true });
      buffers.give(chunk.bytes);
    }
  } finally {
    await handle.close();
  }
  return out;
}

describe('fileChunks', () => {
  it('cuts at the last line end within each chunk, and keeps every byte', async () => {
    const chunks = await cut('{"a":1}\n{"b":2}\n{"c":3}\n{"d":4}', 20);
    expect(chunks).toEqual([
      { text: '{"a":1}\n{"b":2}\n', whole: true, last: false },
      { text: '{"c":3}\n{"d":4}', whole: true, last: true },
    ]);
  });

  it('never cuts inside a UTF-8 character or a line', async () => {
    const lines = Array.from({ length: 200 }, (_, i) =>
      JSON.stringify({ i, t: 'é😀漢'.repeat(i % 7) }),
    );
    const chunks = await cut(`${lines.join('\n')}\n`, 64);
    expect(chunks.length).toBeGreaterThan(20);
    for (const c of chunks) expect(c.text.endsWith('\n')).toBe(true);
    expect(chunks.map((c) => c.text).join('')).toBe(`${lines.join('\n')}\n`);
    expect(chunks.filter((c) => c.last)).toHaveLength(1);
  });

  it('reads a line longer than a chunk on into bigger buffers, never splitting it', async () => {
    const long = `{"long":"${'x'.repeat(5000)}"}`;
    const chunks = await cut(`{"a":1}\n${long}\n{"b":2}\n`, 64);
    expect(chunks[0]!.text).toBe('{"a":1}\n');
    expect(chunks[1]!.text.startsWith(`${long}\n`)).toBe(true);
    expect(chunks.map((c) => c.text).join('')).toBe(`{"a":1}\n${long}\n{"b":2}\n`);
    expect(chunks.every((c) => c.whole)).toBe(true);
  });

  it('hands over a line of more than MAX_PENDING bytes unfinished (not whole)', async () => {
    const huge = Buffer.alloc(MAX_PENDING + 1000, 0x78);
    const chunks = await cut(
      Buffer.concat([Buffer.from('{"a":1}\n'), huge, Buffer.from('\n')]),
      1024 * 1024,
    );
    expect(chunks[0]!.text).toBe('{"a":1}\n');
    expect(chunks[1]!.whole).toBe(false);
    expect(chunks.slice(1).reduce((n, c) => n + Buffer.byteLength(c.text), 0)).toBe(
      huge.length + 1,
    );
  });

  it('gives nothing for an empty file, and uses buffers again', async () => {
    expect(await cut('', 64)).toEqual([]);
    const buffers = new ChunkBuffers();
    const lines = Array.from({ length: 100 }, (_, i) => `{"i":${i}}`).join('\n');
    const seen = new Set<ArrayBufferLike>();
    const path = join(tempDir(), 'in.jsonl');
    writeFileSync(path, lines);
    const handle = await open(path);
    for await (const chunk of fileChunks(handle, () => 100, buffers)) {
      seen.add(chunk.bytes.buffer);
      buffers.give(chunk.bytes);
    }
    await handle.close();
    expect(seen.size).toBeLessThan(3);
  });
});
