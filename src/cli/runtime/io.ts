import type { Readable, Writable } from 'node:stream';

/**
 * Everything a command touches of the outside world. main.ts builds it from the
 * real process; tests build it from buffers, so commands run in-process.
 */
export interface CliIO {
  readonly stdout: Writable & { isTTY?: boolean; columns?: number };
  readonly stderr: Writable & { isTTY?: boolean };
  readonly stdin: Readable & { isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Current time; tests pin it. */
  readonly now: () => Date;
}

/** What stderr may say, gated by -q / -v. */
export interface Reporter {
  /** Always shown unless --quiet: notices such as "test mode" or "using the mock". */
  notice(message: string): void;
  /** Shown even with --quiet. */
  warn(message: string): void;
  /** Only with --verbose. */
  debug(message: string): void;
  readonly verbose: boolean;
  readonly quiet: boolean;
}
