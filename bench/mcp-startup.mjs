#!/usr/bin/env node
/**
 * `news mcp` start-up: the time from spawning `news mcp --mock` to the first
 * line on its stdout, the answer to the first request written to its stdin at
 * once (what a desktop client waits for): `server/discover` for a 2026-07-28
 * client, `initialize` for a 2025-era one; beside a bare `node -e 0` (spawn to
 * exit). Paired runs, one of each in turn, so machine load hits both; the
 * medians and the median of the per-pair ratios. Goal: within 2×.
 *
 * On Linux, also the CPU time (user + sys, every thread, from
 * /proc/PID/task/\*\/schedstat) each process had used when its first line
 * came, beside a bare node's (`node -e` writing one line): less sensitive than
 * wall time to other processes on a loaded machine.
 * `--against OTHER/bin/news.js` also times another build's first answers in
 * the same rotation (an A/B), with the CPU ratio of the two builds per pair.
 * Needs `npm run build`. Usage: node bench/mcp-startup.mjs [--runs 20] [--against BIN]
 * Exits 1 when the goal is missed.
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
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

/** CPU milliseconds a live process has used, all its threads (Linux); undefined elsewhere. */
function cpuMs(pid) {
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`))
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    return ns / 1e6;
  } catch {
    return undefined;
  }
}

/** Milliseconds from spawn to exit of `node -e 0`. */
function bare() {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', () => resolve(Number(process.hrtime.bigint() - start) / 1e6));
  });
}

/**
 * `args` spawned with `input` on stdin: milliseconds from spawn to its first
 * stdout line and the CPU it had used then; `check` judges the line.
 */
function firstLine(args, input, check) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    child.on('error', reject);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (!out.includes('\n')) return;
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const cpu = cpuMs(child.pid);
      child.stdout.removeAllListeners('data');
      if (!check(out)) reject(new Error(`not an answer: ${out}`));
      child.stdin.end();
      child.on('close', () => resolve({ ms, cpu }));
    });
    child.stdin.write(input);
  });
}

/** The first answer of `news mcp --mock` (`bin`) to `first`. */
const firstAnswer = (first, bin = BIN) =>
  firstLine([bin, 'mcp', '--mock'], first, (line) => line.startsWith('{"result":'));

/** A bare node's first line, kept alive until its stdin ends (as the server is). */
const bareLine = () =>
  firstLine(['-e', "process.stdout.write('\\n');process.stdin.resume()"], '', () => true);

const builds = [['', BIN], ...(AGAINST === undefined ? [] : [[`${AGAINST}: `, AGAINST]])];
const measures = builds.flatMap(([label, bin]) => [
  [`${label}first server/discover answer (2026-07-28)`, DISCOVER, bin],
  [`${label}first initialize answer (2025 era)`, INITIALIZE, bin],
]);

await firstAnswer(INITIALIZE); // warm the file cache
const ref = [];
const refCpu = [];
const runs = measures.map(() => ({ ms: [], cpu: [] }));
for (let i = 0; i < RUNS; i++) {
  ref.push(await bare());
  refCpu.push((await bareLine()).cpu);
  for (const [j, [, first, bin]] of measures.entries()) {
    const { ms, cpu } = await firstAnswer(first, bin);
    runs[j].ms.push(ms);
    runs[j].cpu.push(cpu);
  }
}
const hasCpu = refCpu.every((c) => c !== undefined);
const ratio = (xs, ys) => median(xs.map((x, i) => x / ys[i]));
console.log(
  `| measure | median ms | node -e 0 ms | ratio (median of ${RUNS} pairs) | goal |${hasCpu ? ' CPU ms | bare node CPU ms | CPU ratio |' : ''}`,
);
console.log(`|---|---|---|---|---|${hasCpu ? '---|---|---|' : ''}`);
let met = true;
for (const [j, [what, , bin]] of measures.entries()) {
  const r = ratio(runs[j].ms, ref);
  const counts = bin === BIN;
  if (counts) met &&= r <= GOAL;
  const goal = counts ? `≤ ${GOAL} ${r <= GOAL ? 'ok' : 'MISSED'}` : '';
  const cpu = hasCpu
    ? ` ${median(runs[j].cpu).toFixed(0)} | ${median(refCpu).toFixed(0)} | ${ratio(runs[j].cpu, refCpu).toFixed(2)} |`
    : '';
  console.log(
    `| news mcp --mock: ${what} | ${median(runs[j].ms).toFixed(0)} | ${median(ref).toFixed(0)} | ${r.toFixed(2)} | ${goal} |${cpu}`,
  );
}
// The A/B: each of the other build's figures over this build's, pair by pair.
if (AGAINST !== undefined && hasCpu)
  for (const j of [0, 1]) {
    const other = runs[j + 2];
    console.log(
      `${measures[j][0]}: ${AGAINST} / this build, median of ${RUNS} pairs: CPU ${ratio(other.cpu, runs[j].cpu).toFixed(3)}, wall ${ratio(other.ms, runs[j].ms).toFixed(3)}`,
    );
  }
process.exitCode = met ? 0 : 1;
