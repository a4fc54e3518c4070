/**
 * What the server sends: each defect a hostile or broken server
 * could cause, one test each, through the whole CLI in-process.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORMAT_NAMES } from '../../src/output/formats.js';
import { isTerminalSafe } from '../../src/output/terminal-safe.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../output/helpers.js';
import { HostileServer, pageOf } from '../fuzz/hostile-server.js';

const KEY = 'api_live_Sup3r~Secret/Key+42';
const server = new HostileServer();
beforeAll(() => server.start());
afterAll(() => server.stop());
const dir = tempDir();

const search = (extra: string[] = [], env: Record<string, string> = {}) =>
  runCli(
    [
      'search',
      '--title',
      'rates',
      '--base-url',
      server.url,
      '--api-key',
      KEY,
      '--retries',
      '0',
      ...extra,
    ],
    { env },
  );

/** Every form of the key a careless server might echo, and a prefix of each. */
function leaks(text: string): string[] {
  const forms = [KEY, encodeURIComponent(KEY), new URLSearchParams({ k: KEY }).toString().slice(2)];
  const found = forms.filter((f) => text.includes(f));
  // Any 10 characters of the secret part, in any form, is a leak too.
  if (text.includes('Sup3r~Secr') || text.includes('Sup3r%7ESe')) found.push('part of the key');
  return found;
}

const errorLines = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('error:'));

