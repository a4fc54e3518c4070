/** --fields, atomic files, EPIPE, Ctrl-C, terminals, backpressure, lazy imports. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { Writable } from 'node:stream';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { InterruptedError, UsageError } from '../../src/api/errors.js';
import {
  exportRecords,
  formatFromPath,
  isBinaryFormat,
  FORMAT_NAMES,
} from '../../src/output/index.js';
import type { ExportOptions } from '../../src/output/index.js';
import type { ApiRecord } from '../../src/output/types.js';
import { exportToFile, filesIn, tempDir } from './helpers.js';
import { TRICKY_ARTICLES, pagesOf } from './tricky-records.js';

function options(extra: Partial<ExportOptions>): ExportOptions {
  return {
    format: 'jsonl',
    stdout: new Writable({ write: (_c, _e, cb) => cb() }),
    stdoutIsTTY: false,
    kind: 'article',
    warn: () => undefined,
    ...extra,
  };
}

/** Pages of `size` generated on demand; counts pulls and whether return() ran. */
function counted(
  pages: number,
  size = 10,
): { iterable: AsyncIterable<ApiRecord[]>; pulled: () => number; closed: () => boolean } {
  let pulled = 0;
  let closed = false;
  async function* gen(): AsyncGenerator<ApiRecord[]> {
    try {
      for (let p = 0; p < pages; p++) {
        pulled++;
        yield Array.from({ length: size }, (_, i) => ({
          id: p * size + i,
          title: 'x'.repeat(1000),
        }));
      }
    } finally {
      closed = true;
    }
  }
  return { iterable: gen(), pulled: () => pulled, closed: () => closed };
}

