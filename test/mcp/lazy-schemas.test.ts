/**
 * The MCP SDK's zod schemas built on first use (build/lazy-schemas.mjs, a
 * build step that rewrites the SDK's built files as text): an SDK other than
 * the one it was written for fails here, by its version or by the number of
 * schemas found where they were; and the SDK as the build bundles it behaves
 * as the SDK itself: every spec type's schema describes and checks values
 * alike, and a server answers the same messages alike in both protocol eras.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as OriginalServer from '@modelcontextprotocol/server';
import * as OriginalStdio from '@modelcontextprotocol/server/stdio';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { lazySchema, lazyValue } from '../../build/lazy-schema-runtime.mjs';
import { SDK_VERSION, TARGETS, lazify, lazySchemas } from '../../build/lazy-schemas.mjs';
import { scratchDir } from '../helpers/scratch.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const json = (path: string) =>
  JSON.parse(readFileSync(join(root, path), 'utf8')) as {
    version: string;
    dependencies: Record<string, string>;
  };

type Sdk = typeof OriginalServer & Pick<typeof OriginalStdio, 'serveStdio'>;
const original: Sdk = { ...OriginalServer, serveStdio: OriginalStdio.serveStdio };
let lazy: Sdk;

beforeAll(async () => {
  // The SDK as build/bundle.mjs bundles it, with its own copy of zod. The
  // plugin throws when a file's schemas are not where and how many it lists.
  const result = await build({
    stdin: {
      contents: `export * from '@modelcontextprotocol/server';
        export { serveStdio } from '@modelcontextprotocol/server/stdio';`,
      resolveDir: root,
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    plugins: [lazySchemas],
    logLevel: 'silent',
  });
  const file = join(scratchDir('lazy-schemas-'), 'sdk.mjs');
  // The bundled CommonJS parts (ajv) require node: modules.
  const require =
    "import{createRequire}from'node:module';const require=createRequire(import.meta.url);";
  writeFileSync(file, `${require}\n${result.outputFiles[0]?.text}`);
  lazy = (await import(pathToFileURL(file).href)) as Sdk;
}, 60_000);

describe('the SDK build/lazy-schemas.mjs was written for', () => {
  it('is the one pinned and installed', () => {
    expect(json('package.json').dependencies['@modelcontextprotocol/server']).toBe(SDK_VERSION);
    for (const part of ['server', 'core'])
      expect(json(`node_modules/@modelcontextprotocol/${part}/package.json`).version).toBe(
        SDK_VERSION,
      );
  });

  it('has each schema it lists where it lists it', () => {
    const files = ['core', 'server'].flatMap((part) => {
      const dir = join(root, 'node_modules/@modelcontextprotocol', part, 'dist');
      return readdirSync(dir).map((name) => join(dir, name));
    });
    for (const target of TARGETS) {
      const [file, ...others] = files.filter((path) => target.file.test(path));
      expect(file, String(target.file)).toBeDefined();
      expect(others).toEqual([]);
      const { counts } = lazify(readFileSync(file as string, 'utf8'), target.regions);
      expect(counts).toEqual(target.regions.map((r) => r.count));
    }
  });
});

describe('a stand-in', () => {
  class Base {
    hello() {
      return `hello ${(this as unknown as { name: string }).name}`;
    }
  }

  it('makes its value on first use, once, and is that value from then on', () => {
    let made = 0;
    const make = () => {
      made++;
      return Object.assign(new Base(), { name: 'x', list: [1] });
    };
    const standIn = lazySchema(make);
    expect(made).toBe(0);
    expect(standIn.name).toBe('x');
    expect(standIn.hello()).toBe('hello x');
    expect(standIn instanceof Base).toBe(true);
    expect('list' in standIn && !('other' in standIn)).toBe(true);
    expect(Object.keys(standIn)).toEqual(['name', 'list']);
    expect({ ...standIn }).toEqual({ name: 'x', list: [1] });
    expect(Object.getOwnPropertyDescriptor(standIn, 'name')?.value).toBe('x');
    standIn.name = 'y';
    expect(standIn.hello()).toBe('hello y');
    expect(made).toBe(1);
  });

  it('of a Set hands the set to its methods', () => {
    const set = lazyValue(() => new Set(['a']));
    expect(set.has('a')).toBe(true);
    expect(set.has('b')).toBe(false);
    expect([...set]).toEqual(['a']);
  });
});

/** Values of many shapes: each schema accepts some and refuses the rest. */
const SAMPLES: unknown[] = [
  null,
  'text',
  42,
  [],
  {},
  { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  { jsonrpc: '2.0', id: 1, result: {} },
  { jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'no' } },
  { method: 'notifications/progress', params: { progressToken: 1, progress: 2 } },
  { name: 'search_news', inputSchema: { type: 'object' } },
  { content: [{ type: 'text', text: 'hi' }], isError: false },
  { uri: 'news://docs/query-language', name: 'docs', mimeType: 'text/markdown' },
  { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
  { type: 'string', format: 'email', minLength: 'x' },
  { access_token: 'a', token_type: 'bearer' },
];

/** What a check of `value` says: accepted (and the value it gives) or the issues. */
function check(schema: unknown, value: unknown) {
  const result = (schema as { safeParse(v: unknown): Record<string, unknown> }).safeParse(value);
  return result['success'] === true
    ? { data: result['data'] }
    : { issues: (result['error'] as { issues: unknown }).issues };
}

/**
 * A schema's structure: its definition, field by field, down to the schemas
 * it holds (each one once: later mentions name the first), functions as such.
 */
function structure(value: unknown, seen = new Map<object, number>()): unknown {
  if (typeof value === 'function') return 'function';
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof RegExp) return String(value);
  // A stand-in and its schema share their internals: one key for both.
  const internals = (value as { _zod?: { def: unknown } })._zod;
  const key = internals ?? value;
  const known = seen.get(key);
  if (known !== undefined) return `#${known}`;
  seen.set(key, seen.size);
  if (internals !== undefined) return { def: structure(internals.def, seen) };
  if (Array.isArray(value)) return value.map((v) => structure(v, seen));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, structure(v, seen)]));
}

