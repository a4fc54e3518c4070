/**
 * Without a usable store file (none built, or a stale one), the committed
 * fixtures are encoded in memory: slower, the same store.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { REFERENCE_INSTANT, fixturesDataDir } from '../../src/mock/fixtures/committed.js';
import { parseFiles } from '../../src/mock/fixtures/data-files.js';

vi.mock('../../src/mock/store/store-file.js', async (original) => ({
  ...(await original<typeof import('../../src/mock/store/store-file.js')>()),
  readStoreFile: () => undefined,
}));

const { loadFixtures } = await import('../../src/mock/store/load.js');

describe('no store file', () => {
  it('encodes the committed files in memory, into the same articles', async () => {
    const now = new Date('2026-03-15T12:00:00.000Z');
    const store = await loadFixtures({ now });
    // Held in memory, not read from a file by offset.
    expect(store.json.fd).toBeUndefined();
    const { articles } = parseFiles((name) => readFileSync(join(fixturesDataDir(), name)));
    expect(store.size).toBe(articles.length);
    const shift = now.getTime() - REFERENCE_INSTANT;
    const shifted = articles.map((a) => ({
      ...a,
      published_at: new Date(Date.parse(a.published_at) + shift).toISOString(),
    }));
    expect(store.articles).toEqual(shifted);
    expect(store.journalists.length).toBeGreaterThan(100);
  });
});