describe('--fields', () => {
  it('selects and orders columns in tabular formats', async () => {
    const { path } = await exportToFile('csv', TRICKY_ARTICLES, {
      fields: ['title', 'id', 'source.domain'],
    });
    const rows = Papa.parse<string[]>(readFileSync(path, 'utf8'), { skipEmptyLines: true }).data;
    expect(rows[0]).toEqual(['title', 'id', 'source.domain']);
    expect(rows[2]).toEqual([TRICKY_ARTICLES[1]!['title'], '2', 'example.org']);
  });
  it('nests dotted paths back into objects in JSON formats', async () => {
    const { path } = await exportToFile('json', TRICKY_ARTICLES, {
      fields: ['id', 'source.domain', 'sentiment.overall.score', 'entities.names'],
    });
    const records = JSON.parse(readFileSync(path, 'utf8')) as ApiRecord[];
    expect(records[0]).toEqual({
      id: 1,
      source: { domain: 'example.com' },
      sentiment: { overall: { score: -0.42 } },
      entities: { names: ['Acme; Inc', 'Zoë'] },
    });
    expect(records[4]).toEqual({ id: 5 });
  });
  it('falls back to a flat key when a path cannot nest', async () => {
    const { path } = await exportToFile('jsonl', TRICKY_ARTICLES.slice(0, 1), {
      fields: ['entities', 'entities.names'],
    });
    const record = JSON.parse(readFileSync(path, 'utf8')) as ApiRecord;
    expect(record['entities']).toEqual(TRICKY_ARTICLES[0]!['entities']);
    expect(record['entities.names']).toEqual(['Acme; Inc', 'Zoë']);
  });
  it('an unknown field is a usage error naming the closest valid ones, and no file is created', async () => {
    const dir = tempDir();
    const err = await exportRecords(
      pagesOf(TRICKY_ARTICLES),
      options({ format: 'csv', output: join(dir, 'x.csv'), fields: ['id', 'titel'] }),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toContain('titel');
    expect((err as UsageError).hint).toBe('did you mean title?');
    expect(filesIn(dir)).toEqual([]);
  });
  it('generic records: the valid fields are those of the first page', async () => {
    const err = await exportRecords(
      pagesOf([{ a: { b: 1 } }]),
      options({ kind: 'generic', fields: ['a'] }),
    ).catch((e: unknown) => e);
    expect((err as UsageError).hint).toContain('a.b');
  });
});

describe('atomic file output', () => {
  async function* failing(): AsyncGenerator<ApiRecord[]> {
    yield TRICKY_ARTICLES.slice(0, 2);
    throw new Error('network went away');
  }
  for (const format of ['csv', 'xlsx', 'parquet', 'json'] as const) {
    it(`${format}: a failed export leaves nothing, an existing file untouched`, async () => {
      const dir = tempDir();
      const path = join(dir, `out.${format}`);
      writeFileSync(path, 'previous');
      await expect(exportRecords(failing(), options({ format, output: path }))).rejects.toThrow(
        'network went away',
      );
      expect(filesIn(dir)).toEqual([`out.${format}`]);
      expect(readFileSync(path, 'utf8')).toBe('previous');
    });
  }
  it('Ctrl-C (abort) removes the temp file and throws InterruptedError', async () => {
    const dir = tempDir();
    const controller = new AbortController();
    async function* slow(): AsyncGenerator<ApiRecord[]> {
      yield TRICKY_ARTICLES.slice(0, 2);
      controller.abort();
      await new Promise(() => undefined); // a request that never answers
    }
    const err = await exportRecords(
      slow(),
      options({ format: 'csv', output: join(dir, 'out.csv'), signal: controller.signal }),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    expect(filesIn(dir)).toEqual([]);
  });
  it('a missing directory is a usage error', async () => {
    const err = await exportRecords(
      pagesOf(TRICKY_ARTICLES),
      options({ output: '/nonexistent-dir-xyz/out.jsonl' }),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
  });
  it('on success the temp file is gone and the result names the path', async () => {
    const { result, path } = await exportToFile('jsonl', TRICKY_ARTICLES);
    expect(result).toEqual({ records: 5, stoppedEarly: false, path });
    expect(filesIn(dirname(path))).toEqual(['out.jsonl']);
  });
});

describe('stdout', () => {
  it('EPIPE stops the export quietly and stops pulling pages', async () => {
    let writes = 0;
    const stdout = new Writable({
      write(_chunk, _enc, cb) {
        writes++;
        if (writes > 1) cb(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
        else cb();
      },
    });
    const source = counted(1000);
    const result = await exportRecords(source.iterable, options({ format: 'jsonl', stdout }));
    expect(result.stoppedEarly).toBe(true);
    expect(source.pulled()).toBeLessThan(200);
    expect(source.closed()).toBe(true);
  });
  it('pulls the next page only after the current one is written (backpressure)', async () => {
    const pending: (() => void)[] = [];
    const stdout = new Writable({ highWaterMark: 1024, write: (_c, _e, cb) => pending.push(cb) });
    const source = counted(100);
    const run = exportRecords(source.iterable, options({ format: 'jsonl', stdout }));
    await new Promise((r) => setTimeout(r, 50));
    const before = source.pulled();
    expect(before).toBeLessThan(60); // ~10 KB per page, 256 KB batches, nothing drained
    while (source.pulled() < 100 || pending.length > 0) {
      pending.shift()?.();
      await new Promise((r) => setImmediate(r));
    }
    await expect(run).resolves.toMatchObject({ records: 1000, stoppedEarly: false });
  });
  it('refuses binary formats to a terminal unless -o - says so', async () => {
    const err = await exportRecords(
      pagesOf(TRICKY_ARTICLES),
      options({ format: 'xlsx', stdoutIsTTY: true }),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).hint).toBe('use -o FILE, or -o - to write to stdout on purpose');
    const chunks: Buffer[] = [];
    const stdout = new Writable({
      write: (c: Buffer, _e, cb) => {
        chunks.push(c);
        cb();
      },
    });
    const result = await exportRecords(
      pagesOf(TRICKY_ARTICLES),
      options({ format: 'parquet', output: '-', stdout, stdoutIsTTY: true }),
    );
    expect(result.records).toBe(5);
    const bytes = Buffer.concat(chunks);
    expect(bytes.subarray(0, 4).toString()).toBe('PAR1');
    expect(bytes.subarray(-4).toString()).toBe('PAR1');
  });
});

describe('format names', () => {
  it('maps extensions, including .gz', () => {
    expect(formatFromPath('x.csv.gz')).toBe('csv');
    expect(formatFromPath('dir.v2/out.JSONL')).toBe('jsonl');
    expect(formatFromPath('feed.rss')).toBe('rss');
    expect(formatFromPath('a.parquet')).toBe('parquet');
    expect(formatFromPath('noext')).toBeUndefined();
    expect(formatFromPath('x.gz')).toBeUndefined();
    expect(FORMAT_NAMES.filter(isBinaryFormat)).toEqual(['xlsx', 'parquet']);
  });
});

describe('start-up cost', () => {
  it('index.ts reaches no heavy library through static imports', () => {
    const heavy = ['exceljs', 'hyparquet-writer', 'hysnappy', 'papaparse', 'fast-xml-parser'];
    const root = join(import.meta.dirname, '..', '..', 'src', 'output');
    const seen = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)'/gms)) {
        const spec = m[1]!;
        expect(heavy, `${file} imports ${spec}`).not.toContain(spec);
        if (spec.startsWith('.')) {
          const target = join(dirname(file), spec.replace(/\.js$/, '.ts'));
          if (existsSync(target)) visit(target);
        }
      }
    };
    visit(join(root, 'index.ts'));
    expect(seen.size).toBeGreaterThan(3);
  });
});
