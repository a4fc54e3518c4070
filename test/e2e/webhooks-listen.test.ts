import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, spawnCollecting } from '../helpers/spawn.js';

/** `news webhooks listen --mock` as a user runs it: the whole loop offline, through the built binary. */
describe('news webhooks listen --mock (built binary)', () => {
  it('prints its URL, then articles as the mock delivers them; Ctrl-C ends it with exit 0', async () => {
    const { NEWS_API_KEY: _k, NEWS_API_MOCK: _m, ...rest } = process.env;
    const env = { ...rest, XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'news-e2e-listen-')) };
    const run = spawnCollecting(
      process.execPath,
      [BIN, '--mock', 'webhooks', 'listen', '--port', '0', '--publish-rate', '1200'],
      env,
    );
    const deadline = Date.now() + 30_000;
    // Complete lines only: the URL, then at least three articles.
    while (run.stdout().split('\n').length - 1 < 4) {
      if (Date.now() > deadline || run.child.exitCode !== null)
        throw new Error(`no deliveries; stderr: ${run.stderr()}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(0);
    const [url, ...lines] = run.stdout().trimEnd().split('\n');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const ids = lines.map((l) => (JSON.parse(l) as { id: number }).id);
    expect(ids.length).toBeGreaterThanOrEqual(3);
    expect(new Set(ids).size).toBe(ids.length);
    expect(run.stderr()).toMatch(/200 delivery dlv_\w+: webhook 1, \d+ articles?/);
    expect(run.stderr()).toMatch(/stopped \(interrupted\)/);
  }, 40_000);
});
