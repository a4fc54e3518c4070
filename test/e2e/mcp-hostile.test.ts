/**
 * Hostile and broken requests never go unanswered and never take `news mcp`
 * down: each gets the protocol's error where it can be addressed, the server
 * goes on answering the next request, and nothing anywhere holds a stack
 * trace. Over stdio (line by line) and over HTTP.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INITIALIZE, INITIALIZED, serverEnv } from '../helpers/mcp.js';
import { BIN, type Spawned, spawnCollecting } from '../helpers/spawn.js';

const STACK = /\n\s+at /;

/** Writes raw lines to `news mcp --mock`, ends stdin, returns what came back. */
function rawLines(lines: readonly string[]): Promise<{
  code: number | null;
  messages: Record<string, unknown>[];
  stdout: string;
  stderr: string;
}> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'mcp', '--mock'], { env: serverEnv() });
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
      const messages = stdout
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      resolve({ code, messages, stdout, stderr });
    });
    // Written in pieces, as a pipe delivers a long line.
    for (const line of lines) child.stdin.write(`${line}\n`);
    child.stdin.end();
  });
}

const errorOf = (m: Record<string, unknown> | undefined) =>
  m?.['error'] as { code: number; message: string } | undefined;

describe('news mcp over stdio, hostile lines', () => {
  it('answers each broken line with its error and goes on serving', async () => {
    const ping = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 77,
      method: 'tools/call',
      params: { name: 'search_news', arguments: { query: 'x'.repeat(5 * 1024 * 1024) } },
    });
    const run = await rawLines([
      JSON.stringify(INITIALIZE),
      JSON.stringify(INITIALIZED),
      '{not json',
      JSON.stringify([{ jsonrpc: '2.0', id: 5, method: 'ping' }]),
      JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'ping', params: 'x' }),
      JSON.stringify({ jsonrpc: '2.0', id: null, method: 'ping' }),
      JSON.stringify({ id: 8, method: 'ping' }),
      JSON.stringify({
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'search_news', arguments: ['query', 'x'] },
      }),
      huge,
      ping(10),
      // Past the SDK's own 10 MiB buffer, which used to end the server silently.
      `{"jsonrpc":"2.0","id":78,"method":"ping","params":{"pad":"${'p'.repeat(24 * 1024 * 1024)}"}}`,
      ping(11),
    ]);
    expect(run.code, run.stderr).toBe(0);
    const byId = (id: unknown) => run.messages.find((m) => m['id'] === id);
    const nullIds = run.messages.filter((m) => m['id'] === null).map((m) => errorOf(m)?.code);
    // Not JSON, a batch, id null, the line too long: answered to id null.
    expect(nullIds.sort()).toEqual([-32700, -32600, -32600, -32600, -32600].sort());
    expect(errorOf(byId(6))?.code).toBe(-32600);
    expect(errorOf(byId(6))?.message).toMatch(/params/);
    expect(errorOf(byId(8))?.code).toBe(-32600);
    expect(errorOf(byId(8))?.message).toMatch(/jsonrpc/);
    expect(errorOf(byId(9))?.code).toBe(-32602);
    expect(errorOf(byId(9))?.message).toMatch(
      /Invalid params: params\.arguments must be an object/,
    );
    expect(byId(77)).toBeUndefined();
    expect(byId(78)).toBeUndefined();
    // The requests after them are answered.
    expect(byId(10)?.['result']).toEqual({});
    expect(byId(11)?.['result']).toEqual({});
    expect(run.stderr).toMatch(/longer than \d+ bytes was refused/);
    expect(run.stdout + run.stderr).not.toMatch(STACK);
  }, 30_000);
});

describe('news mcp --http, hostile requests', () => {
  let run: Spawned;
  let url: string;
  beforeAll(async () => {
    run = spawnCollecting(
      process.execPath,
      [BIN, 'mcp', '--http', '--port', '0', '--mock'],
      serverEnv(),
    );
    for (let i = 0; i < 300 && !run.stdout().includes('\n'); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    url = run.stdout().trim();
  }, 30_000);
  afterAll(async () => {
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    expect(run.stdout() + run.stderr()).not.toMatch(STACK);
  });

  const post = async (body: string) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body,
    });
    return { status: response.status, text: await response.text() };
  };

  it('refuses JSON that does not parse, -32700', async () => {
    const { status, text } = await post('{not json');
    expect(status).toBe(400);
    expect(JSON.parse(text).error.code).toBe(-32700);
  });

  it('names the argument of the wrong shape, -32602', async () => {
    const { text } = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'search_news', arguments: [1] },
      }),
    );
    const answer = JSON.parse(text);
    expect(answer.id).toBe(3);
    expect(answer.error.code).toBe(-32602);
    expect(answer.error.message).toMatch(/params\.arguments must be an object \(got an array\)/);
  });

  it('refuses a body too large to read (413), notes it, and serves the next request', async () => {
    const { status, text } = await post(
      `{"jsonrpc":"2.0","id":1,"method":"ping","x":"${'y'.repeat(5 * 1024 * 1024)}"}`,
    );
    expect(status).toBe(413);
    expect(JSON.parse(text).error.message).toMatch(/too large/);
    // stderr comes through its own pipe, maybe after the answer: wait for it.
    for (let i = 0; i < 100 && !/larger than \d+ bytes was refused/.test(run.stderr()); i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(run.stderr()).toMatch(/larger than \d+ bytes was refused/);
    const next = await post(JSON.stringify(INITIALIZE));
    expect(next.status).toBe(200);
    expect(next.text).toMatch(/"protocolVersion"/);
  });
});
