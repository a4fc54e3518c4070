// One timed run of a tool for the export benchmark (export.bench.mjs): the
// command in its own process under /usr/bin/time -v (wall time, CPU time of
// all threads, peak RSS of the whole process, start-up included), its output
// file measured and removed.
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Runs argv under /usr/bin/time -v in `cwd`; stdout to `stdoutPath` when given. */
export function timed(argv, cwd, stdoutPath) {
  const fd = stdoutPath === undefined ? 'ignore' : openSync(stdoutPath, 'w');
  try {
    const run = spawnSync('/usr/bin/time', ['-v', ...argv], {
      cwd,
      stdio: ['ignore', fd, 'pipe'],
      encoding: 'utf8',
      maxBuffer: 16 << 20,
    });
    const err = run.stderr ?? '';
    const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(
      err,
    );
    const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(err);
    const user = /User time \(seconds\): ([\d.]+)/.exec(err);
    const system = /System time \(seconds\): ([\d.]+)/.exec(err);
    if (run.status !== 0 || !wall || !rss) {
      throw new Error(`${argv.join(' ')} failed (${run.status}):\n${err.slice(-2000)}`);
    }
    const seconds = Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]);
    const cpu = Number(user?.[1] ?? Number.NaN) + Number(system?.[1] ?? Number.NaN);
    return { seconds, cpu, peakMb: Number(rss[1]) / 1024 };
  } finally {
    if (typeof fd === 'number') closeSync(fd);
  }
}

/** One timed run of `tool` on `input`, its output in `outDir`, measured, then removed. */
export function runOnce(tool, input, outDir, cwd) {
  const out = join(outDir, `x-${tool.name.replace(/\W+/g, '-')}.${tool.ext}`);
  rmSync(out, { force: true });
  const t = tool.stdout ? timed(tool.argv(input), cwd, out) : timed(tool.argv(input, out), cwd);
  t.bytes = statSync(out).size;
  rmSync(out);
  return t;
}

/** jq filter for the same article columns as our csv (from the build's dist/output/columns.js). */
export async function jqFilter() {
  const { ARTICLE_COLUMNS } = await import('../dist/output/columns.js');
  const path = (p) => p.map((k) => `.${JSON.stringify(k)}`).join('');
  const cells = ARTICLE_COLUMNS.map((c) => {
    const p = path(c.path);
    switch (c.derive) {
      case 'value':
        return p;
      case 'json':
        return `(${p} | if . == null then null else tojson end)`;
      case 'names':
        return `(${p} | if type == "array" then map(.name // empty) | join("; ") else . end)`;
      default: // 'join'
        return `(${p} | if type == "array" then map(tostring) | join("; ") else . end)`;
    }
  });
  return `[${cells.join(', ')}] | @csv`;
}
