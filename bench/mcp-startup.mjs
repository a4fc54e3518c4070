#!/usr/bin/env node
/**
 * `news mcp` start-up: the time from spawning `news mcp --mock` to the first
 * line on its stdout, the answer to the first request written to its stdin at
 * once (what a desktop client waits for): `server/discover` for a 2026-07-28
 * client, `initialize` for a 2025-era one; beside a bare `node -e 0` (spawn to
 * exit). Paired runs, one of each in turn, so machine load hits both; the
 * medians and the median of the per-pair ratios. Goal: within 2×.
 * `--against OTHER/bin/news.js` also times another build's first `initialize`
 * answer in the same rotation (an A/B on a loaded machine).
 * Needs `npm run build`. Usage: node bench/mcp-startup.mjs [--runs 20] [--against BIN]
 * Exits 1 when the goal is missed.
 */
import { spawn } from 'node:child_process';
import { BIN, median, numberOption, option } from './lib.mjs';

const RUNS = numberOption('runs', 20);
const AGAINST = option('against', undefined);
const GOAL = 2;
const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'bench', version: '1' },
  },
})}\n`;
const DISCOVER = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'server/discover',
  params: {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
})}\n`;

/** Milliseconds from spawn to exit of `node -e 0`. */
function bare() {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', () => resolve(Number(process.hrtime.bigint() - start) / 1e6));
  });
}

/** Milliseconds from spawn to the first stdout line of `news mcp --mock` (the answer to `first`). */
function firstAnswer(first, bin = BIN) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, [bin, 'mcp', '--mock'], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let out = '';
    child.on('error', reject);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (!out.includes('\n')) return;
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (!out.startsWith('{"result":')) reject(new Error(`not an answer: ${out}`));
      child.stdin.end();
      child.on('close', () => resolve(ms));
    });
    child.stdin.write(first);
  });
}

await firstAnswer(INITIALIZE); // warm the file cache
const ref = [];
const times = { discover: [], initialize: [], against: [] };
const ratios = { discover: [], initialize: [], against: [] };
for (let i = 0; i < RUNS; i++) {
  const a = await bare();
  const d = await firstAnswer(DISCOVER);
  const n = await firstAnswer(INITIALIZE);
  ref.push(a);
  times.discover.push(d);
  times.initialize.push(n);
  ratios.discover.push(d / a);
  ratios.initialize.push(n / a);
  if (AGAINST !== undefined) {
    const o = await firstAnswer(INITIALIZE, AGAINST);
    times.against.push(o);
    ratios.against.push(o / a);
  }
}
console.log(`| measure | median ms | node -e 0 ms | ratio (median of ${RUNS} pairs) | goal |`);
console.log('|---|---|---|---|---|');
let met = true;
for (const [name, what] of [
  ['discover', 'first server/discover answer (2026-07-28)'],
  ['initialize', 'first initialize answer (2025 era)'],
  ...(AGAINST === undefined ? [] : [['against', `${AGAINST}: first initialize answer`]]),
]) {
  const ratio = median(ratios[name]);
  if (name !== 'against') met &&= ratio <= GOAL;
  console.log(
    `| news mcp --mock: ${what} | ${median(times[name]).toFixed(0)} | ${median(ref).toFixed(0)} | ${ratio.toFixed(2)} | ≤ ${GOAL} ${ratio <= GOAL ? 'ok' : 'MISSED'} |`,
  );
}
process.exitCode = met ? 0 : 1;
