// Peak memory of a partitioned export into a store against the same export
// into a local folder (memory once grew with the partitions):
//   node bench/s3-partition-memory.mjs [--articles 30000] [--runs 3] [--format jsonl,parquet] [--by day,month]
// Needs `npm run build` first. The mock (`news mock serve --articles N`, its
// own process) and the store (s3rver behind bench/s3-store.mjs, in this
// one) are not counted: the figure is the CLI's alone, `news search --all
// --partition-by BY -f FORMAT -o DEST`, its peak RSS (VmHWM from /proc)
// printed by a preloaded hook as it exits. Prints medians and store / local.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startS3Store } from './s3-store.mjs';
import { median, option } from './lib.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin/news.js');
const ARTICLES = Number(option('articles', '30000'));
const RUNS = Number(option('runs', '3'));
const FORMATS = String(option('format', 'jsonl,parquet')).split(',');
const LAYOUTS = String(option('by', 'day,month')).split(',');
const NOW = '2026-11-20T12:00:00Z';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

/** Starts `news mock serve` and resolves with its URL and a stop function. */
function startMock() {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [BIN, 'mock', 'serve', '--port', '0', '--articles', String(ARTICLES), '--now', NOW],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(out)?.[0];
      if (url !== undefined) resolve({ url, stop: () => child.kill('SIGTERM') });
    });
    child.on('exit', (code) => reject(new Error(`mock serve exited ${code}`)));
  });
}

// The CLI runs inside this wrapper, which prints its peak RSS (VmHWM) on exit.
const PEAK = `process.on('exit', () => { const m = /VmHWM:\\s+(\\d+)/.exec(require('node:fs').readFileSync('/proc/self/status', 'utf8')); process.stderr.write('\\nPEAK_KB ' + m[1] + '\\n'); });`;

function news(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', peakHook, BIN, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (code) => {
      const peak = /PEAK_KB (\d+)/.exec(stderr)?.[1];
      if (code !== 0 || peak === undefined) reject(new Error(`exit ${code}: ${stderr}`));
      else resolve(Number(peak) / 1024);
    });
  });
}

const work = mkdtempSync(join(tmpdir(), 'news-s3-memory-'));
const peakHook = join(work, 'peak.cjs');
writeFileSync(peakHook, PEAK);
const mock = await startMock();
const store = await startS3Store();
try {
  const base = [
    'search',
    '--base-url',
    mock.url,
    '--api-key',
    'api_live_mock_pro',
    '--published-at-start',
    '2025-01-01',
    '--all',
    '--per-page',
    '100',
    '-q',
  ];
  console.log(
    `partitioned export of ${ARTICLES} mock articles, peak RSS (MB), median of ${RUNS}\n`,
  );
  console.log('| --partition-by | format | local folder | s3:// (s3rver) | store / local |');
  console.log('|---|---|---|---|---|');
  for (const by of LAYOUTS) {
    for (const format of FORMATS) {
      const local = [];
      const s3 = [];
      for (let run = 0; run < RUNS; run++) {
        const args = [...base, '--partition-by', by, '-f', format];
        const folder = join(work, `${by}-${format}-${run}`);
        local.push(await news([...args, '-o', folder], {}));
        rmSync(folder, { recursive: true, force: true });
        const prefix = `s3://${store.bucket}/memory/${by}-${format}-${run}/`;
        s3.push(await news([...args, '-o', prefix], store.env));
      }
      const l = median(local);
      const s = median(s3);
      console.log(
        `| ${by} | ${format} | ${l.toFixed(0)} | ${s.toFixed(0)} | ${(s / l).toFixed(2)} |`,
      );
    }
  }
} finally {
  mock.stop();
  await store.close();
  rmSync(work, { recursive: true, force: true });
}
