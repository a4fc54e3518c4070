/**
 * The clients `news mcp` is judged by, each connected over stdio (spawning
 * the built binary) or Streamable HTTP: the v2 SDK client pinned to
 * 2026-07-28, the v2 client in `auto` mode (probes with server/discover,
 * falls back to initialize), and the v1 SDK client (2025 era only).
 */
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2Http,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { serverEnv } from './mcp.js';
import { BIN } from './spawn.js';

export { V2Client, V2Http };

export type ClientKind = 'v2-pinned' | 'v2-auto' | 'v1';
export const CLIENT_KINDS: readonly ClientKind[] = ['v2-pinned', 'v2-auto', 'v1'];

/** What the tests use of a client, whichever SDK it comes from. */
export interface AnyClient {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

export interface Connected {
  readonly client: AnyClient;
  /** 'modern' (2026-07-28) or 'legacy' (2025 era). */
  readonly era: string | undefined;
  readonly stderr: () => string;
}

const INFO = { name: 'news-tests', version: '1.0.0' };

function v2(kind: ClientKind): V2Client {
  return new V2Client(INFO, {
    versionNegotiation: kind === 'v2-pinned' ? { mode: { pin: '2026-07-28' } } : { mode: 'auto' },
  });
}

/** `news mcp ARGS` over stdio with the client of `kind`. */
export async function connectStdioAs(
  kind: ClientKind,
  args: readonly string[],
): Promise<Connected> {
  const params = {
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: serverEnv(),
    stderr: 'pipe' as const,
  };
  let stderr = '';
  const keep = (chunk: Buffer) => {
    stderr += chunk.toString();
  };
  if (kind === 'v1') {
    const transport = new V1Stdio(params);
    transport.stderr?.on('data', keep);
    const client = new V1Client(INFO);
    await client.connect(transport);
    return { client, era: 'legacy', stderr: () => stderr };
  }
  const transport = new V2Stdio(params);
  transport.stderr?.on('data', keep);
  const client = v2(kind);
  await client.connect(transport);
  return { client, era: client.getProtocolEra(), stderr: () => stderr };
}

/** The server at `url` over Streamable HTTP with the client of `kind`. */
export async function connectHttpAs(kind: ClientKind, url: string): Promise<Connected> {
  if (kind === 'v1') {
    const client = new V1Client(INFO);
    await client.connect(new V1Http(new URL(url)));
    return { client, era: 'legacy', stderr: () => '' };
  }
  const client = v2(kind);
  await client.connect(new V2Http(new URL(url)));
  return { client, era: client.getProtocolEra(), stderr: () => '' };
}

/** The ids of a search_news result's records. */
export function resultIds(result: unknown): unknown[] {
  const content = (result as { structuredContent?: { results?: { id?: unknown }[] } })
    .structuredContent;
  return (content?.results ?? []).map((r) => r.id);
}
