/**
 * `news mcp` over stdio, driven by the MCP SDK's own client spawning the
 * built binary against the mock: every read tool answers, a search finds
 * what `news search -f json` finds, stdout carries JSON-RPC only, the budget
 * refuses, export_news writes a file with progress, resources read.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  INITIALIZE,
  INITIALIZED,
  type StdioSession,
  connectStdio,
  rawSession,
  rpc,
  serverEnv,
} from '../helpers/mcp.js';
import { scratchDir } from '../helpers/scratch.js';
import { BIN, runToEnd } from '../helpers/spawn.js';

type Result = {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
};

/** Arguments that find something in the fixtures, for the tools that need some. */
const ARGS: Readonly<Record<string, Record<string, unknown>>> = {
  search_news: { 'language.code': ['en'], limit: 3 },
  get_story: { id: 500000002 },
  get_articles: { ids: [500000002, 500000004] },
  get_trends: { field: ['topic.id'] },
  search_local_news: { place: 'Paris' },
  get_entity_news: { id: 20006 },
  fact_check: { claim: 'The central bank raised interest rates' },
  suggest_entities: { prefix: 'tesl' },
  suggest_categories: { prefix: 'bank' },
  suggest_topics: { prefix: 'econ' },
  suggest_industries: { prefix: 'bank' },
  get_person: { id: 10001 },
  get_company: { id: 20001 },
  get_journalist: { id: 7000001 },
};

async function call(client: Client, name: string, args: object = {}): Promise<Result> {
  return (await client.callTool({ name, arguments: args as Record<string, unknown> })) as Result;
}

const ids = (r: Result) =>
  ((r.structuredContent?.['results'] ?? []) as { id: number }[]).map((record) => record.id);

describe('news mcp over stdio, with the mock', () => {
  let session: StdioSession;
  let exportDir: string;
  beforeAll(async () => {
    exportDir = scratchDir('mcp-exports-');
    session = await connectStdio(['--mock', '--export-dir', exportDir]);
  }, 30_000);
  afterAll(() => session.close());

  it('initialises with the tools, resources and logging capabilities', () => {
    const client = session.client;
    expect(client.getServerVersion()?.name).toBe('news');
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, logging: {} });
    expect(client.getInstructions()).toMatch(/search_news/);
  });

  it('answers every read tool once', { timeout: 60_000 }, async () => {
    const { tools } = await session.client.listTools();
    expect(tools.length).toBeGreaterThanOrEqual(24);
    for (const tool of tools) {
      if (tool.name === 'export_news') continue;
      const result = await call(session.client, tool.name, ARGS[tool.name] ?? {});
      expect(result.isError, `${tool.name}: ${result.content[0]?.text}`).toBeFalsy();
      const records = result.structuredContent?.['results'] as Record<string, unknown>[];
      expect(Array.isArray(records), tool.name).toBe(true);
      // Whole article texts only when `fields` asks for them.
      for (const record of records) expect(record, tool.name).not.toHaveProperty('body');
      expect(typeof result.structuredContent?.['has_more']).toBe('boolean');
      expect(result.content[0]?.text).toMatch(new RegExp(`^${tool.name}: `));
      expect(typeof result._meta?.['points_spent']).toBe('number');
    }
  });

  it('finds the ids `news search --mock -f json` finds, direct or through filters', async () => {
    const cli = await runToEnd(
      process.execPath,
      [
        BIN,
        'search',
        '--mock',
        '--language-code',
        'en',
        '--sentiment-overall-polarity',
        'negative',
        '--is-breaking',
        '--limit',
        '7',
        '-f',
        'json',
      ],
      serverEnv(),
    );
    expect(cli.code, cli.stderr).toBe(0);
    const expected = (JSON.parse(cli.stdout) as { id: number }[]).map((r) => r.id);
    expect(expected.length).toBeGreaterThan(0);
    const direct = await call(session.client, 'search_news', {
      'language.code': ['en'],
      'sentiment.overall.polarity': 'negative',
      filters: { is_breaking: true },
      limit: 7,
    });
    const filtered = await call(session.client, 'search_news', {
      filters: { 'language.code': 'en', 'sentiment.overall.polarity': 'negative', is_breaking: 1 },
      limit: 7,
    });
    expect(ids(direct)).toEqual(expected);
    expect(ids(filtered)).toEqual(expected);
  });

  it('pages on with page, as --page does', async () => {
    const first = await call(session.client, 'search_news', { limit: 4 });
    const second = await call(session.client, 'search_news', { limit: 4, page: 2 });
    const both = await call(session.client, 'search_news', { limit: 8 });
    expect(first.structuredContent).toMatchObject({ has_more: true, next_page: 2, returned: 4 });
    expect([...ids(first), ...ids(second)]).toEqual(ids(both));
  });

  it('refuses a bad value as a tool error naming the parameter, the rule and the code', async () => {
    const bad = await call(session.client, 'search_news', { query: 'title:(a' });
    expect(bad.isError).toBe(true);
    expect(bad.content[0]?.text).toMatch(/^error: query: .*\[ER07\d\d\]/);
    expect(bad._meta).toMatchObject({
      points_call: 0,
      error: { code: expect.stringMatching(/^ER07/) },
    });
    const limit = await call(session.client, 'search_news', { limit: 500 });
    expect(limit.content[0]?.text).toMatch(/^error: limit must be a whole number from 1 to 100/);
  });

  it('writes an export into the folder with progress, and refuses a way out', async () => {
    const progress: number[] = [];
    const result = (await session.client.callTool(
      { name: 'export_news', arguments: { output: 'en.csv', 'language.code': 'en', limit: 250 } },
      undefined,
      { onprogress: (p) => progress.push(p.progress) },
    )) as Result;
    expect(result.isError, result.content[0]?.text).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      path: join(exportDir, 'en.csv'),
      records: 250,
      format: 'csv',
    });
    expect(result.structuredContent?.['points']).toBeGreaterThan(0);
    expect(readFileSync(join(exportDir, 'en.csv'), 'utf8').split('\n').length).toBeGreaterThan(250);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toBe(250);
    const out = await call(session.client, 'export_news', { output: '../out.csv', limit: 5 });
    expect(out.isError).toBe(true);
    expect(out.content[0]?.text).toMatch(/leaves the export folder/);
    expect(readdirSync(exportDir)).toEqual(['en.csv']);
  });

  it('stops an export the client cancels, leaving nothing in the folder', async () => {
    const folder = scratchDir('mcp-cancel-');
    const own = await connectStdio(['--mock', '--export-dir', folder]);
    try {
      const controller = new AbortController();
      const cancelled = own.client.callTool(
        { name: 'export_news', arguments: { output: 'all.jsonl', all: true } },
        undefined,
        { signal: controller.signal, onprogress: () => controller.abort() },
      );
      await expect(cancelled).rejects.toThrow(/abort/i);
      // The server removes its temporary file and spool once the paging has stopped.
      for (let i = 0; i < 100 && readdirSync(folder).length > 0; i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(readdirSync(folder)).toEqual([]);
      expect((await call(own.client, 'ping')).isError).toBeFalsy();
    } finally {
      await own.close();
    }
  });

  it('reads the reference resources and the exported files', async () => {
    await call(session.client, 'export_news', { output: 'few.jsonl', limit: 3 });
    const { resources } = await session.client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toEqual(
      expect.arrayContaining([
        'news://docs/query-language',
        'news://docs/fields',
        'news://docs/parameters',
        'news://exports/few.jsonl',
      ]),
    );
    const read = async (uri: string) =>
      ((await session.client.readResource({ uri })).contents[0] as { text: string }).text;
    expect(await read('news://docs/parameters')).toMatch(/`sentiment\.overall\.polarity`/);
    expect(await read('news://docs/query-language')).toMatch(/entity\.sentiment\.polarity/);
    expect(await read('news://docs/fields')).toMatch(/`source\.domain`/);
    expect((await read('news://exports/few.jsonl')).trim().split('\n')).toHaveLength(3);
    await expect(session.client.readResource({ uri: 'news://exports/../x' })).rejects.toThrow();
  });
});

