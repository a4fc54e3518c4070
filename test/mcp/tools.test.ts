/**
 * The MCP tools are made from the command registry and the parameter table
 * (src/cli/mcp/tools.ts): the contract's names, one tool per read operation,
 * schemas an agent's JSON Schema library compiles, and a tools/list small
 * enough for a context window.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { type CommandSpec, operationText } from '../../src/cli/command-spec.js';
import { COMMANDS } from '../../src/cli/registry.js';
import { buildTools } from '../../src/cli/mcp/tools.js';
import { SEARCH_PARAMS } from '../../src/params/search-params.js';

const tools = buildTools(COMMANDS);
const names = tools.map((t) => t.definition.name);
const byName = (name: string) => tools.find((t) => t.definition.name === name)!;

/** Every command that declares a read operation of the API, outside streams and webhooks. */
function readOperations(): string[] {
  const out = new Set<string>();
  const walk = (command: CommandSpec) => {
    if (command.group === 'live') return;
    const { api } = command;
    if (command.run && api && (api.method === 'GET' || api.method === 'POST')) {
      out.add(`${api.method} ${api.path}`);
    }
    for (const sub of command.subcommands ?? []) walk(sub);
  };
  for (const command of COMMANDS) walk(command);
  return [...out];
}

/** Every command of the registry outside streams and webhooks, subcommands included. */
function everyCommand(): CommandSpec[] {
  const out: CommandSpec[] = [];
  const walk = (command: CommandSpec) => {
    if (command.group === 'live') return;
    out.push(command);
    for (const sub of command.subcommands ?? []) walk(sub);
  };
  for (const command of COMMANDS) walk(command);
  return out;
}

