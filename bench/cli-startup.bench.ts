import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bench, describe } from 'vitest';

/**
 * Timings of start-up next to a bare `node -e 0`. The budgets (--version ≤ 1.5×,
 * search --help ≤ 2.0×, __complete ≤ 1.3×) are checked as paired ratios by
 * bench/cli-startup.mjs, which `npm run bench` runs first. Needs `npm run build`.
 */
const BIN = fileURLToPath(new URL('../bin/news.js', import.meta.url));
const node = (args: string[]) => {
  const r = spawnSync(process.execPath, args, { stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}`);
};

describe('start-up (budget: within 2× of node -e 0)', () => {
  bench('node -e 0 (reference)', () => node(['-e', '0']), { iterations: 20, time: 0 });
  bench('news --version', () => node([BIN, '--version']), { iterations: 20, time: 0 });
  bench('news search --help', () => node([BIN, 'search', '--help']), { iterations: 20, time: 0 });
  bench('news __complete search --sen (Tab)', () => node([BIN, '__complete', 'search', '--sen']), {
    iterations: 20,
    time: 0,
  });
});
