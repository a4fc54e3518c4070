/**
 * `news mcp` as an MCP client meets it: the SDK's own Client over stdio
 * (spawning the built binary) or over Streamable HTTP, and a raw stdio
 * session that keeps every byte the server wrote.
 */
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { isolatedConfigHome } from './cli.js';
import { BIN } from './spawn.js';

export interface StdioSession {
  readonly client: Client;
  readonly stderr: () => string;
  close(): Promise<void>;
}

/** The environment of a spawned server: no developer config, no key from the shell. */
export function serverEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith('NEWS_')) env[k] = v;
  }
  return { ...env, XDG_CONFIG_HOME: isolatedConfigHome(), ...extra };
}

/** `news mcp ARGS` with the SDK's client on its stdin and stdout. */
export async function connectStdio(
  args: readonly string[],
  env: Record<string, string> = serverEnv(),
): Promise<StdioSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'news-tests', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

export interface RawSession {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout's lines. */
  readonly lines: string[];
  /** The lines that parse as JSON. */
  readonly messages: Record<string, unknown>[];
}

/** Writes `messages` to `news mcp ARGS`, ends stdin, and keeps everything it printed. */
export function rawSession(
  args: readonly string[],
  messages: readonly object[],
  env: Record<string, string> = serverEnv(),
): Promise<RawSession> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'mcp', ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const lines = stdout.split('\n').filter((l) => l !== '');
      const messages = lines.flatMap((l) => {
        try {
          return [JSON.parse(l) as Record<string, unknown>];
        } catch {
          return [];
        }
      });
      resolve({ code, stdout, stderr, lines, messages });
    });
    child.stdin.end(messages.map((m) => `${JSON.stringify(m)}\n`).join(''));
  });
}

let id = 0;

/** A JSON-RPC request. */
export function rpc(method: string, params: object = {}): object {
  id += 1;
  return { jsonrpc: '2.0', id, method, params };
}

export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'news-tests', version: '1' },
  },
};
export const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };
