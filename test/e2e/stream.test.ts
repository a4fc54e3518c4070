/**
 * `news stream` as a user runs it: the built binary in a real pipe. `| head -3`
 * must end the whole pipeline soon after the third article, quietly; Ctrl-C
 * (SIGINT) exits 130 with what was written still there.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/server.js';
import { BIN, runToEnd, spawnCollecting } from '../helpers/spawn.js';

let server: MockServer;
beforeAll(async () => {
  // 600 articles per mock minute at time scale 0.1: 100 per wall second.
  server = await startMockServer({ quiet: true, publishRate: 600, timeScale: 0.1 });
});
afterAll(() => server.close());

const env = () => ({
  ...process.env,
  XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'news-e2e-stream-')),
  NEWS_API_KEY: 'api_live_mock_pro',
  NEWS_API_BASE_URL: server.url,
});

describe('news stream, spawned', () => {
  it('| head -3 ends quickly and quietly', async () => {
    const started = Date.now();
    const result = await runToEnd(
      'sh',
      ['-c', `node ${JSON.stringify(BIN)} stream --fields id,title | head -3`],
      env(),
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    for (const line of lines)
      expect(Object.keys(JSON.parse(line) as object)).toEqual(['id', 'title']);
    // Generous: start-up on a loaded machine; the point is that it ends by itself.
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 30_000);

  it('Ctrl-C exits 130 and what was written stays written', async () => {
    const run = spawnCollecting(
      'node',
      [BIN, 'stream', '--fields', 'id', '--transport', 'ws'],
      env(),
    );
    const deadline = Date.now() + 15_000;
    while (run.stdout().split('\n').length < 5 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(130);
    const lines = run.stdout().split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.length).toBeGreaterThanOrEqual(4);
    for (const line of lines)
      expect(typeof (JSON.parse(line) as { id: unknown }).id).toBe('number');
    expect(run.stderr()).toMatch(/^error: interrupted$/m);
  }, 30_000);
});
