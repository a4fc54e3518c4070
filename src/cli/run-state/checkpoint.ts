/**
 * Resumable `--all -o FILE` exports. Pages are spooled as JSON lines into
 * `FILE.partial.jsonl` (appended and fsynced page by page) and
 * `FILE.checkpoint.json` records how far the spool is good (pages done, the
 * next page, its byte length, the query's fingerprint). Only when every page
 * is in is the spool encoded into the real format and renamed over FILE.
 * Encoding from the spool makes an interrupted-then-resumed export and an
 * uninterrupted one the same function of the same records: byte-identical
 * for deterministic formats, whatever the format.
 *
 * Beside an `s3://` output the checkpoint is an object too, and the spool,
 * which a store cannot append to, is one object per page
 * (`KEY.partial/000001`, …): the checkpoint counts the objects it vouches for.
 */
import { createReadStream } from 'node:fs';
import { open, truncate, unlink } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { UsageError } from '../../api/errors.js';
import { fileError } from '../../output/file-errors.js';
import type { ApiRecord } from '../../output/types.js';
import { storeOf } from '../../output/destinations/registry.js';
import { joinPath, readText, removeFile, removeTree, writeText } from './storage.js';

export const CHECKPOINT_VERSION = 1;
/** Records per page handed to the writer when encoding the spool. */
export const SPOOL_PAGE = 100;

export interface Checkpoint {
  readonly version: typeof CHECKPOINT_VERSION;
  /** Query, per_page, format and fields: a resume must ask for the same export. */
  readonly fingerprint: string;
  readonly output: string;
  readonly per_page: number | null;
  readonly next_page: number;
  readonly pages: number;
  readonly records: number;
  /** Length of the spool that holds exactly `records` complete lines. */
  readonly bytes: number;
  /** In a store: the spool objects that hold them (`KEY.partial/000001` …). */
  readonly chunks?: number;
  readonly updated_at: string;
  /** The `published_at.end` the export's pages are pinned to (src/api/paging/page-pin.ts), once known. */
  readonly pinned_end?: string;
}

/** A store that cannot append keeps the spool as one object per page. */
function wholeObjects(output: string): boolean {
  return !storeOf(output).appendable;
}

export function checkpointPaths(output: string): { checkpoint: string; spool: string } {
  return {
    checkpoint: `${output}.checkpoint.json`,
    spool: wholeObjects(output) ? `${output}.partial/` : `${output}.partial.jsonl`,
  };
}

