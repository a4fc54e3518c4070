import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { readRecords } from '../../src/output/index.js';
import { PAGE_SIZE } from '../../src/output/record-source.js';
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
  it(`yields pages of ${PAGE_SIZE}`, async () => {
    const many = Array.from({ length: 2 * PAGE_SIZE + 34 }, (_, i) => ({ id: i, t: 'é😀' }));
    const { records, pages } = await readAll(
      chunked(many.map((r) => JSON.stringify(r)).join('\n'), 4096),
    );
    expect(pages).toEqual([PAGE_SIZE, PAGE_SIZE, 34]);
    expect(records).toEqual(many);
  });
  it('reads our own -f json output (one record per line in an array)', async () => {
    const text = '[\n' + TRICKY_ARTICLES.map((r) => JSON.stringify(r)).join(',\n') + '\n]\n';
    expect((await readAll(chunked(text))).records).toEqual(TRICKY_ARTICLES);
    expect((await readAll(chunked(text, 65536))).records).toEqual(TRICKY_ARTICLES);
  });
  it('falls back to the scanner mid-file: a pretty-printed record after JSON Lines', async () => {
    const [a, b, c] = TRICKY_ARTICLES;
    const text = `${JSON.stringify(a)}\n${JSON.stringify(b, null, 2)}\n${JSON.stringify(c)} ${JSON.stringify(a)}\n`;
    expect((await readAll(chunked(text, 50))).records).toEqual([a, b, c, a]);
  });
  it('falls back to the scanner mid-array', async () => {
    const [a, b] = TRICKY_ARTICLES;
    const text = `[\n${JSON.stringify(a)},\n${JSON.stringify(b, null, 2)},\n${JSON.stringify(a)}\n]`;
    expect((await readAll(chunked(text, 13))).records).toEqual([a, b, a]);
  });
  it('streams a single-line array longer than a line may be', async () => {
    const many = Array.from({ length: 3000 }, (_, i) => ({ id: i, body: 'x'.repeat(2000) }));
    const { records } = await readAll(chunked(JSON.stringify(many), 65536));
    expect(records.length).toBe(3000);
    expect(records[2999]).toEqual(many[2999]);
  });
  it('an empty array gives no records', async () => {
    expect((await readAll(chunked('[]'))).records).toEqual([]);
  });
  it.each([
    'not json',
    '[1, 2]',
    '["a"]',
    '{"a": 1',
    '[{"a": 1}',
    '{"a": 1} x',
    '[\n{"a": 1},\n',
    '{"a": 1}\n[1]\n',
    '{"results": [1]}\n',
    '[\n{"a": 1}\n]\n{"b": x}\n',
  ])('rejects %j with a usage error', async (text) => {
    await expect(readAll(chunked(text))).rejects.toBeInstanceOf(UsageError);
  });
});
