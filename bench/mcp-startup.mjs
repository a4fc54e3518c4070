#!/usr/bin/env node
/**
 * `news mcp` start-up: the time from spawning `news mcp --mock` to the first
 * line on its stdout, the answer to an `initialize` written to its stdin at
 * once (what a desktop client waits for), beside a bare `node -e 0` (spawn to
 * exit). Paired runs, one of each in turn, so machine load hits both; the
 * medians and the median of the per-pair ratios. Goal: within 3×.
 * Needs `npm run build`. Usage: node bench/mcp-startup.mjs [--runs 20]
 * Exits 1 when the goal is missed.
 */
import { spawn } from 'node:child_process';
import { BIN, median, numberOption } from './lib.mjs';

const RUNS = numberOption('runs', 20);
const GOAL = 3;
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

/** Milliseconds from spawn to exit of `node -e 0`. */
function bare() {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', () => resolve(Number(process.hrtime.bigint() - start) / 1e6));
  });
}

/** Milliseconds from spawn to the first stdout line of `news mcp --mock` (the initialize answer). */
function firstAnswer() {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, [BIN, 'mcp', '--mock'], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let out = '';
    child.on('error', reject);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (!out.includes('\n')) return;
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (!out.startsWith('{"result":')) reject(new Error(`not an initialize answer: ${out}`));
      child.stdin.end();
      child.on('close', () => resolve(ms));
    });
    child.stdin.write(INITIALIZE);
  });
}

await firstAnswer(); // warm the file cache
const ref = [];
const mcp = [];
const ratios = [];
for (let i = 0; i < RUNS; i++) {
  const a = await bare();
  const b = await firstAnswer();
  ref.push(a);
  mcp.push(b);
  ratios.push(b / a);
}
const ratio = median(ratios);
console.log(`| measure | median ms | node -e 0 ms | ratio (median of ${RUNS} pairs) | goal |`);
console.log('|---|---|---|---|---|');
console.log(
  `| news mcp --mock: first initialize answer | ${median(mcp).toFixed(0)} | ${median(ref).toFixed(0)} | ${ratio.toFixed(2)} | ≤ ${GOAL} ${ratio <= GOAL ? 'ok' : 'MISSED'} |`,
);
process.exitCode = ratio <= GOAL ? 0 : 1;
