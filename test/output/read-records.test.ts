import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { readRecords } from '../../src/output/index.js';
import type { ApiRecord } from '../../src/output/types.js';
import { TRICKY_ARTICLES } from './tricky-records.js';

/** Feeds `text` in small chunks so records, keys and UTF-8 sequences straddle chunk boundaries. */
function chunked(text: string, size = 7): Readable {
  const bytes = Buffer.from(text);
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
  return Readable.from(parts);
}

async function readAll(input: Readable): Promise<{ records: ApiRecord[]; pages: number[] }> {
  const records: ApiRecord[] = [];
  const pages: number[] = [];
  for await (const page of readRecords(input)) {
    pages.push(page.length);
    records.push(...page);
  }
  return { records, pages };
}

describe('readRecords', () => {
  it('reads a JSON array', async () => {
    const { records } = await readAll(chunked(JSON.stringify(TRICKY_ARTICLES, null, 2)));
    expect(records).toEqual(TRICKY_ARTICLES);
  });
  it('reads a saved envelope through its results', async () => {
    const envelope = {
      status: 'ok',
      page: 1,
      export: { json: 'x' },
      results: TRICKY_ARTICLES,
      has_next_pages: false,
    };
    expect((await readAll(chunked(JSON.stringify(envelope)))).records).toEqual(TRICKY_ARTICLES);
  });
  it('reads JSON Lines, blank lines and CRLF included', async () => {
    const text = TRICKY_ARTICLES.map((r) => JSON.stringify(r)).join('\r\n\n') + '\n';
    expect((await readAll(chunked(text))).records).toEqual(TRICKY_ARTICLES);
  });
  it('reads JSON Lines of envelopes', async () => {
    const text = [{ results: TRICKY_ARTICLES.slice(0, 2) }, { results: TRICKY_ARTICLES.slice(2) }]
      .map((e) => JSON.stringify(e))
      .join('\n');
    expect((await readAll(chunked(text))).records).toEqual(TRICKY_ARTICLES);
  });
  it('yields pages of 500', async () => {
    const many = Array.from({ length: 1234 }, (_, i) => ({ id: i, t: 'é😀' }));
    const { records, pages } = await readAll(
      chunked(many.map((r) => JSON.stringify(r)).join('\n'), 4096),
    );
    expect(pages).toEqual([500, 500, 234]);
    expect(records).toEqual(many);
  });
  it('an empty array gives no records', async () => {
    expect((await readAll(chunked('[]'))).records).toEqual([]);
  });
  it.each(['not json', '[1, 2]', '["a"]', '{"a": 1', '[{"a": 1}', '{"a": 1} x'])(
    'rejects %j with a usage error',
    async (text) => {
      await expect(readAll(chunked(text))).rejects.toBeInstanceOf(UsageError);
    },
  );
});
