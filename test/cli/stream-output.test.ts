/**
 * `news stream -o FILE` opens FILE only once the first connection is
 * accepted (a refused key or an unreachable server leaves it as it was), and
 * with --state continues it: a restarted stream appends to the same file,
 * its header written once, and a run that wrote nothing still leaves the
 * next one a place to resume from.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/server.js';
import { runCli } from '../helpers/cli.js';
import { call, startTestServer } from '../mock/server-helpers.js';

let publishing: MockServer;
let dir: string;
beforeAll(async () => {
  publishing = await startMockServer({ port: 0, quiet: true, publishRate: 6000 });
  dir = mkdtempSync(join(tmpdir(), 'news-stream-out-'));
});
afterAll(() => publishing.close());

const stream = (...args: string[]) =>
  runCli(['stream', '--base-url', publishing.url, '--retries', '0', ...args]);

describe('stream -o FILE is opened only once the connection is accepted', () => {
  it('a refused key leaves an existing file as it was (exit 3)', async () => {
    const file = join(dir, 'yesterday.jsonl');
    writeFileSync(file, '{"id":1}\n');
    const r = await stream('--api-key', 'api_live_not_a_key', '-o', file, '--max-events', '1');
    expect(r.code, r.stderr).toBe(3);
    expect(readFileSync(file, 'utf8')).toBe('{"id":1}\n');
  });

  it('an unreachable server leaves it as it was (exit 5), and creates nothing', async () => {
    const file = join(dir, 'kept.csv');
    writeFileSync(file, 'id\r\n1\r\n');
    const r = await runCli([
      'stream',
      '--base-url',
      'http://127.0.0.1:1',
      '--api-key',
      'k_live_x',
      '--retries',
      '0',
      '-o',
      file,
    ]);
    expect(r.code, r.stderr).toBe(5);
    expect(readFileSync(file, 'utf8')).toBe('id\r\n1\r\n');
    const fresh = join(dir, 'never.jsonl');
    await runCli([
      'stream',
      '--base-url',
      'http://127.0.0.1:1',
      '--api-key',
      'k_live_x',
      '--retries',
      '0',
      '-o',
      fresh,
    ]);
    expect(existsSync(fresh)).toBe(false);
  });

  it('a file that cannot be written is still refused before connecting (exit 2)', async () => {
    const r = await stream(
      '--api-key',
      'api_live_mock_pro',
      '-o',
      join(dir, 'no', 'such', 'x.jsonl'),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: cannot write/m);
  });

  it('without --state, an accepted stream replaces the file', async () => {
    const file = join(dir, 'replaced.jsonl');
    writeFileSync(file, '{"id":1}\n');
    const r = await stream('--api-key', 'api_live_mock_pro', '-o', file, '--max-events', '2');
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(2);
    expect(readFileSync(file, 'utf8')).not.toContain('{"id":1}');
  });
});

describe('stream --state -o FILE continues the file', () => {
  const rows = (file: string) =>
    readFileSync(file, 'utf8')
      .split('\r\n')
      .filter((l) => l !== '');

  it('csv: the header once, the second run after the first, nothing twice', async () => {
    const file = join(dir, 'live.csv');
    const state = join(dir, 'live.state');
    const line = (n: number, fields = 'id,title') =>
      stream(
        '--api-key',
        'api_live_mock_pro',
        '--fields',
        fields,
        '-o',
        file,
        '--state',
        state,
        '--max-events',
        String(n),
      );
    const first = await line(3);
    expect(first.code, first.stderr).toBe(0);
    expect(rows(file)).toHaveLength(4);
    const second = await line(2);
    expect(second.code, second.stderr).toBe(0);
    const all = rows(file);
    expect(all[0]).toBe('id,title');
    expect(all.filter((l) => l === 'id,title')).toHaveLength(1);
    const ids = all.slice(1).map((l) => Number(l.split(',')[0]));
    expect(ids).toHaveLength(5);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(new Set(ids).size).toBe(5);

    // Other columns would mix two tables in one file: refused, the file as it was.
    const before = readFileSync(file, 'utf8');
    const other = await line(1, 'id');
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('was started with other columns');
    expect(readFileSync(file, 'utf8')).toBe(before);
  }, 30_000);

  it('csv: a row cut short by a crash is removed, quoted line ends of whole rows kept', async () => {
    const file = join(dir, 'torn.csv');
    const whole = 'id,title\r\n1,"two\r\nlines, one title"\r\n';
    // Killed mid-row: an open quote would swallow every row after it.
    writeFileSync(file, `${whole}500009999,"Torn title, cut\r\nmid`);
    const r = await stream(
      '--api-key',
      'api_live_mock_pro',
      '--fields',
      'id,title',
      '-o',
      file,
      '--state',
      join(dir, 'torn.state'),
      '--max-events',
      '2',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /warning: .*torn\.csv: removed a record cut short by an earlier run \(its last 31 bytes\)/,
    );
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith(whole)).toBe(true);
    const parsed = Papa.parse<string[]>(text.trimEnd(), { newline: '\r\n' });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data).toHaveLength(4);
    expect(parsed.data[1]).toEqual(['1', 'two\r\nlines, one title']);
    expect(parsed.data.slice(2).every((row) => /^\d+$/.test(row[0]!) && row.length === 2)).toBe(
      true,
    );
  }, 30_000);

  it('jsonl: a half line is removed, every line parses', async () => {
    const file = join(dir, 'torn.jsonl');
    writeFileSync(file, '{"id":1}\n{"id":2,"title":"cut');
    const r = await stream(
      '--api-key',
      'api_live_mock_pro',
      '-o',
      file,
      '--state',
      join(dir, 'torn-jsonl.state'),
      '--max-events',
      '2',
    );
    expect(r.code, r.stderr).toBe(0);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    const ids = lines.map((l) => (JSON.parse(l) as { id: number }).id);
    expect(ids[0]).toBe(1);
    expect(ids.slice(1).every((id) => id > 2)).toBe(true);
  }, 30_000);

  it('a format written at the end cannot be continued: refused before connecting', async () => {
    const r = await stream(
      '--api-key',
      'api_live_mock_pro',
      '-o',
      join(dir, 'x.parquet'),
      '--state',
      join(dir, 'p.state'),
      '--max-events',
      '1',
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cannot be continued');
  });

  it('a run that wrote nothing leaves the next one its position: nothing indexed in between is lost', async () => {
    const quiet = await startTestServer({ timeScale: 0.001 });
    try {
      const state = join(dir, 'quiet.state');
      const file = join(dir, 'quiet.jsonl');
      const run = (...extra: string[]) =>
        runCli([
          'stream',
          '--base-url',
          quiet.url,
          '--api-key',
          'api_live_mock_pro',
          '--state',
          state,
          '-o',
          file,
          ...extra,
        ]);
      const first = await run('--duration', '300ms');
      expect(first.code, first.stderr).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe('');
      const between = (
        await call(quiet, 'POST', '/__mock/articles', {
          body: [{ title: 'between runs 1' }, { title: 'between runs 2' }],
        })
      ).json as { ids: number[] };
      const second = await run('--max-events', '2', '--duration', '10s');
      expect(second.code, second.stderr).toBe(0);
      const written = readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => (JSON.parse(l) as { id: number }).id);
      expect(written).toEqual(between.ids);
    } finally {
      await quiet.close();
    }
  }, 30_000);
});
