import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { RecordingServer } from '../helpers/recording-server.js';

describe('--mock with a real key around', () => {
  it('a key that is not a mock key is ignored with a note listing the mock keys', async () => {
    const r = await runCli(['balance', '--mock', '-f', 'json'], {
      env: { NEWS_API_KEY: 'api_live_REALSECRET123456' },
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /note: --mock: the API key in use is not a mock key, so it is ignored/,
    );
    expect(r.stderr).toContain('api_live_mock_free');
    expect(r.stderr).toContain('api_test_mock_basic');
    expect(r.stderr).not.toContain('REALSECRET');
    expect(JSON.parse(r.stdout).plan).toBe('professional');
  });

  it('a mock key is used as given, without a note', async () => {
    const r = await runCli(['balance', '--mock', '-f', 'json'], {
      env: { NEWS_API_KEY: 'api_live_mock_free' },
    });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('not a mock key');
    expect(JSON.parse(r.stdout).plan).toBe('free');
  });
});

describe('ping needs no key', () => {
  let server: RecordingServer;
  beforeAll(async () => {
    server = await new RecordingServer(() => ({ body: 'pong' })).start();
  });
  afterAll(() => server.stop());

  it('answers without any key configured, and sends none', async () => {
    const r = await runCli(['ping', '--base-url', server.url], {
      env: { NEWS_API_KEY: undefined },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('pong\n');
    const headers = server.requests.at(-1)!.headers;
    expect(headers['x-api-key']).toBeUndefined();
    expect(headers['authorization']).toBeUndefined();
  });

  it('another command still needs a key', async () => {
    const r = await runCli(['balance', '--base-url', server.url], {
      env: { NEWS_API_KEY: undefined },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: no API key/);
  });
});
