/**
 * `news mcp --max-result-chars` through the SDK's client and the built
 * binary, against the mock: every records tool stays within the budget with
 * a large limit and long fields; following `next` from a cut search returns
 * what `news search --limit 100 -f json` returns, paying only for the page
 * the first call read; a profile larger than the budget is shortened and
 * says so; small answers are what they were; tools/list is what it was.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StdioSession, connectStdio, serverEnv } from '../helpers/mcp.js';
import { BIN, runToEnd } from '../helpers/spawn.js';

type Result = {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
};

/** Arguments that find records in the fixtures, for the tools that need some. */
const ARGS: Readonly<Record<string, Record<string, unknown>>> = {
  get_story: { id: 500000002 },
  get_articles: { ids: Array.from({ length: 60 }, (_, i) => 500000001 + i) },
  get_trends: { field: ['topic.id'] },
  search_local_news: { place: 'Paris' },
  get_entity_news: { id: 20006 },
  fact_check: { claim: 'The central bank raised interest rates' },
  suggest_entities: { prefix: 't' },
  suggest_categories: { prefix: 'b' },
  suggest_topics: { prefix: 'e' },
  suggest_industries: { prefix: 'b' },
  get_person: { id: 10001 },
  get_company: { id: 20001 },
  get_journalist: { id: 7000001 },
};

/** Long fields of each kind of record (what a tool without `fields` leaves out). */
const ARTICLE_FIELDS = ['id', 'title', 'body', 'body_html', 'entities', 'keywords'];

async function call(client: Client, name: string, args: object = {}): Promise<Result> {
  return (await client.callTool({ name, arguments: args as Record<string, unknown> })) as Result;
}

const ids = (r: Result) =>
  ((r.structuredContent?.['results'] ?? []) as { id: number }[]).map((record) => record.id);

function withinBudget(result: Result, max: number, what: string): void {
  expect(result.isError, `${what}: ${result.content[0]?.text.slice(0, 300)}`).toBeFalsy();
  expect(result.content[0]!.text.length, what).toBeLessThanOrEqual(max);
  expect(JSON.stringify(result.structuredContent).length, what).toBeLessThanOrEqual(max);
}

