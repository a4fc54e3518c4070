/**
 * `--log-file FILE`: one JSON line per run, appended with O_APPEND in a
 * single write (so concurrent runs never interleave inside a line), written
 * for failed runs too. The key never appears: argv is rebuilt from the
 * parsed command (where the global --api-key is not) and any value equal to
 * the key is redacted anyway.
 */
import { appendFile, mkdir } from 'node:fs/promises';
import { UsageError } from '../../api/errors.js';
import { fileProblem } from '../../output/file-errors.js';
import { describeDestination, storeOf } from '../../output/destinations/registry.js';
import { dirname } from 'node:path';
import type { CommandInput } from '../command-spec.js';
import { describeFailure, EXIT } from '../exit-codes.js';
import type { Runtime } from '../runtime/runtime.js';

export interface RunStats {
  records: number;
  pages: number;
  points: number;
  retries: number;
  output: string | undefined;
  /** The most pages the run had in flight at once, once its window opened (undefined: one at a time). */
  concurrency: number | undefined;
  /** How many times the service pushed back (429, 503) and the run halved its pages in flight. */
  backoffs: number;
}

const STATS = new WeakMap<Runtime, RunStats>();

/** The counters of this run, filled by the list runner. */
export function runStats(runtime: Runtime): RunStats {
  let stats = STATS.get(runtime);
  if (stats === undefined) {
    stats = {
      records: 0,
      pages: 0,
      points: 0,
      retries: 0,
      output: undefined,
      concurrency: undefined,
      backoffs: 0,
    };
    STATS.set(runtime, stats);
  }
  return stats;
}

const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The command line as the user gave it, near enough to rerun it. */
export function argvOf(
  command: string,
  input: CommandInput,
  apiKey: string | undefined,
  globals: Readonly<Record<string, string | undefined>> = {},
): string[] {
  const argv = ['news', ...command.split(' '), ...input.args];
  for (const [flag, value] of Object.entries(globals)) {
    if (value !== undefined) argv.push(flag, value);
  }
  // Parameter flags are in both lists: keep them from `params`, which has --param too.
  const paramFlags = new Set(input.params.map((p) => p.label));
  for (const param of input.params) {
    if (/key/i.test(param.name)) argv.push(param.label, '***');
    else argv.push(param.label, String(param.raw));
  }
  for (const [name, value] of Object.entries(input.options)) {
    if (name === 'param' || value === undefined || value === false) continue;
    if (paramFlags.has(`--${kebab(name)}`)) continue;
    if (value === true) argv.push(`--${kebab(name)}`);
    else if (!Array.isArray(value)) argv.push(`--${kebab(name)}`, String(value));
  }
  return apiKey === undefined || apiKey === ''
    ? argv
    : argv.map((a) => a.split(apiKey).join('***'));
}

export function withRunLog(
  command: string,
  handler: (input: CommandInput, runtime: Runtime) => Promise<void>,
): (input: CommandInput, runtime: Runtime) => Promise<void> {
  return async (input, runtime) => {
    const file = input.options['logFile'];
    if (typeof file !== 'string' || file === '') return handler(input, runtime);
    if (!storeOf(file).appendable) {
      throw new UsageError(
        `--log-file cannot be in a store (${file}): each run adds a line at the end of the log, and an object in a store can only be replaced whole`,
        { hint: 'write the log to a local file, e.g. --log-file news.log' },
      );
    }
    const start = runtime.io.now();
    let exitCode: number = EXIT.ok;
    let error: string | null = null;
    try {
      await handler(input, runtime);
    } catch (err) {
      const failure = describeFailure(err, false);
      exitCode = runtime.signal.aborted ? EXIT.interrupted : failure.exitCode;
      error = (failure.lines[0] ?? '').replace(/^error: /, '');
      throw err;
    } finally {
      const stats = runStats(runtime);
      const key = runtime.settings.apiKey;
      const line = {
        start: start.toISOString(),
        end: runtime.io.now().toISOString(),
        argv: argvOf(command, input, key, {
          '-f': runtime.settings.format,
          // A database URL without its password.
          '-o':
            runtime.settings.output === undefined
              ? undefined
              : describeDestination(runtime.settings.output),
          '--fields': runtime.settings.fields?.join(','),
        }),
        records: stats.records,
        pages: stats.pages,
        points: stats.points,
        retries: stats.retries,
        // Pages in flight at most (1: one after another; null: nothing paged) and back-offs.
        concurrency: stats.concurrency ?? (stats.pages > 0 ? 1 : null),
        backoffs: stats.backoffs,
        output: stats.output ?? null,
        exit_code: exitCode,
        error: error !== null && key ? error.split(key).join('***') : error,
      };
      try {
        await mkdir(dirname(file), { recursive: true });
        await appendFile(file, `${JSON.stringify(line)}\n`, { flag: 'a' });
      } catch (logError) {
        const { reason } = fileProblem('write', file, logError);
        runtime.report.warn(`could not append to --log-file ${file}: ${reason}`);
      }
    }
  };
}
