/**
 * `news stream` output against the mock: formats as records come, --duration,
 * files kept on Ctrl-C, tables, --dry-run and the redacted key (split from
 * stream.test.ts).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { KEY, post, stream, streamWhile, until, useStreamServer } from './stream-harness.js';

useStreamServer();

describe('news stream: output', () => {
  it('csv: one header, rows as they come; --fields picks the columns', async () => {
    const result = await streamWhile(
      ['--title', 'csvrow', '-f', 'csv', '--fields', 'id,title', '--max-events', '3'],
      () => post(['csvrow a', 'csvrow b', 'csvrow c']).then(() => undefined),
    );
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,title');
    expect(lines.slice(1).map((l) => l.split(',')[1])).toEqual([
      'csvrow a',
      'csvrow b',
      'csvrow c',
    ]);
  });

  it('json needs an end: refused without --max-events or --duration, a closed array with one', async () => {
    const endless = await stream(['-f', 'json']);
    expect(endless.code).toBe(2);
    expect(endless.stderr).toMatch(/--max-events N or --duration D/);
    const finite = await streamWhile(
      ['--title', 'jsonarr', '-f', 'json', '--max-events', '2'],
      () => post(['jsonarr 1', 'jsonarr 2']).then(() => undefined),
    );
    expect(finite.code).toBe(0);
    expect((JSON.parse(finite.stdout) as unknown[]).length).toBe(2);
  });

  it('--duration ends the stream with exit 0', async () => {
    const result = await stream(['--title', 'nothing-comes', '--duration', '300ms']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
  });

  it('a one-letter key is not "redacted" inside the words of the error and hint', async () => {
    const r = await runCli([
      'stream',
      '--base-url',
      'http://127.0.0.1:1',
      '--api-key',
      'k',
      '--retries',
      '0',
    ]);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/^hint: check the network, a proxy/m);
    expect(r.stderr).not.toContain('***');
    const dry = await runCli(['search', '--api-key', 'k', '--auth', 'query', '--dry-run']);
    expect(dry.stdout).toMatch(/\?api_key=\*\*\*/);
    expect(dry.stdout).not.toMatch(/api_key=k|api_\*/);
  });

  it('--duration over a server never reached: the network error and exit 5, as --max-events', async () => {
    const unreachable = (...extra: string[]) =>
      runCli(['stream', '--base-url', 'http://127.0.0.1:1', '--api-key', KEY, ...extra]);
    // Refused at once, then waiting to retry when the time is up.
    const refused = await unreachable('--retries', '5', '--duration', '500ms');
    expect(refused.code).toBe(5);
    expect(refused.stderr).toMatch(
      /^error: cannot connect to the stream at 127\.0\.0\.1:1 \(connection refused\)/m,
    );
    const counted = await unreachable('--retries', '0', '--max-events', '1');
    expect(counted.code).toBe(5);
    expect(counted.stderr).toMatch(/^error: cannot connect to the stream at 127\.0\.0\.1:1/m);

    // A server that takes the connection and never answers: no attempt has failed yet.
    const { createServer } = await import('node:net');
    const sockets: import('node:net').Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((ready) => silent.listen(0, '127.0.0.1', ready));
    try {
      const { port } = silent.address() as import('node:net').AddressInfo;
      const r = await runCli([
        'stream',
        '--base-url',
        `http://127.0.0.1:${port}`,
        '--api-key',
        KEY,
        '--duration',
        '300ms',
      ]);
      expect(r.code).toBe(5);
      expect(r.stderr).toMatch(
        /^error: the stream at 127\.0\.0\.1:\d+ accepted no connection within --duration \(0\.3 s\)/m,
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((closed) => silent.close(closed));
    }
  });

  it('-o x.jsonl keeps every complete record on Ctrl-C (exit 130)', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'news-stream-')), 'live.jsonl');
    const controller = new AbortController();
    const result = await streamWhile(
      ['--title', 'ctrlc', '-o', file],
      async () => {
        await post(['ctrlc 1', 'ctrlc 2', 'ctrlc 3']);
        await until(() => {
          try {
            return readFileSync(file, 'utf8').split('\n').length > 3;
          } catch {
            return false;
          }
        }, 'the records in the file');
        controller.abort();
      },
      { signal: controller.signal },
    );
    expect(result.code).toBe(130);
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => (JSON.parse(l) as { title: string }).title)).toEqual([
      'ctrlc 1',
      'ctrlc 2',
      'ctrlc 3',
    ]);
  });

  it('table rows on a terminal', async () => {
    const result = await streamWhile(
      ['--title', 'tablerow', '--max-events', '2'],
      () => post(['tablerow first', 'tablerow second']).then(() => undefined),
      { tty: 100 },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^published +source +.*title/m);
    expect(result.stdout).toContain('tablerow first');
    expect(result.stdout).toContain('tablerow second');
  });

  it('--dry-run prints the GET with the filters as query parameters, key redacted', async () => {
    const result = await stream([
      '--title',
      'rate cut',
      '--language-code',
      'en',
      '--stream-max-age',
      '30',
      '--dry-run',
      '--transport',
      'ws',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^GET .*\/v1\/news\/ws\?title=rate\+cut&language\.code=en&stream\.max_age=30/,
    );
    expect(result.stdout).not.toContain(KEY);
  });
});
