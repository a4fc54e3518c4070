/**
 * `news mcp`: the API as Model Context Protocol tools for AI agents
 * (docs/MCP.md). Plain data on the start-up path; the server, the SDK and
 * the tools load with import() when the command runs. The tools are made
 * from the command registry, handed over as a function: this folder never
 * imports registry.ts, which imports it.
 */
import type { CommandSpec } from '../command-spec.js';
import { PAGING, REQUEST } from '../settings/global-options.js';

export function mcpCommand(registry: () => readonly CommandSpec[]): CommandSpec {
  return {
    name: 'mcp',
    group: 'tools',
    summary: 'serve the API as MCP tools for AI agents (stdio, or Streamable HTTP with --http)',
    description:
      'Model Context Protocol server: every read operation of the API as a tool (search_news, count_news, list_people, balance, …) plus export_news, made from the parameter table; the query language, field list and parameter reference as resources. stdout carries only JSON-RPC; notes go to stderr and to MCP log messages. --max-points caps what the session spends. See MCP.md in the documentation.',
    // --dry-run means nothing to a server; -f, -o and --fields are per call.
    globals: [...REQUEST.filter((name) => name !== 'dry-run'), ...PAGING],
    options: [
      {
        flags: '--http',
        description: 'serve Streamable HTTP at /mcp instead of stdio; prints its URL when ready',
      },
      {
        flags: '--host <host>',
        description: 'with --http: the address to listen on (default 127.0.0.1)',
      },
      {
        flags: '--port <port>',
        description: 'with --http: the port, 0 picks a free one (default 4011)',
      },
      {
        flags: '--token <token>',
        description:
          'with --http: every request needs "Authorization: Bearer TOKEN" (env NEWS_MCP_TOKEN); needed off loopback',
      },
      {
        flags: '--max-points <n>',
        description: 'refuse every tool call that would take the session past N points',
      },
      {
        flags: '--max-result-chars <n>',
        description:
          'the most characters a tool result holds, text or JSON (default 50000): longer ones keep the records that fit and say how to continue',
      },
      {
        flags: '--export-dir <dir>',
        description: 'the folder export_news writes into (default: the current directory)',
      },
    ],
    examples: [
      'news mcp --mock',
      'news mcp --max-points 500 --export-dir .',
      'news mcp --http --port 0 --mock',
    ],
    async run(input, runtime) {
      const { serveMcp } = await import('./serve.js');
      await serveMcp(registry(), input, runtime);
    },
  };
}
