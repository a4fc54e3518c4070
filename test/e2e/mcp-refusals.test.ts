/**
 * Against a recording server with a real-looking key: a value the CLI would
 * refuse sends nothing (and spends nothing), and the key appears nowhere in
 * what the client receives, even when the server echoes it back in a
 * balance or an error message.
 */
import { describe, expect, it } from 'vitest';
import { INITIALIZE, INITIALIZED, rawSession, rpc, serverEnv } from '../helpers/mcp.js';
import { TEST_KEY, apiFlags, useRecordingServer } from '../helpers/recording-server.js';

const server = useRecordingServer();

const callOf = (name: string, args: object) => rpc('tools/call', { name, arguments: args });

/** The tool results of a session, in request order (initialize left out). */
function results(messages: Record<string, unknown>[]) {
  return messages
    .filter((m) => typeof m['id'] === 'number' && (m['id'] as number) > 0)
    .sort((a, b) => (a['id'] as number) - (b['id'] as number))
    .map((m) => m['result'] as { isError?: boolean; content: { text: string }[]; _meta?: object });
}

describe('news mcp refusals', () => {
  it('send nothing for a value the CLI would refuse', { timeout: 30_000 }, async () => {
    const refusals = [
      callOf('search_news', { 'language.code': 'xx' }),
      callOf('search_news', { 'sentiment.overall.polarity': 'angry' }),
      callOf('search_news', { query: 'title:(a' }),
      callOf('search_news', { filters: { 'entity.sentiment.polarity': 'negative' } }),
      callOf('search_news', {
        title: 'rates',
        'published_at.start': '2026-01-01',
        'published_at.end': '2026-06-01',
      }),
      callOf('search_news', { limit: 101 }),
      callOf('search_news', { filters: { is_breakin: 1 } }),
      callOf('count_news', { nope: 1 }),
      callOf('get_person', { id: 'abc' }),
      callOf('search_local_news', {}),
      callOf('get_trends', {}),
      callOf('fact_check', {}),
      callOf('export_news', { output: '../x.csv' }),
    ];
    const run = await rawSession(
      [...apiFlags(server), '--max-points', '100'],
      [INITIALIZE, INITIALIZED, ...refusals],
      serverEnv(),
    );
    expect(run.code, run.stderr).toBe(0);
    const answers = results(run.messages);
    expect(answers).toHaveLength(refusals.length);
    for (const answer of answers) {
      expect(answer.isError, answer.content[0]?.text).toBe(true);
      expect(answer.content[0]?.text).toMatch(/^error: /);
    }
    const texts = answers.map((a) => a.content[0]!.text);
    expect(texts[3]).toMatch(/\[ER0293\]/);
    expect(texts[4]).toMatch(/\[ER0110\]/);
    expect(server.requests).toEqual([]);
    expect(run.stdout).toMatch(/"points_spent":0/);
  });

  it('without a key, send only ping', async () => {
    const run = await rawSession(
      ['--base-url', server.url, '--retries', '0'],
      [
        INITIALIZE,
        INITIALIZED,
        callOf('ping', {}),
        callOf('search_news', {}),
        callOf('balance', {}),
      ],
      serverEnv(),
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/warning: no API key/);
    const [ping, search, balance] = results(run.messages);
    expect(ping?.isError).toBeFalsy();
    expect(search?.content[0]?.text).toMatch(/^error: no API key/);
    expect(balance?.content[0]?.text).toMatch(/^error: no API key/);
    expect(server.requests.map((r) => r.url)).toEqual(['/ping']);
  });

  it('never hand the key to the client, even when the server echoes it', async () => {
    server.respondWith((req) => {
      if (req.url.startsWith('/v1/balance')) {
        return { body: { api_key: TEST_KEY, points: 42, plan: 'Basic' } };
      }
      return {
        status: 400,
        headers: { 'x-request-id': 'req_echo_1' },
        body: {
          status: 'error',
          request_id: 'req_echo_1',
          errors: [{ code: 'ER0100', message: `the key ${TEST_KEY} may not filter so` }],
        },
      };
    });
    const run = await rawSession(
      [...apiFlags(server), '-v'],
      [
        INITIALIZE,
        INITIALIZED,
        rpc('logging/setLevel', { level: 'debug' }),
        callOf('balance', {}),
        callOf('search_news', { title: 'rates' }),
      ],
      serverEnv(),
    );
    expect(run.code).toBe(0);
    expect(server.requests.length).toBe(2);
    expect(
      server.requests[0]?.headers['x-api-key'] ?? server.requests[0]?.headers['authorization'],
    ).toBeDefined();
    expect(run.stdout).not.toContain(TEST_KEY);
    expect(run.stderr).not.toContain(TEST_KEY);
    const [, balance, search] = results(run.messages);
    expect(balance?.isError).toBeFalsy();
    expect(balance?.content[0]?.text).toMatch(/"points":42/);
    expect(search?.isError).toBe(true);
    expect(search?.content[0]?.text).toMatch(/HTTP 400, ER0100, request id req_echo_1/);
    expect(search?._meta).toMatchObject({
      error: { code: 'ER0100', request_id: 'req_echo_1', status: 400 },
    });
  });
});