describe('news mcp --max-points', () => {
  it('refuses the call that would pass the budget and says what was spent', async () => {
    const session = await connectStdio(['--mock', '--max-points', '2']);
    try {
      const one = await call(session.client, 'search_news', { limit: 2 });
      const two = await call(session.client, 'count_news', {});
      expect(one._meta).toMatchObject({ points_spent: 1, points_budget: 2, points_left: 1 });
      expect(two._meta).toMatchObject({ points_spent: 2, points_left: 0 });
      const three = await call(session.client, 'search_news', { limit: 2 });
      expect(three.isError).toBe(true);
      expect(three.content[0]?.text).toMatch(/--max-points 2 \(2 spent\); nothing was sent/);
      expect(three._meta).toMatchObject({ points_spent: 2, points_call: 0 });
      // Free calls still answer.
      const balance = await call(session.client, 'balance');
      expect(balance.isError).toBeFalsy();
    } finally {
      await session.close();
    }
  });
});

describe('stdout of a stdio session', () => {
  it('holds JSON-RPC messages only, with --mock, -v and a failing call', async () => {
    const run = await rawSession(
      ['--mock', '-v'],
      [
        INITIALIZE,
        INITIALIZED,
        rpc('tools/list'),
        rpc('tools/call', { name: 'search_news', arguments: { 'language.code': 'xx' } }),
        rpc('tools/call', { name: 'search_news', arguments: { limit: 2 } }),
        rpc('tools/call', { name: 'no_such_tool', arguments: {} }),
        rpc('resources/read', { uri: 'news://docs/fields' }),
      ],
    );
    expect(run.code).toBe(0);
    expect(run.lines.length).toBeGreaterThanOrEqual(6);
    for (const line of run.lines) {
      const message = JSON.parse(line) as Record<string, unknown>;
      expect(message['jsonrpc']).toBe('2.0');
    }
    // Every request read before stdin ended is answered.
    const answered = run.messages.filter((m) => 'id' in m).map((m) => m['id']);
    expect(answered).toHaveLength(6);
    expect(run.stderr).toMatch(/built-in mock/);
  });

  it('answers an initialize piped in and exits 0 (the project hook)', async () => {
    const run = await rawSession(
      ['--mock', '-v'],
      [{ ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion: '2025-06-18' } }],
    );
    expect(run.code).toBe(0);
    expect(run.lines).toHaveLength(1);
    expect(run.lines[0]).toMatch(/^\{/);
    expect(run.messages[0]).toMatchObject({ id: 0, result: { protocolVersion: '2025-06-18' } });
  });

  it('refuses --host without --http (exit 2)', async () => {
    const r = await runToEnd(process.execPath, [BIN, 'mcp', '--host', '0.0.0.0'], serverEnv());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--host needs --http/);
    expect(existsSync(BIN)).toBe(true);
  });
});
