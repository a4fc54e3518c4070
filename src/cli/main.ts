import { CommanderError } from 'commander';
import { InterruptedError } from '../api/errors.js';
import { COMMANDS } from './registry.js';
import type { CliIO } from './runtime/io.js';
import { EXIT, describeFailure } from './exit-codes.js';
import { helpWidth } from './help/width.js';
import { type Launch, buildProgram, usageErrorFromCommander } from './program.js';
import { createReporter } from './runtime/reporter.js';
import { Runtime } from './runtime/runtime.js';
import { type GlobalFlags, resolveSettings } from './settings/settings.js';

export interface RunOptions {
  /** Aborted on Ctrl-C; tests abort it to simulate one. */
  readonly signal?: AbortSignal;
  /**
   * Filled by run() for main(), which calls it when it ends the process
   * without waiting for the command (a second Ctrl-C, a command still busy
   * 3 s after the first): says `error: interrupted` with what the command
   * kept, unless a failure was said already or the command had finished,
   * and returns the exit code the run has come to.
   */
  readonly lastWords?: { end?: () => number };
}

/** Runs one command line in-process and returns the exit code. Never throws. */
export async function run(
  argv: readonly string[],
  io: CliIO,
  options: RunOptions = {},
): Promise<number> {
  // The hidden entry point of shell completion: answered from the command tree, no commander parse.
  if (argv[0] === '__complete') {
    const { runComplete } = await import('./completion/in-process.js');
    return runComplete(argv.slice(1), io);
  }
  const signal = options.signal ?? new AbortController().signal;
  let exitCode: number = EXIT.ok;
  let verbose = argv.includes('--verbose') || argv.includes('-v');
  // The key in use, once settings are known: redacted from every stderr line.
  let secret: string | undefined;
  const writeErr = (text: string) => io.stderr.write(text);
  let runtime: Runtime | undefined;
  let said = false;

  const fail = (error: unknown) => {
    // Once: an interrupt is said as soon as the command gives up, before its cleanup.
    if (said) return;
    said = true;
    const interrupted = signal.aborted && !(error instanceof CommanderError);
    const failure = describeFailure(
      // An InterruptedError of the command's own keeps its hint (what a checkpoint kept).
      interrupted && !(error instanceof InterruptedError)
        ? new InterruptedError('interrupted')
        : error,
      verbose,
      secret,
    );
    writeErr(`${failure.lines.join('\n')}\n`);
    exitCode = failure.exitCode;
  };

  let finished = false;
  if (options.lastWords !== undefined) {
    options.lastWords.end = () => {
      if (!finished)
        fail(new InterruptedError('interrupted', { hint: runtime?.keptOnInterrupt?.() }));
      return exitCode;
    };
  }

  const launch: Launch = async (globals, handler, options) => {
    const settings = await resolveSettings(globals as GlobalFlags, io, options);
    verbose = settings.verbose;
    secret = settings.apiKey;
    const report = createReporter(io.stderr, settings.quiet, settings.verbose, settings.apiKey);
    for (const warning of settings.configWarnings) report.warn(warning);
    // Ctrl-C before the command began: nothing to start.
    if (signal.aborted) throw new InterruptedError('interrupted');
    const current = new Runtime(io, settings, report, signal, argv);
    runtime = current;
    try {
      await handler(current);
      // Done: a signal during the cleanup that follows stops nothing.
      finished = true;
    } catch (error) {
      // Said now: closing the client, the mock or a worker pool may take a while.
      if (signal.aborted) fail(error);
      throw error;
    } finally {
      await current.close();
    }
  };

  const program = buildProgram(
    COMMANDS,
    launch,
    (text) => io.stdout.write(text),
    writeErr,
    helpWidth(io.stdout, io.env),
    argv[0],
  );
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version')
        return EXIT.ok;
      if (error.code === 'commander.help' || error.code === 'commander.executeSubCommandAsync') {
        // `news` or `news webhooks` alone: help went to stderr; that is a usage error.
        return EXIT.usage;
      }
      fail(usageErrorFromCommander(error));
    } else {
      fail(error);
    }
  }
  return exitCode;
}

/** The signals that end a run: Ctrl-C, a polite kill, a closed terminal. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * The real process: signals, EPIPE, exit code. Used by bin/news.js, which
 * holds the signals that came while the program loaded (`early`): they are
 * answered here as if they came now.
 */
export async function main(
  argv: readonly string[],
  early: readonly NodeJS.Signals[] = [],
): Promise<void> {
  const controller = new AbortController();
  const lastWords: { end?: () => number } = {};
  let interrupts = 0;
  // SIGHUP (a closed terminal, a dropped ssh session) ends the run like
  // Ctrl-C, temporary files removed, with its own conventional code 128 + 1.
  let signalExit: number = EXIT.interrupted;
  const exitNow = () => {
    const code = lastWords.end?.() ?? EXIT.interrupted;
    process.exit(code === EXIT.interrupted ? signalExit : code);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    interrupts += 1;
    if (interrupts === 1) signalExit = signal === 'SIGHUP' ? EXIT.hangup : EXIT.interrupted;
    controller.abort();
    // A second signal, or a command that ignores the abort, still ends the
    // process, and still says so: a process.exit() here used to end it without a word.
    if (interrupts > 1) exitNow();
    else setTimeout(exitNow, 3000).unref();
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  for (const signal of early) onSignal(signal);
  // After a hang-up the terminal is gone: a failed write of the last error
  // line must not turn into an uncaught exception.
  process.stderr.on('error', () => {});
  // `news search | head -1`: the reader left; that is success, not a stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.ok);
  });

  const io: CliIO = {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    now: () => new Date(),
  };
  // run() maps a failure after Ctrl-C to 130; a command that stops cleanly on it (mock serve) exits 0.
  const code = await run(argv, io, { signal: controller.signal, lastWords });
  process.exitCode = code === EXIT.interrupted ? signalExit : code;
}
