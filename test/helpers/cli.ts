import { PassThrough, Readable } from 'node:stream';
import type { CliIO } from '../../src/cli/runtime/io.js';
import { run } from '../../src/cli/main.js';
import { scratchDir, scratchRoot } from './scratch.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  stdin?: string;
  /** Pretend stdout is a terminal of this width. */
  tty?: number;
  /** Pretend stdin is a terminal. */
  stdinTty?: boolean;
  signal?: AbortSignal;
  now?: Date;
  /** Called with all of stdout so far at each write: to stop a server once it says it is up. */
  onStdout?: (text: string) => void;
}

/**
 * A config directory of its own, so no test reads the developer's real config
 * (tests may read it after `runCli` returns; it goes when the test file ends).
 */
export function isolatedConfigHome(): string {
  return scratchDir('news-config-');
}

let home: { root: string; dir: string } | undefined;

/**
 * A home folder for this test file's runs (its ~/.cache holds the mock's
 * grown store, completion values): one per file, kept across the file's
 * runs, and never the one of a file running beside it in another worker.
 */
export function fileHome(): string {
  if (home === undefined || home.root !== scratchRoot()) {
    const root = scratchRoot();
    home = { root, dir: scratchDir('news-home-') };
  }
  return home.dir;
}

/** Runs the CLI in-process, the way main() does, with captured stdout and stderr. */
export async function runCli(
  argv: readonly string[],
  options: CliOptions = {},
): Promise<CliResult> {
  const stdout = Object.assign(new PassThrough(), {
    isTTY: options.tty !== undefined,
    ...(options.tty === undefined ? {} : { columns: options.tty }),
  });
  const stderr = Object.assign(new PassThrough(), { isTTY: false });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (c: Buffer) => {
    out.push(c);
    options.onStdout?.(Buffer.concat(out).toString('utf8'));
  });
  stderr.on('data', (c: Buffer) => err.push(c));
  const io: CliIO = {
    stdout,
    stderr,
    stdin: Object.assign(Readable.from(options.stdin === undefined ? [] : [options.stdin]), {
      isTTY: options.stdinTty === true,
    }),
    env: { XDG_CONFIG_HOME: isolatedConfigHome(), HOME: fileHome(), ...options.env },
    now: () => options.now ?? new Date(),
  };
  const code = await run(argv, io, options.signal ? { signal: options.signal } : {});
  return {
    code,
    stdout: Buffer.concat(out).toString('utf8'),
    stderr: Buffer.concat(err).toString('utf8'),
  };
}
