/**
 * The sink's staging buffers (src/output/sink.ts): bytes are copied, so a
 * caller may reuse its chunk once write() returns; text longer than a
 * staging buffer is split between whole characters; a file sink uses its
 * staging buffers again once written, and a sink over any other Writable
 * (which may keep what it is given) never does.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { AtomicFileSink } from '../../src/output/atomic-file-sink.js';
import { StdoutSink } from '../../src/output/stdout-sink.js';
import { tempDir } from './helpers.js';

/** 3 MB of text whose emoji (surrogate pairs) fall across every staging-buffer boundary. */
const TEXT = Array.from(
  { length: 60_000 },
  (_, i) => `${i} Zürich 🎉 ${'x'.repeat(i % 29)}\n`,
).join('');

async function writeAll(sink: AtomicFileSink | StdoutSink): Promise<void> {
  // One buffer, changed after every write: the sink must have copied it.
  const chunk = Buffer.alloc(300_000);
  for (let i = 0; i < 12; i++) {
    chunk.fill(65 + i);
    await sink.write(chunk);
    // As between pages of an export: write callbacks run, buffers come back.
    await new Promise((resolve) => setImmediate(resolve));
  }
  await sink.write(TEXT);
  await sink.write('\uD83D lone');
}

const EXPECTED = Buffer.concat([
  ...Array.from({ length: 12 }, (_, i) => Buffer.alloc(300_000, 65 + i)),
  Buffer.from(TEXT),
  Buffer.from('\uFFFD lone'),
]);

describe('staging buffers', () => {
  it('a file: chunks copied, text split between characters, buffers used again', async () => {
    const path = join(tempDir(), 'out.bin');
    const sink = await AtomicFileSink.open(path);
    await writeAll(sink);
    await sink.commit();
    expect(readFileSync(path).equals(EXPECTED)).toBe(true);
  });

  it('a Writable that keeps what it is given gets buffers no one writes into again', async () => {
    const kept: Buffer[] = [];
    const target = new PassThrough({ highWaterMark: 64 * 1024 * 1024 });
    target.on('data', (b: Buffer) => kept.push(b));
    const sink = new StdoutSink(target);
    await writeAll(sink);
    await sink.commit();
    expect(sink.copiesWrites).toBe(true);
    expect(Buffer.concat(kept).equals(EXPECTED)).toBe(true);
  });
});
