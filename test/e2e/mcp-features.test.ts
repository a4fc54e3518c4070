/**
 * What `news mcp` offers besides tools, through the v2 client pinned to
 * 2026-07-28 over stdio: records read by resource template (the tool's
 * record, resource-not-found for an id the service does not know),
 * completions from the parameter table and the suggest endpoints, the
 * prompts; and on the wire (raw lines) the 2026-07-28 cache hints, absent
 * from the same answers in the 2025 era, and log messages only at the level a
 * 2026-07-28 request names.
 */
import { Client, ProtocolError } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INITIALIZE, INITIALIZED, rawSession, serverEnv } from '../helpers/mcp.js';
import { BIN } from '../helpers/spawn.js';

let client: Client;

beforeAll(async () => {
  client = new Client(
    { name: 'news-tests', version: '1' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--mock'],
      env: serverEnv(),
      stderr: 'ignore',
    }),
  );
}, 30_000);

afterAll(async () => {
  await client.close();
});

const textOf = (contents: object[]) => JSON.parse(String((contents[0] as { text?: unknown }).text));

describe('resource templates', () => {
  it('lists the four templates', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'news://articles/{id}',
      'news://people/{id}',
      'news://companies/{id}',
      'news://journalists/{id}',
    ]);
  });

  it('reads the record get_person returns, and spends what the tool spends', async () => {
    const viaTool = await client.callTool({ name: 'get_person', arguments: { id: '10001' } });
    const record = (viaTool.structuredContent as { results: unknown[] }).results[0];
    const read = await client.readResource({ uri: 'news://people/10001' });
    expect(textOf(read.contents)).toEqual(record);
    expect(read._meta?.['points_call']).toBe(1);
  });

  it('reads an article found by a search', async () => {
    const search = await client.callTool({ name: 'search_news', arguments: { limit: 1 } });
    const [first] = (search.structuredContent as { results: { id: number }[] }).results;
    const read = await client.readResource({ uri: `news://articles/${first!.id}` });
    expect(textOf(read.contents).id).toBe(first!.id);
  });

  it('an id the service does not know is resource-not-found', async () => {
    for (const uri of ['news://people/99999999', 'news://articles/1']) {
      const error = await client.readResource({ uri }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).message).toMatch(/Resource not found/);
      expect((error as ProtocolError).data).toMatchObject({ uri });
    }
  });
});

describe('completions', () => {
  const complete = async (ref: Record<string, string>, name: string, value: string) =>
    (
      await client.complete({
        ref: ref as { type: 'ref/prompt'; name: string },
        argument: { name, value },
      })
    ).completion.values;

  it('language and country codes, sentiment and sort from the parameter table', async () => {
    const prompt = { type: 'ref/prompt', name: 'news_briefing' };
    expect(await complete(prompt, 'language', 'e')).toContain('en');
    expect(await complete(prompt, 'sort', 'publ')).toContain('published_at');
    expect(
      await complete({ type: 'ref/prompt', name: 'entity_coverage' }, 'sentiment', 'neg'),
    ).toEqual(['negative']);
    expect(
      await complete({ type: 'ref/prompt', name: 'compare_coverage' }, 'first', 'g'),
    ).toContain('gb');
  });

  it('topic ids, entity names and person ids through the suggest endpoints', async () => {
    const topics = await complete({ type: 'ref/prompt', name: 'news_briefing' }, 'topic', 'eco');
    expect(topics.length).toBeGreaterThan(0);
    for (const t of topics) expect(t).toMatch(/^economy\./);
    expect(
      await complete({ type: 'ref/prompt', name: 'entity_coverage' }, 'entity', 'elon'),
    ).toContain('Elon Musk');
    expect(
      await complete({ type: 'ref/resource', uri: 'news://people/{id}' }, 'id', 'elon'),
    ).toContain('10001');
  });
});

describe('prompts', () => {
  it('lists the three with their arguments, and fills one in', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual([
      'news_briefing',
      'entity_coverage',
      'compare_coverage',
    ]);
    const compare = prompts.find((p) => p.name === 'compare_coverage');
    expect(compare?.arguments?.filter((a) => a.required).map((a) => a.name)).toEqual([
      'story',
      'first',
      'second',
    ]);
    const got = await client.getPrompt({
      name: 'compare_coverage',
      arguments: { story: 'rate cut', first: 'gb', second: 'bbc.co.uk' },
    });
    const text = (got.messages[0]!.content as { text: string }).text;
    expect(text).toContain('"source.country.code": ["gb"]');
    expect(text).toContain('"source.domain": ["bbc.co.uk"]');
    const missing = await client
      .getPrompt({ name: 'compare_coverage', arguments: { story: 'x' } })
      .catch((e: unknown) => e);
    expect((missing as ProtocolError).message).toMatch(/needs first and second/);
  });
});

describe('cache hints', () => {
  const ENVELOPE = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const request = (id: number, method: string, params: object = {}) => ({
    jsonrpc: '2.0',
    id,
    method,
    params: { ...params, _meta: ENVELOPE },
  });

  it('the tool list and the reference texts may be kept; an export folder listing may not', async () => {
    const run = await rawSession(
      ['--mock'],
      [
        request(1, 'server/discover'),
        request(2, 'tools/list'),
        request(3, 'resources/read', { uri: 'news://docs/fields' }),
        request(4, 'resources/list'),
      ],
    );
    const result = (id: number) =>
      run.messages.find((m) => m['id'] === id)?.['result'] as Record<string, unknown>;
    for (const id of [1, 2, 3]) {
      expect(result(id)).toMatchObject({ ttlMs: 3_600_000, cacheScope: 'public' });
    }
    expect(result(4)).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
  }, 30_000);

  it("log messages follow each 2026-07-28 request's own level, none without one", async () => {
    // An id not found among found ones is a warning (the command line's "not found: …").
    const call = (id: number, level?: string) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        name: 'get_articles',
        arguments: { ids: [500000002, 1] },
        _meta: { ...ENVELOPE, ...(level ? { 'io.modelcontextprotocol/logLevel': level } : {}) },
      },
    });
    const logs = async (level?: string) =>
      (await rawSession(['--mock'], [call(1, level)])).messages.filter(
        (m) => m['method'] === 'notifications/message',
      );
    expect(await logs()).toEqual([]);
    expect(await logs('error')).toEqual([]);
    const [warning] = await logs('info');
    expect(warning?.['params']).toMatchObject({ level: 'warning', logger: 'news' });
    expect(String((warning!['params'] as { data: unknown }).data)).toMatch(
      /not found: article id 1/,
    );
  }, 30_000);

  it('2025-era answers carry no cache fields', async () => {
    const run = await rawSession(
      ['--mock'],
      [INITIALIZE, INITIALIZED, { jsonrpc: '2.0', id: 2, method: 'tools/list' }],
    );
    const list = run.messages.find((m) => m['id'] === 2)?.['result'] as Record<string, unknown>;
    expect(list['tools']).toBeDefined();
    expect(list).not.toHaveProperty('ttlMs');
    expect(list).not.toHaveProperty('cacheScope');
  }, 30_000);
});
