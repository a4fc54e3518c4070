/**
 * What the bench scripts share: their options, the median they report, the
 * memory of a process read from /proc, and the built CLI run in its own
 * process. Figures are medians of runs (bench/README.md, "method").
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The built CLI (`npm run build` first). */
export const BIN = fileURLToPath(new URL('../bin/news.js', import.meta.url));

/** The word after `--name` on the command line, or `fallback`. */
export function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
}

/** `option` as a number. */
export function numberOption(name, fallback) {
  return Number(option(name, String(fallback)));
}

/** The median (the mean of the two middle values for an even count). */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** A process's resident memory now and at its peak, in MB (Linux: VmRSS, VmHWM). */
export function procMemory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** CPU seconds (user + system, every thread) a process has used so far (Linux: /proc/PID/stat, 100 ticks a second). */
export function procCpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * `news ARGS` in its own process, stdout discarded; with `killAfterMs`, killed
 * with SIGKILL then. Resolves with its exit code, signal and stderr.
 */
export function runNews(args, { env = process.env, killAfterMs } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.stdout.resume();
    const timer =
      killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}

/**
 * Wall milliseconds of `node ARGS` run to its end, stdout and stderr pipes
 * read and dropped (a closed stdout is an error for the CLI); throws on a
 * non-zero exit.
 */
export function timeNode(args, { env = process.env } = {}) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * Commands (each `node ARGS`) against a bare `node -e 0`, in `runs` rounds:
 * in each, every command right after a reference run of its own (so a busy
 * moment of the machine hits both), the commands in turn; after one
 * unmeasured run of each that warms the file cache. Returns, per command,
 * its times, its references' and the per-pair ratios: report the median of
 * the ratios.
 */
export function pairedWithNode(commands, { runs = 15, env = process.env } = {}) {
  for (const args of commands) timeNode(args, { env });
  const out = commands.map(() => ({ ms: [], ref: [], ratios: [] }));
  for (let i = 0; i < runs; i++) {
    for (const [c, args] of commands.entries()) {
      const a = timeNode(['-e', '0'], { env });
      const b = timeNode(args, { env });
      out[c].ref.push(a);
      out[c].ms.push(b);
      out[c].ratios.push(b / a);
    }
  }
  return out;
}

/**
 * `news mock serve --port 0 --no-rate-limit` with N articles, in its own
 * process; resolves once it prints its URL, with the seconds that took.
 * `cache` is its XDG_CACHE_HOME (where it keeps the grown article set).
 */
export function serveMock({ articles, now, cache }) {
  const started = performance.now();
  const args = ['mock', 'serve', '--port', '0', '--now', now, '--no-rate-limit'];
  const child = spawn(process.execPath, [BIN, ...args, '--articles', String(articles)], {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, XDG_CACHE_HOME: cache },
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c.toString();
      if (out.includes('\n'))
        resolve({ child, url: out.trim(), ready: (performance.now() - started) / 1000 });
    });
    child.once('exit', (code) => reject(new Error(`mock serve exited with ${code}`)));
  });
}
