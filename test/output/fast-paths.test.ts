/**
 * The switch that turns every fast path off (src/output/fast-paths.ts):
 * what it reads, and that convert's record source then starts no workers.
 * The outputs both ways are compared in binary-formats.test.ts (Parquet,
 * in process) and e2e/fast-paths.test.ts (convert, through the binary).
 */
import { describe, expect, it } from 'vitest';
import { fastPathsOn } from '../../src/output/fast-paths.js';
import { RecordSource } from '../../src/output/record-source.js';

describe('NEWS_NO_FAST_PATHS', () => {
  it('any value but empty or 0 turns the fast paths off', () => {
    expect(fastPathsOn({})).toBe(true);
    expect(fastPathsOn({ NEWS_NO_FAST_PATHS: '' })).toBe(true);
    expect(fastPathsOn({ NEWS_NO_FAST_PATHS: '0' })).toBe(true);
    expect(fastPathsOn({ NEWS_NO_FAST_PATHS: '1' })).toBe(false);
    expect(fastPathsOn({ NEWS_NO_FAST_PATHS: 'yes' })).toBe(false);
  });

  it('convert asked for 4 workers reads every line on its own thread, and says so', async () => {
    const before = process.env['NEWS_NO_FAST_PATHS'];
    process.env['NEWS_NO_FAST_PATHS'] = '1';
    try {
      const said: string[] = [];
      const lines = Array.from({ length: 3000 }, (_, i) => `{"id":${i},"title":"t${i}"}\n`);
      const source = new RecordSource(
        (async function* () {
          // Many chunks, so that workers would start were the switch not read.
          for (let i = 0; i < lines.length; i += 100) yield lines.slice(i, i + 100).join('');
        })(),
        { jobs: 4, format: 'csv', debug: (m) => said.push(m) },
      );
      let records = 0;
      for await (const page of source) records += (page as unknown[]).length;
      expect(records).toBe(3000);
      expect(said).toContain(
        'convert: fast paths off (NEWS_NO_FAST_PATHS): no worker threads, every line through JSON.parse',
      );
      expect(said.join('\n')).not.toContain('worker threads read on');
    } finally {
      if (before === undefined) delete process.env['NEWS_NO_FAST_PATHS'];
      else process.env['NEWS_NO_FAST_PATHS'] = before;
    }
  });
});