export async function loadCheckpoint(path: string): Promise<Checkpoint | undefined> {
  let text: string | undefined;
  try {
    text = await readText(path);
  } catch (error) {
    // A store that cannot be read is reported; a local file that cannot be is no checkpoint.
    if (storeOf(path).remote) throw error;
    return undefined;
  }
  try {
    const parsed = JSON.parse(text ?? '') as Checkpoint;
    return parsed.version === CHECKPOINT_VERSION ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export async function removeCheckpoint(output: string): Promise<void> {
  const { checkpoint, spool } = checkpointPaths(output);
  await removeFile(checkpoint);
  if (wholeObjects(output)) await removeTree(spool);
  else await unlink(spool).catch(() => undefined);
}

/** Where the spooled lines are kept: one file appended to, or one object per page in a store. */
interface SpoolStore {
  /** Adds lines; `chunk` numbers the appends from 1. Durable when it resolves. */
  append(text: string, chunk: number): Promise<void>;
  /** The lines a checkpoint vouches for. */
  lines(checkpoint: Checkpoint): AsyncIterable<string>;
  close(): Promise<void>;
}

class FileSpool implements SpoolStore {
  constructor(
    private readonly path: string,
    private readonly handle: Awaited<ReturnType<typeof open>>,
  ) {}

  static async open(path: string, fresh: boolean): Promise<FileSpool> {
    try {
      return new FileSpool(path, await open(path, fresh ? 'w' : 'a', 0o600));
    } catch (error) {
      throw fileError('write', path, error);
    }
  }

  async append(text: string): Promise<void> {
    try {
      await this.handle.write(text);
      await this.handle.sync();
    } catch (error) {
      throw fileError('write', this.path, error, { failure: true });
    }
  }

  async *lines(): AsyncIterable<string> {
    // Made when iterated: readline drops the lines it reads before anyone listens.
    yield* createInterface({ input: createReadStream(this.path, 'utf8'), crlfDelay: Infinity });
  }

  async close(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }
}

class ObjectSpool implements SpoolStore {
  constructor(private readonly prefix: string) {}

  private chunk(n: number): string {
    return joinPath(this.prefix, String(n).padStart(6, '0'));
  }

  async append(text: string, chunk: number): Promise<void> {
    await writeText(this.chunk(chunk), text);
  }

  async *lines(checkpoint: Checkpoint): AsyncIterable<string> {
    // Objects past the checkpoint's count are a crash's leftovers: never read.
    for (let n = 1; n <= (checkpoint.chunks ?? 0); n++) {
      const text = await readText(this.chunk(n));
      if (text === undefined) throw new Error(`the spool object ${this.chunk(n)} is missing`);
      yield* text.split('\n');
    }
  }

  async close(): Promise<void> {}
}

/** The spool being appended to; every page is on disk before its checkpoint says so. */
export class Spool {
  private constructor(
    readonly output: string,
    private store: SpoolStore,
    private state: Checkpoint,
    /** Ids in the spool: a page that shifted under us cannot write an article twice. */
    readonly seen: Set<number>,
  ) {}

  get checkpoint(): Checkpoint {
    return this.state;
  }

  /** A fresh spool (an old checkpoint for this output is discarded). */
  static async create(output: string, fingerprint: string, now: Date): Promise<Spool> {
    await removeCheckpoint(output);
    const { spool } = checkpointPaths(output);
    const store = wholeObjects(output) ? new ObjectSpool(spool) : await FileSpool.open(spool, true);
    const state: Checkpoint = {
      version: CHECKPOINT_VERSION,
      fingerprint,
      output,
      per_page: null,
      next_page: 1,
      pages: 0,
      records: 0,
      bytes: 0,
      ...(wholeObjects(output) ? { chunks: 0 } : {}),
      updated_at: now.toISOString(),
    };
    const created = new Spool(output, store, state, new Set());
    await created.save();
    return created;
  }

  /**
   * The spool of an interrupted run, cut back to what its checkpoint vouches
   * for (a crash between appending a page and saving the checkpoint leaves
   * extra bytes), or undefined when there is none to resume.
   */
  static async resume(output: string, fingerprint: string): Promise<Spool | undefined> {
    const { checkpoint, spool } = checkpointPaths(output);
    const state = await loadCheckpoint(checkpoint);
    if (state === undefined) return undefined;
    if (state.fingerprint !== fingerprint) {
      throw new UsageError(`the checkpoint of ${output} was made for another export`, {
        hint: 'run the same command as the interrupted one, or drop --resume to start afresh',
      });
    }
    let store: SpoolStore;
    if (wholeObjects(output)) store = new ObjectSpool(spool);
    else {
      try {
        await truncate(spool, state.bytes);
      } catch {
        return undefined;
      }
      store = await FileSpool.open(spool, false);
    }
    const seen = new Set<number>();
    for await (const page of readSpool(store.lines(state))) for (const r of page) seen.add(idOf(r));
    return new Spool(output, store, state, seen);
  }

  /** Appends one page (records not seen before), fsyncs, then moves the checkpoint past it. */
  async append(
    page: number,
    records: readonly ApiRecord[],
    perPage: number,
    now: Date,
  ): Promise<ApiRecord[]> {
    const fresh: ApiRecord[] = [];
    for (const record of records) {
      const id = idOf(record);
      if (!Number.isNaN(id)) {
        if (this.seen.has(id)) continue;
        this.seen.add(id);
      }
      fresh.push(record);
    }
    const text = fresh.map((r) => `${JSON.stringify(r)}\n`).join('');
    const bytes = Buffer.byteLength(text);
    const chunks =
      this.state.chunks === undefined ? undefined : this.state.chunks + (bytes > 0 ? 1 : 0);
    if (bytes > 0) await this.store.append(text, chunks ?? 0);
    this.state = {
      ...this.state,
      per_page: perPage,
      next_page: page + 1,
      pages: this.state.pages + 1,
      records: this.state.records + fresh.length,
      bytes: this.state.bytes + bytes,
      ...(chunks === undefined ? {} : { chunks }),
      updated_at: now.toISOString(),
    };
    await this.save();
    return fresh;
  }

  /** The window's end, saved with the next page: a resumed run pages the same window. */
  setPin(end: string): void {
    this.state = { ...this.state, pinned_end: end };
  }

  private save(): Promise<void> {
    const { checkpoint } = checkpointPaths(this.output);
    return writeText(checkpoint, `${JSON.stringify(this.state, null, 2)}\n`);
  }

  async close(): Promise<void> {
    await this.store.close();
  }

  /** The spooled records, in pages, for the final encoding. */
  pages(): AsyncGenerator<ApiRecord[]> {
    return readSpool(this.store.lines(this.state));
  }
}

function idOf(record: ApiRecord): number {
  const id = (record as { id?: unknown }).id;
  return typeof id === 'number'
    ? id
    : typeof id === 'string' && id !== ''
      ? Number(id)
      : Number.NaN;
}

async function* readSpool(lines: AsyncIterable<string>): AsyncGenerator<ApiRecord[]> {
  let page: ApiRecord[] = [];
  for await (const line of lines) {
    if (line === '') continue;
    page.push(JSON.parse(line) as ApiRecord);
    if (page.length === SPOOL_PAGE) {
      yield page;
      page = [];
    }
  }
  if (page.length > 0) yield page;
}
