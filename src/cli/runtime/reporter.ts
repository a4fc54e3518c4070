import type { Writable } from 'node:stream';
import { redactText } from '../../api/redact.js';
import { stripUnsafe } from '../../output/terminal-safe.js';
import type { Reporter } from './io.js';
import { thousands } from '../../output/text.js';

/** "1 record", "2 records", "1,234 records". */
export function counted(n: number, word: string): string {
  return `${thousands(n)} ${word}${n === 1 ? '' : 's'}`;
}

/** The progress line drawn on each stderr, so a note can clear it first and draw it again. */
const drawnOn = new WeakMap<Writable, ProgressLine>();

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
    const progress = drawnOn.get(stderr);
    const redraw = progress?.isDrawn === true;
    progress?.hide();
    stderr.write(`${redactText(stripUnsafe(redactText(text, secret)), secret)}\n`);
    if (redraw) progress?.show();
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
 * a pipe or a log file gets nothing. It is hidden while a page is printed and
 * while a note is written, so neither starts at its end. Other long work
 * (an upload) can reuse the drawing by overriding `text()`.
 */
export class ProgressLine {
  protected readonly started = Date.now();
  private pages = 0;
  private records = 0;
  private points: number | undefined;
  private bytes: number | undefined;
  private published: { done: number; total: number } | undefined;
  private drawn = false;
  /** Set by done(): an upload's progress arriving later (the SDK's last events) draws nothing. */
  private ended = false;

  constructor(
    private readonly stderr: Writable & { isTTY?: boolean },
    private readonly enabled: boolean,
    /** The records wanted (`--limit`, or what `count` said), when known. */
    private total?: number | undefined,
  ) {}

  /** The total once it is known (a count taken after the line started). */
  setTotal(total: number | undefined): void {
    this.total = total;
  }

  /** Counts a page; `points` is what the server said it cost, when it said. */
  update(pageRecords: number, points?: number): void {
    // A page after done() (a warning cleared the line): the work goes on.
    this.ended = false;
    this.pages += 1;
    this.records += pageRecords;
    if (points !== undefined) this.points = (this.points ?? 0) + points;
  }

  /** Bytes an upload to a store has sent so far (shown as `12.3 MB uploaded`), redrawn at once. */
  uploaded(bytes: number): void {
    this.bytes = bytes;
    if (!this.ended && (this.drawn || this.stderr.isTTY)) this.show();
  }

  /**
   * Files of a data set moved to their final names so far (`3 of 27 files
   * published`), redrawn at once: a store's copies and deletes take seconds
   * after the last byte is uploaded.
   */
  publishing(done: number, total: number): void {
    this.published = { done, total };
    if (!this.ended && (this.drawn || this.stderr.isTTY)) this.show();
  }

  /** The line as drawn: pages, records (of the total when known), points, upload and publishing when known, time. */
  text(): string {
    const seconds = ((Date.now() - this.started) / 1000).toFixed(1);
    const records =
      this.total === undefined
        ? counted(this.records, 'record')
        : `${thousands(this.records)} of ${counted(this.total, 'record')}`;
    const parts = [counted(this.pages, 'page'), records];
    if (this.points !== undefined) parts.push(counted(this.points, 'point'));
    if (this.bytes !== undefined) parts.push(`${(this.bytes / 1e6).toFixed(1)} MB uploaded`);
    if (this.published !== undefined) {
      const { done, total } = this.published;
      parts.push(`${done} of ${counted(total, 'file')} published`);
    }
    parts.push(`${seconds} s`);
    return parts.join(' · ');
  }

  get isDrawn(): boolean {
    return this.drawn;
  }

  show(): void {
    if (!this.enabled || !this.stderr.isTTY || this.pages === 0) return;
    this.stderr.write(`\r\x1b[2K${this.text()}`);
    this.drawn = true;
    drawnOn.set(this.stderr, this);
  }

  hide(): void {
    if (this.drawn) this.stderr.write('\r\x1b[2K');
    this.drawn = false;
  }

  done(): void {
    this.ended = true;
    this.hide();
    if (drawnOn.get(this.stderr) === this) drawnOn.delete(this.stderr);
  }
}
