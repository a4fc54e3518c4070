#!/usr/bin/env node
/**
 * How long the test suite takes: `npm test` (everything, as CI runs it) and
 * the edit loop's `npm run test:fast`, each the median of N runs, with the CPU
 * time (user + sys) of the whole process tree beside the wall time, since on a
 * shared machine the wall time says as much about the neighbours as about the
 * suite. With --against, the same commands of another checkout (the suite
 * before a change: `git worktree add ../before COMMIT && (cd ../before && npm
 * ci)`) run in the same rounds, alternating with this one, so machine load
 * hits both sides alike.
 *
 * Usage:
 *   node bench/test-suite.mjs [--runs 3] [--against ../before] [--only test|fast]
 *     [--fresh]
 * --fresh removes dist/ before each `npm test`: a checkout whose dist/ is
 * missing, where the build is part of the figure. Without it dist/ is as
 * `npm ci` left it, as on CI.
 * A command that fails is reported and ends the run with exit 1: a time of a
 * suite that did not pass is not a time of the suite.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, numberOption, option } from './lib.mjs';

const RUNS = numberOption('runs', 3);
const ONLY = option('only', undefined);
const FRESH = process.argv.includes('--fresh');
const here = fileURLToPath(new URL('..', import.meta.url));
const against = option('against', undefined);

/** The commands: `fast` only where the checkout has the script. */
function commandsOf(dir) {
  const { scripts } = JSON.parse(readFileSync(resolve(dir, 'package.json'), 'utf8'));
  const out = [];
  if (ONLY !== 'fast') out.push({ name: 'npm test', args: ['test'] });
  if (ONLY !== 'test' && scripts['test:fast'] !== undefined)
    out.push({ name: 'npm run test:fast', args: ['run', 'test:fast'] });
  return out;
}

/** CPU seconds (user + sys) of the children this process has waited for (Linux: /proc/self/stat). */
function childrenCpu() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // Fields after the command name (which may hold spaces) in parentheses; cutime and cstime are 16 and 17.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[13]) + Number(fields[14]);
  return ticks / 100; // USER_HZ is 100 on Linux
}

function timeOnce(dir, command) {
  if (FRESH && command.args[0] === 'test')
    rmSync(resolve(dir, 'dist'), { recursive: true, force: true });
  const cpuBefore = childrenCpu();
  const start = performance.now();
  const r = spawnSync('npm', command.args, {
    cwd: dir,
    env: { ...process.env, CI: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 256 * 1024 * 1024,
  });
  const wall = (performance.now() - start) / 1000;
  const cpu = childrenCpu() - cpuBefore;
  if (r.status !== 0) {
    process.stderr.write(`${command.name} failed in ${dir} (exit ${r.status}):\n`);
    process.stderr.write(
      `${r.stdout.toString().slice(-4000)}\n${r.stderr.toString().slice(-4000)}\n`,
    );
    process.exit(1);
  }
  return { wall, cpu };
}

const sides = [{ label: 'this checkout', dir: here }];
if (against !== undefined) sides.push({ label: against, dir: resolve(against) });

const results = new Map();
for (let round = 0; round < RUNS; round++) {
  // Alternating which side goes first: neither always runs on a warmer machine.
  const order = round % 2 === 0 ? sides : [...sides].reverse();
  for (const side of order)
    for (const command of commandsOf(side.dir)) {
      const t = timeOnce(side.dir, command);
      const key = `${side.label}\t${command.name}`;
      results.set(key, [...(results.get(key) ?? []), t]);
      process.stderr.write(
        `round ${round + 1}/${RUNS}  ${side.label}: ${command.name}  ${t.wall.toFixed(1)} s wall, ${t.cpu.toFixed(1)} s CPU\n`,
      );
    }
}

console.log(`| checkout | command | wall (median of ${RUNS}) | CPU user+sys (median) |`);
console.log('|---|---|---|---|');
for (const [key, ts] of results) {
  const [label, name] = key.split('\t');
  const wall = median(ts.map((t) => t.wall));
  const cpu = median(ts.map((t) => t.cpu));
  console.log(`| ${label} | \`${name}\` | ${wall.toFixed(1)} s | ${cpu.toFixed(1)} s |`);
}