describe('the result budget, with the mock', () => {
  let small: StdioSession;
  let usual: StdioSession;
  beforeAll(async () => {
    [small, usual] = await Promise.all([
      connectStdio(['--mock', '--max-result-chars', '6000']),
      connectStdio(['--mock']),
    ]);
  }, 30_000);
  afterAll(async () => {
    await Promise.all([small.close(), usual.close()]);
  });

  it('lists the tools it listed before the budget', async () => {
    const saved = JSON.parse(
      readFileSync(join(import.meta.dirname, 'fixtures', 'tools-list.json'), 'utf8'),
    ) as { tools: unknown[] };
    const { tools } = await usual.client.listTools();
    expect(JSON.parse(JSON.stringify(tools))).toEqual(saved.tools);
  });

  it('holds for every records tool, with a large limit and long fields', {
    timeout: 90_000,
  }, async () => {
    const { tools } = await small.client.listTools();
    let cut = 0;
    for (const tool of tools) {
      if (tool.name === 'export_news') continue;
      const properties = tool.inputSchema.properties ?? {};
      const args: Record<string, unknown> = { ...ARGS[tool.name] };
      if ('limit' in properties) args['limit'] = 100;
      // Directory records come whole without fields; articles need them for their texts.
      if ('fields' in properties && !/people|person|compan|journalist/.test(tool.name)) {
        args['fields'] =
          tool.name === 'list_raw_articles' ? ['id', 'title', 'body'] : ARTICLE_FIELDS;
      }
      for (const [client, max] of [
        [small.client, 6000],
        [usual.client, 50_000],
      ] as const) {
        const result = await call(client, tool.name, args);
        withinBudget(result, max, `${tool.name} within ${max}`);
        const content = result.structuredContent!;
        if (content['truncated'] === true) {
          cut += 1;
          expect(result.content[0]!.text.split('\n')[0]).toMatch(
            new RegExp(
              `^\\d+ of \\d+ (articles|records) shown to stay within ${max.toLocaleString('en-US')} characters; `,
            ),
          );
          expect(typeof content['left_out']).toBe('number');
        }
        if (content['has_more'] === true && 'limit' in properties) {
          expect(content['next'], `${tool.name}: next`).toBeDefined();
        }
      }
    }
    // The small budget cuts most of them: the searches, the feeds, the profiles.
    expect(cut).toBeGreaterThan(8);
  });

  it('continues with next to the ids `news search --limit 100` finds, paying once', {
    timeout: 60_000,
  }, async () => {
    const cli = await runToEnd(
      process.execPath,
      [BIN, 'search', '--mock', '--limit', '100', '-f', 'json', '--fields', 'id'],
      serverEnv(),
    );
    expect(cli.code, cli.stderr).toBe(0);
    const expected = (JSON.parse(cli.stdout) as { id: number }[]).map((r) => r.id);
    expect(expected).toHaveLength(100);

    let args: Record<string, unknown> = { limit: 100, fields: ARTICLE_FIELDS };
    const first = await call(usual.client, 'search_news', args);
    withinBudget(first, 50_000, 'the first call');
    expect(first.structuredContent).toMatchObject({ truncated: true, has_more: true });
    const left = first.structuredContent!['left_out'] as number;
    expect(left).toBeGreaterThan(0);
    expect(ids(first).length + left).toBe(100);
    const spent = first._meta!['points_spent'] as number;
    expect(first._meta!['points_call']).toBe(1);

    const seen = ids(first);
    let result = first;
    for (let calls = 0; seen.length < 100 && calls < 40; calls++) {
      const next = result.structuredContent!['next'] as Record<string, unknown>;
      expect(next).toBeDefined();
      args = { ...args, ...next };
      result = await call(usual.client, 'search_news', args);
      withinBudget(result, 50_000, JSON.stringify(next));
      seen.push(...ids(result));
    }
    expect(seen.slice(0, 100)).toEqual(expected);
    // Every record of the first 100 came from the page the first call paid for.
    expect(result._meta!['points_spent']).toBe(spent);
    expect(result._meta!['from_pages_in_hand']).toBe(true);
  });

  it('shortens a profile larger than the budget, and says so', async () => {
    const whole = await call(usual.client, 'get_person', { id: 10001 });
    expect(JSON.stringify(whole.structuredContent).length).toBeGreaterThan(6000);
    const result = await call(small.client, 'get_person', { id: 10001 });
    withinBudget(result, 6000, 'get_person');
    const content = result.structuredContent!;
    expect(content).toMatchObject({ truncated: true, left_out: 0, returned: 1 });
    const record = (content['results'] as Record<string, unknown>[])[0]!;
    expect(record['id']).toBe(10001);
    const cut = content['cut_fields'] as string[];
    expect(cut.length).toBeGreaterThan(0);
    expect(JSON.stringify(record)).toMatch(
      /(characters|items) cut to fit the result; fields: \[\\"id\\", \\"/,
    );
    const [line1, line2] = result.content[0]!.text.split('\n');
    expect(line1).toBe(
      '1 of 1 records shown to stay within 6,000 characters; nothing more remains',
    );
    expect(line2).toMatch(/^fields shortened to stay within 6,000 characters: /);
  });

  it('leaves small answers as they were', async () => {
    for (const [name, args] of [
      ['search_news', { 'language.code': ['en'], limit: 3 }],
      ['get_person', { id: 10001 }],
      ['list_event_types', {}],
      ['count_news', { title: 'bank' }],
    ] as const) {
      const result = await call(usual.client, name, args);
      const content = result.structuredContent!;
      expect(content, name).not.toHaveProperty('truncated');
      expect(content, name).not.toHaveProperty('cut_fields');
      expect(result.content[0]!.text, name).toMatch(new RegExp(`^${name}: `));
      // The text is still the counts line and one JSON line per record, the records whole.
      const lines = result.content[0]!.text.split('\n');
      const records = content['results'] as unknown[];
      expect(lines.slice(-records.length).map((l) => JSON.parse(l))).toEqual(records);
    }
  });

  it('continues a list the endpoint answers whole, with page', async () => {
    const first = await call(usual.client, 'list_event_types', {});
    const all = await call(usual.client, 'list_event_types', { limit: 100 });
    expect(first.structuredContent!['next']).toEqual({ page: 2 });
    const second = await call(usual.client, 'list_event_types', { page: 2 });
    const names = (r: Result) => JSON.stringify(r.structuredContent!['results']);
    const both = [
      ...(first.structuredContent!['results'] as unknown[]),
      ...(second.structuredContent!['results'] as unknown[]),
    ];
    expect(JSON.stringify(both)).toBe(
      JSON.stringify((all.structuredContent!['results'] as unknown[]).slice(0, 20)),
    );
    expect(names(second)).not.toBe(names(first));
    // A list that costs a point is read again from the answer in hand.
    const trends = { field: ['topic.id'], limit: 3 };
    const paid = await call(usual.client, 'get_trends', trends);
    expect(paid._meta!['points_call']).toBe(1);
    expect(paid.structuredContent!['next']).toEqual({ page: 2 });
    const free = await call(usual.client, 'get_trends', { ...trends, page: 2 });
    expect(free._meta).toMatchObject({ points_call: 0, from_pages_in_hand: true });
    expect(names(free)).not.toBe(names(paid));
  });

  it('refuses a budget too small to hold a result, before serving', async () => {
    for (const value of ['100', 'lots']) {
      const run = await runToEnd(
        process.execPath,
        [BIN, 'mcp', '--mock', '--max-result-chars', value],
        serverEnv(),
      );
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(
        /^error: --max-result-chars must be a whole number of at least 2000/,
      );
      expect(run.stdout).toBe('');
    }
  });

  it('continues articles by id from the list in hand, paying once', async () => {
    const args = { ids: ARGS['get_articles']!['ids'], limit: 10 };
    const first = await call(usual.client, 'get_articles', args);
    expect(first._meta!['points_call']).toBeGreaterThan(0);
    const next = first.structuredContent!['next'] as Record<string, unknown>;
    expect(next).toEqual({ page: 2 });
    const second = await call(usual.client, 'get_articles', { ...args, ...next });
    expect(second._meta).toMatchObject({ points_call: 0, from_pages_in_hand: true });
    const all = await call(usual.client, 'get_articles', { ...args, limit: 20 });
    expect([...ids(first), ...ids(second)]).toEqual(ids(all));
  });
});