describe('escape sequences and the key in server text', () => {
  it('strips escape sequences, OSC, BEL and bidi overrides from message, code and request id', async () => {
    server.answer(() => ({
      status: 400,
      body: {
        request_id: 'req\u001b]0;pwned\u0007-1\u202e',
        errors: [
          {
            code: 'ER\u001b[2J0704',
            message:
              'bad \u001b[31mred\u001b[0m query\u0007 \u202eevil\u202c\nerror: a forged line',
          },
        ],
      },
    }));
    const r = await search();
    expect(r.code).toBe(1);
    expect(isTerminalSafe(r.stderr.replaceAll('\n', ''))).toBe(true);
    expect(r.stderr).not.toMatch(
      /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/,
    );
    expect(errorLines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toContain('ER0704');
    expect(r.stderr).toContain('request id req-1');
  });

  it('redacts the key, raw and percent-encoded, from message, code, request id and headers', async () => {
    const encoded = encodeURIComponent(KEY);
    const query = new URLSearchParams({ k: KEY }).toString().slice(2);
    server.answer(() => ({
      status: 401,
      headers: { 'x-request-id': `hdr-${KEY}` },
      body: {
        errors: [
          {
            code: `${KEY}`,
            message: `key ${KEY} or ${encoded} or ${query} or ${encoded.toLowerCase()} is invalid`,
          },
        ],
      },
    }));
    const r = await search();
    expect(r.code).toBe(3);
    expect(leaks(r.stderr)).toEqual([]);
    expect(r.stderr).toContain('***');
    // The request id from the header, when the body has none.
    server.answer(() => ({
      status: 500,
      headers: { 'x-request-id': `id-${KEY}` },
      body: { errors: [{ message: 'boom' }] },
    }));
    const h = await search();
    expect(leaks(h.stderr)).toEqual([]);
    expect(h.stderr).toContain('request id id-***');
  });

  it('redacts before cutting a non-JSON body: no part of a key across the cut survives', async () => {
    // The key starts just before character 120 of the snippet.
    for (const at of [100, 110, 115, 119, 120]) {
      server.answer(() => ({
        status: 200,
        headers: { 'content-type': 'text/plain' },
        body: `${'y'.repeat(at)}${KEY} and more`,
      }));
      const r = await search();
      expect(r.code).toBe(1);
      expect(leaks(r.stderr)).toEqual([]);
      expect(r.stderr).not.toContain('api_live_Sup');
    }
    // The same in an error status with a plain-text body.
    server.answer(() => ({
      status: 502,
      headers: { 'content-type': 'text/plain' },
      body: `${'z'.repeat(115)}${KEY}`,
    }));
    const e = await search();
    expect(leaks(e.stderr)).toEqual([]);
    expect(e.stderr).not.toContain('api_live_Sup');
  });

  it('handles envelope fields of the wrong type without an internal error', async () => {
    const bodies: unknown[] = [
      { errors: [null] },
      { errors: [5, 'x'] },
      { errors: [{ message: { nested: true }, code: 5 }], request_id: { id: 1 } },
      { errors: [[]] },
      { errors: 'nope', message: 7 },
      [1, 2, 3],
      null,
      'just a string',
    ];
    for (const body of bodies) {
      server.answer(() => ({ status: 400, body }));
      const r = await search();
      expect(r.code, JSON.stringify(body)).toBe(1);
      expect(r.stderr).not.toContain('unexpected failure');
      expect(r.stderr).not.toContain('[object Object]');
      expect(errorLines(r.stderr)).toHaveLength(1);
    }
  });
});

describe('response size cap', () => {
  it('stops reading an endless body at the cap: exit 1 and a clear error', async () => {
    server.answer(() => ({ endless: 'x'.repeat(64 * 1024) }));
    const r = await search(['--max-response-mb', '1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error: the response from 127\.0\.0\.1:\d+ is larger than 1 MB; stopped reading it$/m,
    );
    expect(r.stderr).toMatch(/--max-response-mb/);
    expect(server.requests).toHaveLength(1); // never retried
  });

  it('refuses an announced Content-Length above the cap before reading', async () => {
    server.answer(() => ({
      headers: { 'content-length': String(3 * 1024 * 1024) },
      endless: 'x'.repeat(1024),
    }));
    const r = await search([], { NEWS_MAX_RESPONSE_MB: '2' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/larger than 2 MB/);
  });

  it('a legitimate answer under a raised cap is read whole', async () => {
    const results = Array.from({ length: 30 }, (_, i) => ({
      id: i + 1,
      title: `t${i}`,
      body: 'b'.repeat(100_000),
    }));
    server.answer(() => ({ body: { status: 'ok', page: 1, has_next_pages: false, results } }));
    const small = await search(['--max-response-mb', '2', '-f', 'jsonl']);
    expect(small.code).toBe(1);
    const big = await search(['--max-response-mb', '8', '-f', 'jsonl']);
    expect(big.code).toBe(0);
    expect(big.stdout.trim().split('\n')).toHaveLength(30);
  });

  it('refuses a cap it cannot honour (exit 2)', async () => {
    for (const bad of ['0', '-1', 'abc', '1e9', 'Infinity']) {
      const r = await search(['--max-response-mb', bad]);
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toMatch(/^error: --max-response-mb must be a number of megabytes/m);
    }
  });
});

describe('records that are not objects', () => {
  const results = [
    null,
    'a string',
    42,
    [1, 2],
    true,
    { id: 7, title: 'kept', published_at: '2026-11-01T00:00:00Z' },
  ];
  const binary = new Set(['xlsx', 'parquet']);
  for (const format of FORMAT_NAMES) {
    it(`${format}: skipped with a warning naming their positions, never an internal error`, async () => {
      server.answer(() => ({ body: { status: 'ok', page: 1, has_next_pages: false, results } }));
      const out = join(dir, `nonobject.${format}`);
      const r = await search(['-f', format, ...(binary.has(format) ? ['-o', out] : [])]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(
        /^warning: page 1: records 1, 2, 3, 4, 5 of 6 are not an object \(null, string, number, an array, boolean\); skipped$/m,
      );
      expect(r.stderr).not.toContain('unexpected failure');
      if (binary.has(format)) expect(existsSync(out)).toBe(true);
      else {
        expect(r.stdout).toContain('kept');
        expect(r.stdout).not.toMatch(/^null,?$/m);
      }
    });
  }
});

describe('pages that never end', () => {
  const page = (n: number, ids: number[], more = true, echo: number | null = n) => ({
    body: {
      status: 'ok',
      ...(echo === null ? {} : { page: echo }),
      has_next_pages: more,
      results: ids.map((id) => ({ id, title: `t${id}` })),
    },
  });

  it('the same page forever: stops after the repeat, with a warning, each record once', async () => {
    server.answer(() => page(1, [1, 2, 3]));
    const r = await search(['--all', '-f', 'jsonl']);
    expect(r.code).toBe(0);
    expect(server.requests.length).toBe(2);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { id: number }).id),
    ).toEqual([1, 2, 3]);
    expect(r.stderr).toMatch(/^warning: page 2: the server answered page 1 again; stopped paging/m);
  });

  it('without a page number in the envelope: the same page again ends the loop', async () => {
    server.answer(() => page(1, [1, 2, 3], true, null));
    const r = await search(['--all', '-f', 'csv']);
    expect(r.code).toBe(0);
    expect(server.requests.length).toBe(2);
    expect(r.stderr).toMatch(/^warning: page 2 repeats the page before it; stopped paging$/m);
  });

  it('pages that keep bringing nothing new, numbered as asked: stops after ten in a row', async () => {
    // The page number advances, the records do not: ten pages without a new one end it.
    server.answer((req) => {
      const n = pageOf(req);
      return page(n, n % 2 === 0 ? [1, 2, 3] : [3, 2, 1]);
    });
    const r = await search(['--all', '-f', 'jsonl']);
    expect(r.code).toBe(0);
    // Eleven pages (and the window's probe, one article, which finds no date to pin to).
    const pages = server.requests.filter((q) => q.json?.['per_page'] !== 1).map(pageOf);
    expect(pages).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(r.stdout.trim().split('\n')).toHaveLength(3);
    expect(r.stderr).toMatch(
      /^warning: pages 2 to 11 brought no record that was not already written; stopped paging$/m,
    );
  });

  it('overlapping pages: records already written are skipped, paging goes on', async () => {
    server.answer((req) => {
      const n = pageOf(req);
      return page(n, [n * 2 - 1, n * 2, n * 2 + 1], n < 4);
    });
    const r = await search(['--all', '-f', 'jsonl', '-v']);
    expect(r.code).toBe(0);
    const ids = r.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { id: number }).id);
    expect(ids).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(new Set(ids).size).toBe(ids.length);
    // Normal for a list that grows while it is paged: said with -v, not warned about.
    expect(r.stderr).toMatch(/^debug: paging: page 2 \(3 records\): skipped 1 already written$/m);
    expect(r.stderr).not.toMatch(/^warning:/m);
  });

  it('records without ids: an identical page ends the loop', async () => {
    server.answer(() => ({
      body: { has_next_pages: true, results: [{ name: 'a' }, { name: 'b' }] },
    }));
    const r = await search(['--all', '-f', 'jsonl']);
    expect(r.code).toBe(0);
    expect(server.requests.length).toBe(2);
    expect(r.stdout.trim().split('\n')).toHaveLength(2);
    expect(r.stderr).toMatch(/page 2 repeats an earlier page; stopped paging/);
  });

  it('--raw --all: the same body again ends the loop', async () => {
    server.answer(() => page(1, [1]));
    const r = await search(['--all', '--raw']);
    expect(r.code).toBe(0);
    expect(server.requests.length).toBe(2);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^warning: page 2 is the same as page 1; stopped paging$/m);
  });

  it('leaves no temporary file after any of this with -o', async () => {
    server.answer(() => page(1, [1, 2]));
    const out = join(dir, 'loop.csv');
    const r = await search(['--all', '-o', out]);
    expect(r.code).toBe(0);
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(3);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
