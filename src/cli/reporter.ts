import type { Writable } from 'node:stream';
import { redactText } from '../api/redact.js';
import { stripUnsafe } from '../output/terminal-safe.js';
import type { Reporter } from './context.js';

/**
 * Notes, warnings and debug lines often quote the server (a code, a name, a
 * URL): each line is redacted and goes through the terminal sanitiser.
 */
export function createReporter(
  stderr: Writable,
  quiet: boolean,
  verbose: boolean,
  secret?: string,
): Reporter {
  const line = (text: string) => {
    stderr.write(`${redactText(stripUnsafe(redactText(text, secret)), secret)}\n`);
  };
  return {
    quiet,
    verbose,
    notice: (m) => {
      if (!quiet) line(`note: ${m}`);
    },
    warn: (m) => line(`warning: ${m}`),
    debug: (m) => {
      if (verbose) line(`debug: ${m}`);
    },
  };
}

/**
 * One self-rewriting stderr line during multi-page fetches, only on a terminal:
 * a pipe or a log file gets nothing.
 */
export class ProgressLine {
  private readonly started = Date.now();
  private pages = 0;
  private records = 0;
  private drawn = false;

  constructor(
    private readonly stderr: Writable & { isTTY?: boolean },
    private readonly enabled: boolean,
  ) {}

  update(pageRecords: number): void {
    this.pages += 1;
    this.records += pageRecords;
    if (!this.enabled || !this.stderr.isTTY) return;
    const seconds = ((Date.now() - this.started) / 1000).toFixed(1);
    this.stderr.write(`\r\x1b[2K${this.pages} pages · ${this.records} records · ${seconds} s`);
    this.drawn = true;
  }

  done(): void {
    if (this.drawn) this.stderr.write('\r\x1b[2K');
    this.drawn = false;
  }
}
