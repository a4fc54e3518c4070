/**
 * `news stream` against the mock over real sockets: every matching article
 * exactly once and in order through forced disconnects (SSE and WebSocket),
 * the stream's error codes and their exit codes, and the sessions commands
 * (output formats, files and Ctrl-C: stream-live-output.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { KEY, ids, post, server, stream, streamWhile, useStreamServer } from './stream-harness.js';

useStreamServer();

describe('news stream: never lose, never duplicate', () => {
  for (const transport of ['sse', 'ws'] as const) {
    it(`writes each of 1,000 published articles' matches once, in order, through a cut every 7 events (${transport})`, async () => {
      const titles = Array.from({ length: 1000 }, (_, i) =>
        i % 4 === 0 ? `skip ${i}` : `keep ${i}`,
      );
      let expected: number[] = [];
      const result = await streamWhile(
        [
          '--title',
          'keep',
          '--transport',
          transport,
          '--header',
          'X-Mock-Scenario: drop-after-7',
          '--max-events',
          '750',
        ],
        async () => {
          // Published in ten batches while the client keeps reconnecting.
          for (let i = 0; i < 1000; i += 100) {
            const batch = await post(titles.slice(i, i + 100));
            expected.push(...batch.filter((_, j) => titles[i + j]!.startsWith('keep')));
            await new Promise((r) => setTimeout(r, 10));
          }
        },
      );
      // Nothing but a note per reconnect (said without -v: a drop is never silent).
      const other = result.stderr
        .split('\n')
        .filter(
          (l) => l !== '' && !/^note: \S+Z the stream dropped \(.+\); reconnecting in /.test(l),
        );
      expect(other).toEqual([]);
      expect(result.stderr).toMatch(/reconnecting in \d+ ms after id \d+$/m);
      expect(result.code).toBe(0);
      expected = expected.slice(0, 750);
      expect(ids(result.stdout)).toEqual(expected);
    }, 60_000);
  }

  it('resumes after --last-event-id with the articles indexed since', async () => {
    const [first, ...rest] = await post(['resume one', 'resume two', 'other', 'resume three']);
    const result = await stream([
      '--title',
      'resume',
      '--last-event-id',
      String(first),
      '--max-events',
      '2',
    ]);
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual([rest[0], rest[2]]);
  });

  it('reconnects on ER0362 (session lifetime) and goes on', async () => {
    const result = await streamWhile(
      [
        '--title',
        'lifetime',
        '--header',
        'X-Mock-Scenario: expire-after-2',
        '--max-events',
        '5',
        '-v',
      ],
      async () => {
        await post(['lifetime 1', 'lifetime 2', 'lifetime 3', 'lifetime 4', 'lifetime 5']);
      },
    );
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toHaveLength(5);
    expect(new Set(ids(result.stdout)).size).toBe(5);
    expect(result.stderr).toMatch(
      /^note: \S+Z the stream dropped \(session lifetime reached \(ER0362\)\); reconnecting in /m,
    );
  });
});

describe('news stream: errors and exit codes', () => {
  it('ER0301 on connect with an empty balance: exit 4', async () => {
    const result = await stream(['--max-events', '1'], { key: 'api_live_mock_empty' });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^error: .*ER0301/m);
    expect(result.stdout).toBe('');
  });

  it('ER0301 mid-stream: what arrived is written, then exit 4', async () => {
    const key = 'api_live_mock_basic';
    const account = server.accounts.get(key)!;
    account.charge(account.points - 2);
    const result = await streamWhile(
      ['--title', 'points'],
      () => post(['points 1', 'points 2', 'points 3']).then(() => undefined),
      { key },
    );
    expect(result.code).toBe(4);
    expect(ids(result.stdout)).toHaveLength(2);
    expect(result.stderr).toMatch(/ER0301/);
    expect(result.stderr).toMatch(/^hint: /m);
  });

  it('ER0360 too many open streams: exit 4 with what to do', async () => {
    const key = 'api_live_mock_free';
    const controllers = [new AbortController(), new AbortController()];
    await Promise.all(
      controllers.map((c) =>
        fetch(`${server.url}/v1/news/stream`, { headers: { 'x-api-key': key }, signal: c.signal }),
      ),
    );
    try {
      const result = await stream(['--max-events', '1'], { key });
      expect(result.code).toBe(4);
      expect(result.stderr).toMatch(/ER0360/);
      expect(result.stderr).toMatch(/news stream sessions/);
    } finally {
      for (const c of controllers) c.abort();
    }
  });

  it('ER0361 key revoked: exit 3 after writing what arrived', async () => {
    const result = await streamWhile(
      ['--title', 'revoked', '--header', 'X-Mock-Scenario: revoke-after-1'],
      () => post(['revoked 1', 'revoked 2']).then(() => undefined),
    );
    expect(result.code).toBe(3);
    expect(ids(result.stdout)).toHaveLength(1);
    expect(result.stderr).toMatch(/ER0361/);
  });

  it('ER0363: --stream-max-age out of range exits 2 before connecting', async () => {
    const before = server.accounts.get(KEY)!.used;
    for (const value of ['0', '1441', '1.5', 'abc']) {
      const result = await stream(['--stream-max-age', value]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^error: --stream-max-age .*ER0363/m);
    }
    expect(server.accounts.get(KEY)!.used).toBe(before);
  });

  it('a bad filter exits 2 before connecting, as on search', async () => {
    const result = await stream(['--sentiment-overall-score-min', '7']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: --sentiment-overall-score-min/m);
  });

  it('ER0364: a session closed through the sessions endpoint ends the stream with exit 0 and a note', async () => {
    const result = await streamWhile(['--title', 'closing', '--transport', 'ws'], async () => {
      const list = await runCli(['stream', 'sessions', '--base-url', server.url, '--api-key', KEY]);
      expect(list.code).toBe(0);
      const sessions = JSON.parse(list.stdout) as {
        session_id: string;
        transport: string;
        filters: { title?: string };
      }[];
      const mine = sessions.filter((s) => s.transport === 'ws' && s.filters.title === 'closing');
      expect(mine).toHaveLength(1);
      const closed = await runCli([
        'stream',
        'sessions',
        'close',
        mine[0]!.session_id,
        '--base-url',
        server.url,
        '--api-key',
        KEY,
      ]);
      expect(closed.code).toBe(0);
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/closed on purpose \(ER0364\)/);
  });

  it('sessions -f table never cuts the session id, the value `sessions close` needs', async () => {
    const result = await streamWhile(['--title', 'narrow table'], async () => {
      const list = await runCli(
        ['stream', 'sessions', '--base-url', server.url, '--api-key', KEY, '-f', 'table'],
        { tty: 40 },
      );
      expect(list.code).toBe(0);
      const [head, ...rows] = list.stdout.trimEnd().split('\n');
      expect(head).toMatch(/^session_id\s/);
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row).toMatch(/^ss_[0-9a-f]{16} /);
      await runCli([
        'stream',
        'sessions',
        'close',
        rows.at(-1)!.split(' ')[0]!,
        '--base-url',
        server.url,
        '--api-key',
        KEY,
      ]);
    });
    expect(result.code).toBe(0);
  });

  it('no sessions: -f table prints the header alone, as search does with no results; json []', async () => {
    const table = await runCli(['stream', 'sessions', '--mock', '-f', 'table']);
    expect(table.code).toBe(0);
    expect(table.stdout).toBe(
      'session_id  transport  opened_at  filters  events_sent  last_event_id\n',
    );
    const csv = await runCli(['stream', 'sessions', '--mock', '-f', 'csv']);
    expect(csv.stdout.trim()).toBe(
      'session_id,transport,opened_at,filters,events_sent,last_event_id',
    );
    const json = await runCli(['stream', 'sessions', '--mock', '-f', 'json']);
    expect(JSON.parse(json.stdout)).toEqual([]);
  });

  it('closing an unknown session exits 1 with the 404', async () => {
    const result = await runCli([
      'stream',
      'sessions',
      'close',
      'ss_nope',
      '--base-url',
      server.url,
      '--api-key',
      KEY,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/HTTP 404/);
  });
});
