/**
 * `news mcp --http`: the SDK's client over Streamable HTTP, 20 tool calls at
 * once, and the guards in front of the transport: Host and Origin against
 * the bound address (403), the bearer token (401), a non-loopback host
 * without a token (exit 2), a session it does not hold (404), a clean stop
 * on SIGTERM.
 */
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INITIALIZE, serverEnv } from '../helpers/mcp.js';
import { BIN, type Spawned, runToEnd, spawnCollecting } from '../helpers/spawn.js';

interface Served {
  readonly run: Spawned;
  readonly url: string;
}

async function serve(args: readonly string[], env = serverEnv()): Promise<Served> {
  const run = spawnCollecting(
    process.execPath,
    [BIN, 'mcp', '--http', '--port', '0', ...args],
    env,
  );
  for (let i = 0; i < 300 && !run.stdout().includes('\n'); i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const url = run.stdout().trim();
  expect(url, run.stderr()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  return { run, url };
}

async function stop(served: Served): Promise<number | null> {
  served.run.child.kill('SIGTERM');
  return served.run.exit;
}

/** A raw POST of an initialize, with the headers given (fetch would not let Host be set). */
function post(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => {
          body += c.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(INITIALIZE));
  });
}

describe('news mcp --http, with the mock', () => {
  let served: Served;
  let client: Client;
  beforeAll(async () => {
    served = await serve(['--mock']);
    client = new Client({ name: 'news-tests', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
  }, 30_000);
  afterAll(async () => {
    await client.close();
    expect(await stop(served)).toBe(0);
  });

  it('initialises and lists the tools', async () => {
    expect(client.getServerVersion()?.name).toBe('news');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        'search_news',
        'count_news',
        'export_news',
        'list_people',
        'balance',
        'ping',
      ]),
    );
  });

  it('serves 20 tool calls at once', { timeout: 60_000 }, async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        client.callTool({
          name: i % 2 === 0 ? 'search_news' : 'count_news',
          arguments: i % 2 === 0 ? { limit: 3, page: i + 1 } : { 'language.code': 'en' },
        }),
      ),
    );
    for (const result of results) {
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    }
    const spent = results.map((r) => (r._meta as { points_spent: number }).points_spent);
    expect(Math.max(...spent)).toBe(20);
  });

  it('answers the loopback names of its port', async () => {
    const port = new URL(served.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const r = await post(served.url, { host, origin: `http://${host}` });
      expect(r.status, r.body).toBe(200);
    }
  });

  it('refuses a foreign Origin or Host with 403 (DNS rebinding)', async () => {
    const port = new URL(served.url).port;
    expect((await post(served.url, { origin: 'http://evil.example.com' })).status).toBe(403);
    expect((await post(served.url, { host: `evil.example.com:${port}` })).status).toBe(403);
    expect((await post(served.url, { host: '127.0.0.1:1' })).status).toBe(403);
  });

  it('answers 404 off /mcp', async () => {
    expect((await post(served.url.replace(/\/mcp$/, '/other'), {})).status).toBe(404);
  });

  it('answers 404 to a session it does not hold, so the client starts a new one', async () => {
    const r = await post(served.url, { 'mcp-session-id': '5e7c0d55-0000-4000-8000-000000000000' });
    expect(r.status).toBe(404);
    expect(r.body).toMatch(/session not found/);
    // The live session still works.
    await expect(client.ping()).resolves.toEqual({});
  });
});

describe('news mcp --http --token', () => {
  it('needs the bearer token on every request', { timeout: 30_000 }, async () => {
    const served = await serve(['--mock'], serverEnv({ NEWS_MCP_TOKEN: 's3cret-token' }));
    try {
      const missing = await post(served.url, {});
      expect(missing.status).toBe(401);
      expect((await post(served.url, { authorization: 'Bearer wrong' })).status).toBe(401);
      expect((await post(served.url, { authorization: 'Bearer s3cret-token' })).status).toBe(200);
      const client = new Client({ name: 'news-tests', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(served.url), {
          requestInit: { headers: { authorization: 'Bearer s3cret-token' } },
        }),
      );
      const ping = await client.callTool({ name: 'ping', arguments: {} });
      expect(ping.isError).toBeFalsy();
      await client.close();
    } finally {
      expect(await stop(served)).toBe(0);
    }
  });

  it('is required off loopback: exit 2 naming --token, before listening', async () => {
    const r = await runToEnd(
      process.execPath,
      [BIN, 'mcp', '--http', '--host', '0.0.0.0', '--port', '0', '--mock'],
      serverEnv(),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: .*--token/m);
    expect(r.stdout).toBe('');
  });

  it('off loopback with no key either: the one usage error, no warning before it', async () => {
    const r = await runToEnd(
      process.execPath,
      [BIN, 'mcp', '--http', '--host', '0.0.0.0', '--port', '0'],
      serverEnv(),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --host 0\.0\.0\.0 .*--token.*\nhint: [^\n]*\n$/);
  });
});
