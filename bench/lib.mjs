/**
 * What the bench scripts share: their options, the median they report, the
 * memory of a process read from /proc, and the built CLI run in its own
 * process. Figures are medians of runs (bench/README.md, "method").
 */
import { spawn } from 'node:child_process';
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
