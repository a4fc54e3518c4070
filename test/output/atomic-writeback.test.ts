/**
 * An atomic file hands its bytes to the disk while the export runs
 * (fdatasync every 16 MB, not awaited), so that the fsync before the rename
 * has little left: the file is whole after commit, and an abort during a
 * writeback still removes the temporary file.
 */
import * as fs from 'node:fs';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { AtomicFileSink } from '../../src/output/atomic-file-sink.js';
import { tempDir } from './helpers.js';

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof fs>();
  return { ...real, fdatasync: vi.fn(real.fdatasync) };
});

/** 40 MB in 1 MB pieces, each piece's bytes telling its number. */
async function writeForty(sink: AtomicFileSink): Promise<void> {
  for (let i = 0; i < 40; i++) await sink.write(Buffer.alloc(1024 * 1024, i));
}

describe('writeback while writing', () => {
  it('starts the disk every 16 MB and commits the whole file', async () => {
    const path = join(tempDir(), 'big.bin');
    vi.mocked(fs.fdatasync).mockClear();
    const sink = await AtomicFileSink.open(path);
    await writeForty(sink);
    await sink.commit();
    expect(vi.mocked(fs.fdatasync).mock.calls.length).toBeGreaterThanOrEqual(2);
    const bytes = readFileSync(path);
    expect(bytes.length).toBe(40 * 1024 * 1024);
    for (let i = 0; i < 40; i++) expect(bytes[i * 1024 * 1024 + 12345]).toBe(i);
  });

  it('an abort during a writeback removes the temporary file', async () => {
    const dir = tempDir();
    const sink = await AtomicFileSink.open(join(dir, 'big.bin'));
    await writeForty(sink);
    await sink.abort();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('nothing is synced early for a file written in place (a pipe, a device)', async () => {
    vi.mocked(fs.fdatasync).mockClear();
    const sink = await AtomicFileSink.open('/dev/null');
    await writeForty(sink);
    await sink.commit();
    expect(vi.mocked(fs.fdatasync)).not.toHaveBeenCalled();
  });
});
