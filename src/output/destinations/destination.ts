/**
 * What an export, an unattended run or a stream asks of the place `-o` (and
 * `--state`) names. The registry (registry.ts) resolves a name once, by its
 * scheme, into one of these; callers use what it offers and never look at
 * the scheme themselves.
 */
import type { Sink } from '../sink.js';
import type {
  DatabaseHooks,
  DatabaseSession,
  DatabaseUrl,
  TableOptions,
} from './database/types.js';
import type { StateLock } from './lock-info.js';

export interface StoreSinkOptions {
  /** Bytes an upload has sent so far (a store only: a local file reports nothing). */
  onUploaded?: ((bytes: number) => void) | undefined;
  /**
   * One of many objects open at once (a data set's partitions): a store
   * spools it to a local temporary file and uploads it once whole, so memory
   * does not grow with them. A local file ignores it.
   */
  uploadWhole?: boolean | undefined;
}

/**
 * A place that holds bytes under path-like names: the local file system, or
 * an object store. Every operation of a run's files (the output, staged
 * files, state, checkpoints, locks) goes through one.
 */
export interface ByteStore {
  /** For messages: `file` or the store's scheme. */
  readonly name: string;
  /**
   * Whether a name can grow in place (a live file, a spool appended to, a
   * log): false for objects, which are replaced whole.
   */
  readonly appendable: boolean;
  /** Whether reading it can fail for reasons the user must hear (a network); a local file that cannot be read is none. */
  readonly remote: boolean;
  join(base: string, ...parts: string[]): string;
  dirname(path: string): string;
  basename(path: string): string;
  /** Whether a folder name is the store's own root (a bucket with no prefix). */
  isRoot(path: string): boolean;
  /** The text under a name; undefined when there is none. */
  readText(path: string): Promise<string | undefined>;
  /** Replaces the content whole: a reader or a crash sees the old text or the new. */
  writeText(path: string, text: string): Promise<void>;
  remove(path: string): Promise<void>;
  exists(path: string): Promise<boolean>;
  /** Makes the folder a staged file is written into (a store needs none). */
  makeFolderFor(path: string): Promise<void>;
  /**
   * Moves a staged file to its final name, atomically for readers. False when
   * nothing was staged under that name: it was published before.
   */
  publish(staged: string, final: string): Promise<boolean>;
  /** Removes a folder (or a prefix) and what is in it; an empty parent goes too. */
  removeTree(dir: string): Promise<void>;
  /** The sink of an export with an end: written whole, in place only when complete. */
  openSink(path: string, options?: StoreSinkOptions): Promise<Sink>;
  /**
   * Where a file written whole at `path` is staged and published: its folder
   * and name; undefined when it is written in place (a pipe, a device).
   */
  stagingTarget(path: string): Promise<{ root: string; name: string } | undefined>;
  /**
   * Refuses, before anything is spent, an output that cannot be written (a
   * missing bucket, a directory named as a file). `folder`: the path is a
   * data set's root, which may not exist yet.
   */
  checkOutput(path: string, folder: boolean): Promise<void>;
  /**
   * Fails as opening `path` for writing would (exit 2, the reason), creating
   * and truncating nothing: a stream checks before it connects. An object's
   * name is all a store can check.
   */
  checkWritable(path: string): Promise<void>;
  /** Refuses a name that cannot hold a run's state (a bucket, a folder). */
  checkStateName(path: string): void;
  /** Takes the one-run-at-a-time lock of a state kept here. */
  lock(stateFile: string, now: Date, notice?: (message: string) => void): Promise<StateLock>;
}

/** `-o` absent or `-`: standard output. */
export interface StdoutDestination {
  readonly kind: 'stdout';
}

/** A file or an object: bytes in a format. */
export interface StoreDestination {
  readonly kind: 'store';
  readonly path: string;
  readonly store: ByteStore;
}

/**
 * A database (`postgres://…`, `duckdb:…`): records become rows of a table,
 * written in batches, each committed together with the run's state.
 */
export interface DatabaseDestination {
  readonly kind: 'database';
  readonly url: DatabaseUrl;
  /** Opens a session on one table; the engine's driver is imported here, on first use. */
  open(options: TableOptions, hooks: DatabaseHooks): Promise<DatabaseSession>;
}

export type Destination = StdoutDestination | StoreDestination | DatabaseDestination;