describe('the SDK with its schemas built on first use', () => {
  it('has every spec type, each built and checking values as the original', () => {
    const names = Object.keys(original.specTypeSchemas);
    expect(Object.keys(lazy.specTypeSchemas)).toEqual(names);
    expect(names.length).toBeGreaterThan(150);
    const table = <T>(sdk: Sdk, f: (schema: unknown) => T) =>
      Object.fromEntries(
        Object.entries(sdk.specTypeSchemas).map(([name, schema]) => [name, f(schema)]),
      );
    expect(table(lazy, (s) => structure(s))).toEqual(table(original, (s) => structure(s)));
    const checks = (sdk: Sdk) => table(sdk, (s) => SAMPLES.map((v) => check(s, v)));
    expect(checks(lazy)).toEqual(checks(original));
    // isSpecType's guards too.
    const guards = (sdk: Sdk) =>
      Object.entries(sdk.isSpecType).map(([name, guard]) => [
        name,
        SAMPLES.map((v) => (guard as (v: unknown) => boolean)(v)),
      ]);
    expect(guards(lazy)).toEqual(guards(original));
  });

  /** A server of the SDK `sdk` with a tool and a prompt, over stdio's serving entry. */
  function serve(sdk: Sdk) {
    const server = new sdk.Server(
      { name: 'test', version: '1.0.0' },
      { capabilities: { tools: {}, prompts: {}, logging: {} } },
    );
    server.setRequestHandler('tools/list', async () => ({
      tools: [{ name: 'echo', inputSchema: { type: 'object', properties: {} } }],
    }));
    server.setRequestHandler('tools/call', async (request) => ({
      content: [{ type: 'text', text: JSON.stringify(request.params) }],
    }));
    server.setRequestHandler('prompts/list', async () => ({ prompts: [{ name: 'p' }] }));
    return server;
  }

  /** The messages `sdk`'s server writes back for `messages`, sent one at a time. */
  async function exchange(sdk: Sdk, messages: readonly Record<string, unknown>[]) {
    const [client, transport] = sdk.InMemoryTransport.createLinkedPair();
    const answers: unknown[] = [];
    client.onmessage = (message) => answers.push(message);
    const handle = sdk.serveStdio(() => serve(sdk), { transport });
    await client.start();
    for (const message of messages) {
      await client.send(message as Parameters<typeof client.send>[0]);
      // Until an answer to a request, a moment for a notification.
      const deadline = Date.now() + 2000;
      const answered = () => answers.some((a) => (a as { id?: unknown }).id === message['id']);
      while ('id' in message ? !answered() && Date.now() < deadline : false)
        await new Promise((resolve) => setTimeout(resolve, 1));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await handle.close();
    return answers;
  }

  const request = (id: number, method: string, params?: object) => ({
    jsonrpc: '2.0',
    id,
    method,
    ...(params === undefined ? {} : { params }),
  });

  it('answers a 2025-era session as the original, the refusals too', async () => {
    const messages = [
      request(1, 'initialize', {
        protocolVersion: '2025-11-25',
        capabilities: { elicitation: { form: {} } },
        clientInfo: { name: 'c', version: '1' },
      }),
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      request(2, 'tools/list'),
      request(3, 'tools/call', { name: 'echo', arguments: { a: 1 } }),
      request(4, 'tools/call', { arguments: 'not an object' }),
      request(5, 'prompts/list', { cursor: 7 }),
      request(6, 'logging/setLevel', { level: 'loud' }),
      request(7, 'no/such/method'),
      request(8, 'ping'),
    ];
    const answers = await exchange(original, messages);
    expect(answers.length).toBeGreaterThanOrEqual(8);
    expect(await exchange(lazy, messages)).toEqual(answers);
  });

  it('answers a 2026-07-28 session as the original, the refusals too', async () => {
    const envelope = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const modern = (id: number, method: string, params: object = {}) =>
      request(id, method, { ...params, _meta: envelope });
    const messages = [
      modern(1, 'server/discover'),
      modern(2, 'tools/list'),
      modern(3, 'tools/call', { name: 'echo', arguments: { a: 1 } }),
      modern(4, 'tools/call', { arguments: 'not an object' }),
      modern(5, 'prompts/list', { cursor: 7 }),
      request(6, 'tools/list', { _meta: { ...envelope, 'io.modelcontextprotocol/clientInfo': 1 } }),
      modern(7, 'no/such/method'),
    ];
    const answers = await exchange(original, messages);
    expect(answers.length).toBeGreaterThanOrEqual(7);
    expect(await exchange(lazy, messages)).toEqual(answers);
  });
});
