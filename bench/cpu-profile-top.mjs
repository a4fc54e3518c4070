// The self time of a `node --cpu-prof` run's profiles (one a thread), by
// function, heaviest first: where a convert spends its time.
//
//   node --cpu-prof --cpu-prof-dir=/tmp/prof bin/news.js convert in.jsonl -o out.csv
//   node bench/cpu-profile-top.mjs /tmp/prof [--top 30]
//
// Each thread's profile is printed on its own (the main thread, then each
// worker): total sampled time, the share of idle, garbage collection and
// the program, and its heaviest functions (name, file:line).
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { numberOption } from './lib.mjs';

const dir = process.argv[2];
if (dir === undefined) throw new Error('usage: node bench/cpu-profile-top.mjs DIR [--top N]');
const top = numberOption('top', 25);

for (const file of readdirSync(dir)
  .filter((f) => f.endsWith('.cpuprofile'))
  .sort()) {
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const deltas = profile.timeDeltas;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i]);
    const dt = (deltas[i + 1] ?? deltas[i] ?? 0) / 1000;
    total += dt;
    const f = node.callFrame;
    const where = f.url === '' ? '' : ` ${basename(f.url)}:${f.lineNumber + 1}`;
    const key = `${f.functionName || '(anonymous)'}${where}`;
    self.set(key, (self.get(key) ?? 0) + dt);
  }
  const idle = self.get('(idle)') ?? 0;
  const gc = self.get('(garbage collector)') ?? 0;
  console.log(
    `\n${file}: ${total.toFixed(0)} ms sampled; idle ${idle.toFixed(0)} ms, GC ${gc.toFixed(0)} ms (${((100 * gc) / (total - idle)).toFixed(1)} % of busy)`,
  );
  const rows = [...self].filter(([k]) => k !== '(idle)').sort((a, b) => b[1] - a[1]);
  for (const [key, ms] of rows.slice(0, top)) {
    console.log(
      `${ms.toFixed(0).padStart(7)} ms ${((100 * ms) / (total - idle)).toFixed(1).padStart(5)} %  ${key}`,
    );
  }
}
