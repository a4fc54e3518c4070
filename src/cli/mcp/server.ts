/**
 * One MCP server (one per stdio run, one per HTTP session) on the official
 * SDK's low-level Server: the tools, resources and logging handlers over
 * the session every server of the run shares (tools, budget, client).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { closestNames } from '../../output/closest-name.js';
import { VERSION } from '../version.js';
import type { CallContext, Session } from './call.js';
import type { LogLevel } from './call-runtime.js';
import { listResources, readResource } from './resources.js';

const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

const INSTRUCTIONS = [
  'News search API tools: search_news first (the common filters are arguments; any other parameter by API name in `filters`; `query` takes the query language of news://docs/query-language).',
  'Results hold `limit` records (default 10, at most 100); `page` continues; export_news writes every page to a file.',
  'Values are checked before anything is sent: an error names the argument and the rule.',
  "Every result's _meta.points_spent says what this server has spent; the server may refuse calls past its points budget.",
].join(' ');

/** Where the server's own notes go besides the client: stderr, as the command line's would. */
export type Mirror = (level: LogLevel, message: string) => void;

export function createMcpServer(session: Session, mirror: Mirror): Server {
  const server = new Server(
    { name: 'news', title: 'News search API', version: VERSION },
    {
      capabilities: { tools: {}, resources: {}, logging: {} },
      instructions: INSTRUCTIONS,
    },
  );
  // Log messages at or above this level reach the client (logging/setLevel).
  let level = 'info';
  server.setRequestHandler(SetLevelRequestSchema, async (request) => {
    level = request.params.level;
    return {};
  });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: session.tools.map((t) => ({ ...t.definition })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    const binding = session.tools.find((t) => t.definition.name === name);
    if (binding === undefined) {
      const close = closestNames(
        name,
        session.tools.map((t) => t.definition.name),
      );
      throw new McpError(
        ErrorCode.InvalidParams,
        `unknown tool ${name}${close.length > 0 ? `; did you mean ${close.join(', ')}?` : ''}`,
      );
    }
    const token = extra._meta?.progressToken;
    const send = (notification: Parameters<typeof extra.sendNotification>[0]) => {
      extra.sendNotification(notification).catch(() => {
        // A client that went away gets no more notes; the call's own result says what happened.
      });
    };
    const context: CallContext = {
      signal: extra.signal,
      log: (lvl, message) => {
        mirror(lvl, message);
        if (LEVELS.indexOf(lvl) < LEVELS.indexOf(level)) return;
        send({
          method: 'notifications/message',
          params: { level: lvl, logger: 'news', data: message },
        });
      },
      progress:
        token === undefined
          ? undefined
          : (done, total) =>
              send({
                method: 'notifications/progress',
                params: {
                  progressToken: token,
                  progress: done,
                  ...(total === undefined ? {} : { total }),
                  message: `${done} records`,
                },
              }),
    };
    // Loaded with the first call, not before the first answer (bench/mcp-startup.mjs).
    const { callTool } = await import('./call.js');
    return callTool(session, binding, request.params.arguments ?? {}, context);
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: await listResources(session.exportDir),
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    try {
      return {
        contents: [await readResource(request.params.uri, session.exportDir, session.tools)],
      };
    } catch (error) {
      // The specification's "resource not found".
      throw new McpError(-32002, error instanceof Error ? error.message : String(error), {
        uri: request.params.uri,
      });
    }
  });
  return server;
}
