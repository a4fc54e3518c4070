/**
 * Both protocol eras from one `news mcp`: the v2 client pinned to
 * 2026-07-28, the v2 client in `auto` mode and the v1 client, each over stdio
 * and over Streamable HTTP, list the tools and find the ids `news search
 * --mock -f json` finds. Then two `news mcp --http` processes behind a
 * round-robin proxy: a 2026-07-28 client whose requests alternate between
 * them succeeds every time (no session to lose). The token and the Host and
 * Origin checks hold for 2026-07-28 requests too.
 */
import { type IncomingMessage, type ServerResponse, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLIENT_KINDS,
  type Connected,
  V2Client,
  V2Http,
  connectHttpAs,
  connectStdioAs,
  resultIds,
} from '../helpers/mcp-clients.js';
import { serverEnv } from '../helpers/mcp.js';
import { BIN, type Spawned, runToEnd, spawnCollecting } from '../helpers/spawn.js';

const SEARCH = { 'language.code': ['en'], 'sentiment.overall.polarity': 'negative', limit: 6 };

let expected: unknown[] = [];

beforeAll(async () => {
  const cli = await runToEnd(
    process.execPath,
    [
      BIN,
      'search',
      '--mock',
      '--language-code',
      'en',
      '--sentiment-overall-polarity',
      'negative',
      '--limit',
      '6',
      '-f',
      'json',
    ],
    serverEnv(),
  );
  expect(cli.code, cli.stderr).toBe(0);
  expected = (JSON.parse(cli.stdout) as { id: unknown }[]).map((r) => r.id);
  expect(expected.length).toBeGreaterThan(0);
}, 30_000);

async function listsAndSearches(connected: Connected): Promise<void> {
  const { client } = connected;
  try {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ['search_news', 'count_news', 'export_news', 'get_person', 'ping']) {
      expect(names).toContain(name);
    }
    const result = await client.callTool({ name: 'search_news', arguments: SEARCH });
    expect(resultIds(result)).toEqual(expected);
  } finally {
    await client.close();
  }
}

const wantedEra = (kind: string) => (kind === 'v1' ? 'legacy' : 'modern');

describe('news mcp over stdio, each client', () => {
  for (const kind of CLIENT_KINDS) {
    it(`${kind}: lists the tools and finds the CLI's ids`, async () => {
      const connected = await connectStdioAs(kind, ['--mock']);
      expect(connected.era).toBe(wantedEra(kind));
      await listsAndSearches(connected);
      expect(connected.stderr()).not.toMatch(/\n\s+at /);
    }, 30_000);
  }
});

interface Served {
  readonly run: Spawned;
  readonly url: string;
}

async function serve(): Promise<Served> {
  const run = spawnCollecting(
    process.execPath,
    [BIN, 'mcp', '--http', '--port', '0', '--mock'],
    serverEnv(),
  );
  for (let i = 0; i < 300 && !run.stdout().includes('\n'); i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const url = run.stdout().trim();
  expect(url, run.stderr()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  return { run, url };
}

describe('news mcp --http, each client', () => {
  let served: Served;
  beforeAll(async () => {
    served = await serve();
  }, 30_000);
  afterAll(async () => {
    served.run.child.kill('SIGTERM');
    expect(await served.run.exit).toBe(0);
    expect(served.run.stderr()).not.toMatch(/\n\s+at /);
  });

  for (const kind of CLIENT_KINDS) {
    it(`${kind}: lists the tools and finds the CLI's ids`, async () => {
      const connected = await connectHttpAs(kind, served.url);
      expect(connected.era).toBe(wantedEra(kind));
      await listsAndSearches(connected);
    }, 30_000);
  }
});

describe('news mcp --http --token, 2026-07-28', () => {
  it('a request without the token gets 401 and a client with it is served', async () => {
    const run = spawnCollecting(
      process.execPath,
      [BIN, 'mcp', '--http', '--port', '0', '--mock', '--token', 'sesame'],
      serverEnv(),
    );
    try {
      for (let i = 0; i < 300 && !run.stdout().includes('\n'); i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const url = run.stdout().trim();
      const discover = {
        jsonrpc: '2.0',
        id: 1,
        method: 'server/discover',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      };
      const headers = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'server/discover',
      };
      const without = await fetch(url, { method: 'POST', headers, body: JSON.stringify(discover) });
      expect(without.status).toBe(401);
      const foreign = await fetch(url.replace('127.0.0.1', 'localhost'), {
        method: 'POST',
        headers: { ...headers, authorization: 'Bearer sesame', origin: 'http://evil.example' },
        body: JSON.stringify(discover),
      });
      expect(foreign.status).toBe(403);
      const client = new V2Client(
        { name: 'news-tests', version: '1' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await client.connect(
        new V2Http(new URL(url), { requestInit: { headers: { authorization: 'Bearer sesame' } } }),
      );
      const result = await client.callTool({ name: 'search_news', arguments: SEARCH });
      expect(resultIds(result)).toEqual(expected);
      await client.close();
    } finally {
      run.child.kill('SIGTERM');
      await run.exit;
    }
  }, 30_000);
});

/** A proxy on 127.0.0.1 sending each request to the next backend in turn; counts what each got. */
function roundRobin(backends: readonly string[]) {
  const counts = backends.map(() => 0);
  let next = 0;
  const proxy = createServer((req: IncomingMessage, res: ServerResponse) => {
    const index = next++ % backends.length;
    counts[index]! += 1;
    const target = new URL(backends[index]!);
    const upstream = request(
      target,
      // The backend checks Host against its own address, as behind a real balancer.
      { method: req.method, headers: { ...req.headers, host: target.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  return { proxy, counts };
}

describe('two news mcp --http behind a round-robin', () => {
  it('a 2026-07-28 client alternating between them succeeds every time', async () => {
    const [a, b] = await Promise.all([serve(), serve()]);
    const { proxy, counts } = roundRobin([a!.url, b!.url]);
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', () => resolve()));
    const { port } = proxy.address() as AddressInfo;
    try {
      const connected = await connectHttpAs('v2-pinned', `http://127.0.0.1:${port}/mcp`);
      expect(connected.era).toBe('modern');
      const { client } = connected;
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('search_news');
      for (let i = 0; i < 6; i++) {
        const result = await client.callTool({ name: 'search_news', arguments: SEARCH });
        expect(resultIds(result)).toEqual(expected);
      }
      await client.close();
      // Every backend answered a share: no request needed the one before it.
      expect(Math.min(...counts)).toBeGreaterThanOrEqual(3);
    } finally {
      proxy.close();
      for (const s of [a!, b!]) s.run.child.kill('SIGTERM');
      await Promise.all([a!.run.exit, b!.run.exit]);
    }
  }, 60_000);
});
