/**
 * One MCP server instance on the official v2 SDK's low-level Server: the
 * tools, resources (fixed and by template), prompts, completions and logging
 * handlers over the session every instance of the run shares (tools, budget,
 * client). The serving entries make instances as they need them: one per
 * stdio connection, one per 2026-07-28 HTTP request, one per 2025-era HTTP
 * session. Nothing a request needs is kept on an instance between requests,
 * so any instance (any replica) answers any 2026-07-28 request alike.
 */
import { ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import type { ServerContext, Tool } from '@modelcontextprotocol/server';
import { closestNames } from '../../output/closest-name.js';
import { VERSION } from '../version.js';
import type { CallContext, Session } from './call.js';
import type { LogLevel } from './call-runtime.js';
import { complete } from './completions.js';
import { getPrompt, listPrompts } from './prompts.js';
import { isReference, listResources, readResource } from './resources.js';
import { RESOURCE_TEMPLATES, readByTemplate, templateFor } from './templates.js';

const INSTRUCTIONS = [
  'News search API tools: search_news first (the common filters are arguments; any other parameter by API name in `filters`; `query` takes the query language of news://docs/query-language).',
  'Results hold `limit` records (default 10, at most 100); `page` continues; export_news writes every page to a file.',
  'One record found earlier reads by id: news://articles/{id}, news://people/{id}, news://companies/{id}, news://journalists/{id}.',
  'Values are checked before anything is sent: an error names the argument and the rule.',
  "Every result's _meta.points_spent says what this server has spent; the server may refuse calls past its points budget.",
].join(' ');

/**
 * What a 2026-07-28 client may cache: the tool list, the prompts, the
 * templates and the server's description do not change while a server runs
 * (the tools are made once, from the command registry), and say nothing about
 * the caller, so any cache may keep them. The resource list holds the export
 * folder's files, which export_news adds to, and a read may be a record of the
 * API: those stay uncached (the SDK's default, `ttlMs: 0`, private); the three
 * reference texts, fixed for a run, carry their own hint (readResource).
 */
const STABLE = { ttlMs: 60 * 60_000, cacheScope: 'public' } as const;
const REFERENCE_CACHE = STABLE;

/** Where the server's own notes go besides the client: stderr, as the command line's would. */
export type Mirror = (level: LogLevel, message: string) => void;

/** A call's context from the SDK's: cancellation, log messages at the client's level, progress. */
export function callContext(ctx: ServerContext, mirror: Mirror): CallContext {
  const token = ctx.mcpReq._meta?.progressToken;
  const quiet = () => {
    // A client that went away gets no more notes; the call's own result says what happened.
  };
  return {
    signal: ctx.mcpReq.signal,
    log: (level, message) => {
      mirror(level, message);
      // The SDK applies the client's level: logging/setLevel on a 2025-era
      // connection, the request's own `_meta` level on 2026-07-28.
      ctx.mcpReq.log(level, message, 'news').catch(quiet);
    },
    progress:
      token === undefined
        ? undefined
        : (done, total) => {
            ctx.mcpReq
              .notify({
                method: 'notifications/progress',
                params: {
                  progressToken: token,
                  progress: done,
                  ...(total === undefined ? {} : { total }),
                  message: `${done} records`,
                },
              })
              .catch(quiet);
          },
  };
}

export function createMcpServer(session: Session, mirror: Mirror): Server {
  const server = new Server(
    { name: 'news', title: 'News search API', version: VERSION },
    {
      capabilities: {
        tools: {},
        resources: {},
        prompts: {},
        completions: {},
        logging: {},
      },
      instructions: INSTRUCTIONS,
      cacheHints: {
        'server/discover': STABLE,
        'tools/list': STABLE,
        'prompts/list': STABLE,
        'resources/templates/list': STABLE,
      },
    },
  );

  server.setRequestHandler('tools/list', async () => ({
    // The definitions are JSON Schema objects the SDK passes through as they are.
    tools: session.tools.map((t) => ({ ...t.definition }) as Tool),
  }));

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name } = request.params;
    const binding = session.tools.find((t) => t.definition.name === name);
    if (binding === undefined) {
      const close = closestNames(
        name,
        session.tools.map((t) => t.definition.name),
      );
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `unknown tool ${name}${close.length > 0 ? `; did you mean ${close.join(', ')}?` : ''}`,
      );
    }
    // Loaded with the first call, not before the first answer (bench/mcp-startup.mjs).
    const { callTool } = await import('./call.js');
    return callTool(session, binding, request.params.arguments ?? {}, callContext(ctx, mirror));
  });

  server.setRequestHandler('resources/list', async () => ({
    resources: await listResources(session.exportDir),
  }));

  server.setRequestHandler('resources/templates/list', async () => ({
    resourceTemplates: RESOURCE_TEMPLATES.map(({ tool: _tool, ...info }) => info),
  }));

  server.setRequestHandler('resources/read', async (request, ctx) => {
    const { uri } = request.params;
    const template = templateFor(uri);
    if (template !== undefined) {
      return readByTemplate(session, template, uri, callContext(ctx, mirror));
    }
    try {
      const content = await readResource(uri, session.exportDir, session.tools);
      // A reference text is fixed for the run; hints are fields of the 2026-07-28 wire only.
      const cache = isReference(uri) && ctx.mcpReq.envelope !== undefined ? REFERENCE_CACHE : {};
      return { contents: [content], ...cache };
    } catch (error) {
      // The specification's "resource not found".
      throw new ProtocolError(
        ProtocolErrorCode.ResourceNotFound,
        error instanceof Error ? error.message : String(error),
        { uri },
      );
    }
  });

  server.setRequestHandler('prompts/list', async () => ({ prompts: listPrompts() }));
  server.setRequestHandler('prompts/get', async (request) =>
    getPrompt(request.params.name, request.params.arguments ?? {}),
  );

  server.setRequestHandler('completion/complete', async (request, ctx) => ({
    completion: await complete(session, request.params, callContext(ctx, mirror)),
  }));
  return server;
}