describe('the tools', () => {
  it('carry the contract names, snake_case', () => {
    for (const name of [
      'search_news',
      'count_news',
      'export_news',
      'list_people',
      'balance',
      'ping',
      'get_person',
      'list_companies',
      'top_headlines',
      'suggest_topics',
    ]) {
      expect(names).toContain(name);
    }
    for (const name of names) expect(name).toMatch(/^[a-z]+(_[a-z]+)*$/);
    expect(new Set(names).size).toBe(names.length);
  });

  it('cover every read operation of the registry once, plus export_news', () => {
    const endpoints = tools
      .filter((t) => !t.exports)
      .map((t) => `${t.endpoint.method} ${t.endpoint.path}`);
    expect(endpoints.sort()).toEqual(readOperations().sort());
    // The list, by endpoint.
    for (const path of [
      '/v1/news/everything',
      '/v1/news/count',
      '/v1/news/top-headlines',
      '/v1/news/story/ID',
      '/v1/news/article',
      '/v1/news/trends',
      '/v1/news/local',
      '/v1/news/entity/ID',
      '/v1/news/event-types',
      '/v1/suggest/entities',
      '/v1/suggest/categories',
      '/v1/suggest/topics',
      '/v1/suggest/industries',
      '/v1/people',
      '/v1/people/ID',
      '/v1/companies',
      '/v1/companies/ID',
      '/v1/journalists',
      '/v1/journalists/ID',
      '/v1/fact-check',
      '/v1/balance',
      '/ping',
    ]) {
      expect(
        endpoints.some((e) => e.endsWith(` ${path}`)),
        path,
      ).toBe(true);
    }
  });

  it('are what tools/list answered before they came from declarations', () => {
    const saved = JSON.parse(
      readFileSync(join(import.meta.dirname, 'fixtures', 'tools-list.json'), 'utf8'),
    ) as { tools: unknown[] };
    expect(JSON.parse(JSON.stringify(tools.map((t) => t.definition)))).toEqual(saved.tools);
  });

  it('come from declared fields, not from help text', () => {
    // Help names the declared operation, word for word (summaryOf).
    for (const command of everyCommand()) {
      if (command.api !== undefined) {
        expect(command.summary, command.name).toContain(`(${operationText(command.api)})`);
      } else {
        // An operation named in a summary outside the live group is declared, or it would be no tool.
        expect(command.summary, command.name).not.toMatch(/\((GET|POST) \/v1\/[a-z-]+\)/);
      }
    }
    // Rewording a summary changes no tool: names and kinds are fields.
    const reworded = COMMANDS.map((c) =>
      c.name === 'search' ? { ...c, summary: `look for articles (${operationText(c.api!)})` } : c,
    );
    const again = buildTools(reworded);
    expect(again.map((t) => t.definition.name)).toEqual(names);
    expect(again.find((t) => t.definition.name === 'search_news')!.definition.description).toBe(
      'look for articles',
    );
    expect(byName('get_person').returns).toBe('record');
    expect(byName('count_news').returns).toBe('count');
    expect(byName('search_news').articles).toBe(true);
  });

  it('say which only read', () => {
    for (const tool of tools) {
      expect(tool.definition.annotations.readOnlyHint, tool.definition.name).toBe(!tool.exports);
    }
  });

  it('list under 24 KB of JSON in all', () => {
    const bytes = Buffer.byteLength(JSON.stringify({ tools: tools.map((t) => t.definition) }));
    expect(bytes).toBeLessThan(24 * 1024);
  });

  it('have input and output schemas that compile in JSON Schema 2020-12 (strict)', () => {
    // MCP 2025-11-25: a schema without $schema is 2020-12.
    const ajv = new Ajv2020({ strict: true });
    for (const tool of tools) {
      expect(tool.definition.inputSchema['$schema']).toBeUndefined();
      expect(() => ajv.compile(tool.definition.inputSchema), tool.definition.name).not.toThrow();
      expect(() => ajv.compile(tool.definition.outputSchema), tool.definition.name).not.toThrow();
    }
  });

  it('take the common filters by API name, the rest through filters', () => {
    const search = byName('search_news').definition.inputSchema['properties'] as Record<
      string,
      Record<string, unknown>
    >;
    for (const name of [
      'title',
      'query',
      'language.code',
      'sentiment.overall.polarity',
      'published_at.start',
      'published_at.end',
      'filters',
      'limit',
      'page',
      'fields',
    ]) {
      expect(search[name], name).toBeDefined();
    }
    expect(search['limit']).toMatchObject({ type: 'integer', maximum: 100, default: 10 });
    expect(search['sentiment.overall.polarity']).toMatchObject({
      type: 'string',
      enum: ['positive', 'negative', 'neutral'],
    });
    expect(search['language.code']).toMatchObject({ type: 'array', maxItems: 3 });
    // Every argument but limit, page, fields, filters and count_total is a parameter of the table.
    const table = new Set(SEARCH_PARAMS.map((d) => d.name));
    for (const name of Object.keys(search)) {
      if (!['filters', 'limit', 'page', 'fields', 'count_total'].includes(name)) {
        expect(table.has(name), name).toBe(true);
      }
    }
  });

  it('export_news takes the search arguments and output', () => {
    const props = byName('export_news').definition.inputSchema['properties'] as object;
    expect(Object.keys(props)).toEqual(
      expect.arrayContaining(['output', 'format', 'all', 'title']),
    );
    expect(byName('export_news').definition.inputSchema['required']).toEqual(['output']);
  });

  it('describe ids as required arguments', () => {
    expect(byName('get_person').definition.inputSchema['required']).toEqual(['id']);
    expect(byName('get_articles').definition.inputSchema['required']).toEqual(['ids']);
    expect(byName('suggest_topics').definition.inputSchema['required']).toEqual(['prefix']);
  });

  it('are each named in docs/MCP.md', () => {
    const doc = readFileSync(join(import.meta.dirname, '../../docs/MCP.md'), 'utf8');
    for (const name of names) expect(doc, name).toContain(`\`${name}\``);
  });
});
