import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ConnectionError,
  NewsClient,
  dispatcherKindFor,
  proxySettings,
} from '../../src/api/index.js';
import { ForwardProxy } from './helpers/forward-proxy.js';
import { type ScriptServer, startServer } from './helpers/script-server.js';

let server: ScriptServer;
let proxy: ForwardProxy;
const clients: NewsClient[] = [];

function client(env: Record<string, string>): NewsClient {
  const c = new NewsClient({ version: '0', apiKey: 'k', baseUrl: server.url, env, retries: 0 });
  clients.push(c);
  return c;
}

beforeEach(async () => {
  server = await startServer();
  proxy = await new ForwardProxy().start();
  server.enqueue('/ping', { json: 'pong' });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await proxy.close();
  await server.close();
});

describe('proxies', () => {
  it('HTTP_PROXY carries requests to an http:// base URL', async () => {
    const res = await client({ HTTP_PROXY: proxy.url }).request({ method: 'GET', path: '/ping' });
    expect(res.body).toBe('pong');
    expect(proxy.log).toHaveLength(1);
    expect(proxy.log[0]).toMatch(
      new RegExp(`(CONNECT 127\\.0\\.0\\.1:${server.port}|GET ${server.url}/ping)`),
    );
    expect(server.requests).toHaveLength(1);
  });

  it('lower-case http_proxy works too', async () => {
    await client({ http_proxy: proxy.url }).request({ method: 'GET', path: '/ping' });
    expect(proxy.log).toHaveLength(1);
  });

  it('NO_PROXY bypasses the proxy', async () => {
    await client({ HTTP_PROXY: proxy.url, NO_PROXY: 'localhost,127.0.0.1' }).request({
      method: 'GET',
      path: '/ping',
    });
    expect(proxy.log).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('HTTPS_PROXY alone does not touch http:// requests', async () => {
    await client({ HTTPS_PROXY: proxy.url }).request({ method: 'GET', path: '/ping' });
    expect(proxy.log).toEqual([]);
  });

  it('a malformed proxy URL is a ConnectionError that does not repeat it', async () => {
    const err = await client({ HTTP_PROXY: 'not a url :: user:hunter2' })
      .request({ method: 'GET', path: '/ping' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as Error).message).not.toContain('hunter2');
  });

  it('without proxy variables the plain Agent is used', async () => {
    await client({}).request({ method: 'GET', path: '/ping' });
    expect(proxy.log).toEqual([]);
  });
});

describe('proxySettings / dispatcherKindFor', () => {
  it.each([
    [{}, undefined, 'Agent'],
    [{ PATH: '/bin', HTTP_PROXY: '' }, undefined, 'Agent'],
    [{ HTTPS_PROXY: 'http://p:1' }, { httpsProxy: 'http://p:1' }, 'EnvHttpProxyAgent'],
    [
      { https_proxy: 'http://a:1', HTTPS_PROXY: 'http://b:1' },
      { httpsProxy: 'http://a:1' },
      'EnvHttpProxyAgent',
    ],
    [{ Http_Proxy: 'http://c:1' }, { httpProxy: 'http://c:1' }, 'EnvHttpProxyAgent'],
    [{ no_proxy: '*' }, { noProxy: '*' }, 'EnvHttpProxyAgent'],
  ] as const)('%j', (env, settings, kind) => {
    expect(proxySettings(env)).toEqual(settings);
    expect(dispatcherKindFor(env)).toBe(kind);
  });
});
