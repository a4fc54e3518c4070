/**
 * Several statements, COPYs among them, sent as one message with each
 * COPY's data right behind it: one round trip where a COPY at a time took
 * two each. PostgreSQL's protocol allows it: a simple Query message may
 * hold several statements, a `COPY … FROM STDIN` among them reads its data
 * from the messages that follow until CopyDone, then the next statement
 * runs. When one fails, the server skips the rest of the message and
 * drops the COPY data still to come, and the transaction is left failed,
 * for the caller to roll back (or back to a savepoint). node-postgres
 * sends one statement and waits for its answer; this is a query object of
 * its own (what node-postgres calls a submittable), the way pg-copy-streams
 * is one, that writes the message and the data and reads the answers.
 *
 * A batch of articles took about seventeen round trips, and on a busy
 * machine the server waited on the client at each of them: 40 % of its
 * time in `--all` (bench/README.md, "`--all` into PostgreSQL: who waits").
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { chunks } from './copy.js';

/** A `COPY … FROM STDIN` statement and its lines (COPY text). */
export interface CopyPart {
  readonly sql: string;
  readonly lines: Iterable<string | Uint8Array>;
}

/** A statement that takes no parameters, or a COPY. */
export type Part = string | CopyPart;

const COPY_DATA = 0x64;
const COPY_DONE = Buffer.from([0x63, 0, 0, 0, 4]);
const COPY_FAIL = 0x66;

/** What node-postgres hands a query object: the connection's socket. */
interface Connection {
  readonly stream: Writable;
  query(text: string): void;
}

export class Pipeline {
  readonly text: string;
  /** Settles once the server is ready again: all ran, or the first failure. */
  readonly done: Promise<void>;
  private resolve!: () => void;
  private reject!: (error: unknown) => void;
  private failed = false;
  /** Making a COPY's lines failed here: the server was told (CopyFail); this is the error to report. */
  private linesError: unknown;
  private submitted = false;
  /** Settles once the message and all its COPY data are on the socket (or writing stopped). */
  written: Promise<void> = Promise.resolve();
  /** The server answered all of it (or its failure). */
  settled = false;

  constructor(private readonly parts: readonly Part[]) {
    this.text = parts.map((p) => (typeof p === 'string' ? p : p.sql)).join(';\n');
    this.done = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // Its failure reaches whoever awaits `done`; none is left unhandled meanwhile.
    this.done.catch(() => undefined);
  }

  /** Writes the message and its data; once only (statements.ts may write it ahead of node-postgres's turn). */
  submit(connection: Connection): void {
    if (this.submitted) return;
    this.submitted = true;
    connection.query(this.text);
    this.written = this.writeData(connection.stream).catch((error: unknown) => this.fail(error));
  }

  /** Each COPY's data, in order, with the socket's backpressure; nothing more once a statement failed. */
  private async writeData(stream: Writable): Promise<void> {
    for (const part of this.parts) {
      if (typeof part === 'string') continue;
      try {
        for (const chunk of chunks(part.lines)) {
          if (this.failed) return;
          const bytes =
            typeof chunk === 'string'
              ? Buffer.from(chunk)
              : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
          const head = Buffer.allocUnsafe(5);
          head[0] = COPY_DATA;
          head.writeUInt32BE(bytes.length + 4, 1);
          stream.write(head);
          if (!stream.write(bytes)) await once(stream, 'drain');
        }
      } catch (error) {
        // The server ends this COPY with an error and skips the rest.
        this.linesError = error;
        this.failed = true;
        stream.write(copyFail(error instanceof Error ? error.message : String(error)));
        return;
      }
      if (this.failed) return;
      stream.write(COPY_DONE);
    }
  }

  private fail(error: unknown): void {
    this.failed = true;
    this.settled = true;
    this.reject(this.linesError ?? error);
  }

  // node-postgres's query-object interface.
  callback(): void {
    // Defined so node-postgres can hang its query_timeout on it, as on pg-copy-streams.
  }
  handleCopyInResponse(): void {
    // The data went out behind the message already.
  }
  handleCommandComplete(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handleError(error: unknown): void {
    this.fail(error);
  }
  handleReadyForQuery(): void {
    this.settled = true;
    if (!this.failed) this.resolve();
  }
}

function copyFail(message: string): Buffer {
  const text = Buffer.from(`${message}\0`);
  const out = Buffer.allocUnsafe(5 + text.length);
  out[0] = COPY_FAIL;
  out.writeUInt32BE(4 + text.length, 1);
  text.copy(out, 5);
  return out;
}
