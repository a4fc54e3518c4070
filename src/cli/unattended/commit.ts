/**
 * How a run's files reach the output exactly once, on disk and in a store
 * alike (docs/CRON.md, "The commit"). A store has no rename across objects,
 * so the commit does not need one:
 *
 * 1. intent: with `--state`, the state records `pending: writing` (the run's
 *    staging folder) before the first staged byte;
 * 2. staging: every file is written whole under `ROOT/_staging/RUN/`, with
 *    `.staged` after its extension: Spark, Hive, Trino, Athena and pyarrow
 *    skip a `_` folder, and no `*.parquet`/`*.csv` glob (DuckDB) matches;
 * 3. record: the state takes the new watermark and `pending: publishing` with
 *    the list of files, in one atomic write; from here on the run counts as
 *    done, and its records are never fetched again;
 * 4. publish: each file is moved to its final name (rename; for an object a
 *    copy, then a delete), one by one, each appearing whole;
 * 5. the state is written without `pending`, and the staging folder removed.
 *
 * A run killed anywhere leaves either the old state (1–2: the next run
 * removes its staged files and fetches the same records again) or the
 * recorded commit (3–5: the next run publishes what is left, then goes on
 * from the new watermark). Publishing is idempotent, so a run killed while
 * completing another's commit is completed in turn.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { NewsError } from '../../api/errors.js';
import type { RequestSpec } from '../../api/types.js';
import type { Reporter } from '../runtime/io.js';
import { counted } from '../runtime/reporter.js';
import { alive, isThisProcess, lockHeld } from '../../output/destinations/lock-info.js';
import { runPartName } from './partition.js';
import {
  type PendingCommit,
  type RunState,
  commitRunState,
  restoreRunState,
  withPending,
} from '../run-state/run-state.js';
import { verifyLockOn } from '../run-state/state-lock.js';
import {
  fileExists,
  joinPath,
  makeFolderFor,
  publishFile,
  removeTree,
} from '../run-state/storage.js';

/** The folder under the output's root where a run stages its files: readers skip a leading `_`. */
export const STAGING = '_staging';

/** `x.parquet` → `x.parquet.staged`; `x.csv.gz` → `x.csv.staged.gz` (the sink gzips by the name). */
export function stagedName(rel: string): string {
  return /\.gz$/i.test(rel) ? `${rel.slice(0, -3)}.staged.gz` : `${rel}.staged`;
}

export interface StateOfRun {
  readonly file: string;
  /** The request as sent: the state's fingerprint. */
  readonly spec: RequestSpec;
  /** The state the run started from. */
  readonly base: RunState | undefined;
}

/** One run's files, staged then published; with a state, recorded in it as above. */
export class StagedRun {
  private readonly files: string[] = [];
  private intent: Promise<void> | undefined;
  private recorded = false;
  readonly staging: string;

  constructor(
    /** The folder (or prefix) the files are published into. */
    readonly root: string,
    /** The run's name, `part-20261120T150405Z-1a2b3c`: the staging folder and the partitions' file name. */
    readonly run: string,
    private readonly state: StateOfRun | undefined,
    private readonly now: () => Date,
  ) {
    this.staging = joinPath(root, STAGING, run);
  }

  static create(root: string, state: StateOfRun | undefined, now: () => Date): StagedRun {
    return new StagedRun(root, runPartName(now(), randomBytes(3).toString('hex')), state, now);
  }

  private pending(stage: PendingCommit['stage']): PendingCommit {
    return {
      stage,
      run: this.run,
      root: this.root,
      staging: this.staging,
      files: [...this.files],
      owner: { pid: process.pid, host: hostname() },
    };
  }

  /** Where `rel` (a path under the root) is written before it is published. */
  async stage(rel: string): Promise<string> {
    const { state } = this;
    if (state !== undefined) {
      this.intent ??= commitRunState(
        state.file,
        withPending(state.spec, state.base, this.pending('writing'), this.now()),
      );
      await this.intent;
    }
    const path = joinPath(this.staging, stagedName(rel));
    this.files.push(rel);
    await makeFolderFor(path);
    return path;
  }

  get staged(): number {
    return this.files.length;
  }

  /**
   * Steps 3–5: records the files with `next` (the state after this run),
   * publishes them, and writes `next` alone. Without a state, publishes.
   * `onPublished` hears each file published (the progress line).
   */
  async commit(next: RunState | undefined, onPublished?: Published): Promise<void> {
    const { state } = this;
    // Every state write verifies the lock first (commitRunState): a run that lost it records nothing.
    if (state !== undefined && next !== undefined) {
      if (this.files.length > 0) {
        await commitRunState(state.file, { ...next, pending: this.pending('publishing') });
        this.recorded = true;
      }
    }
    if (this.files.length > 0) {
      await publishPending(this.pending('publishing'), state?.file, onPublished);
    }
    if (state !== undefined && next !== undefined) await commitRunState(state.file, next);
    if (this.files.length > 0) await removeTree(this.staging).catch(() => undefined);
  }

  /**
   * After a failure before the commit was recorded: the staged files go, then
   * the state is put back as the run found it (best effort: what is left is
   * what a killed run leaves, which the next run settles).
   */
  async discard(): Promise<void> {
    if (this.recorded) return;
    if (this.files.length > 0) await removeTree(this.staging).catch(() => undefined);
    const { state } = this;
    if (state === undefined || this.intent === undefined) return;
    // The intent was written only if it succeeded; a failed write left the state as it was.
    const written = await this.intent.then(
      () => true,
      () => false,
    );
    if (written) await restoreRunState(state.file, state.base).catch(() => undefined);
  }
}

/** Files published so far of those to publish (a progress line shows it). */
export type Published = (done: number, total: number) => void;

/**
 * Step 4, for this run or one that was killed: idempotent. Returns how many
 * files this call moved (the others were published before). A failure says
 * how many are published and that the same command publishes the rest.
 */
async function publishPending(
  pending: PendingCommit,
  stateFile: string | undefined,
  onPublished?: Published,
): Promise<number> {
  const total = pending.files.length;
  let done = 0;
  let moved = 0;
  for (const rel of pending.files) {
    const final = joinPath(pending.root, rel);
    let movedNow: boolean;
    let there: boolean;
    try {
      movedNow = await publishFile(joinPath(pending.staging, stagedName(rel)), final);
      there = movedNow || (await fileExists(final));
    } catch (error) {
      throw publishFailed(error, final, done, total, stateFile, pending.staging);
    }
    if (!there) {
      throw new NewsError(
        `the staged copy of ${final} is gone: its records are not in the output`,
        {
          hint: `something removed ${pending.staging}; --state-reset fetches everything again (readers then see earlier records twice)`,
        },
      );
    }
    done++;
    // A file already at its final name (a killed run published it) was not moved by this call.
    if (movedNow) moved++;
    onPublished?.(done, total);
  }
  return moved;
}

/** A publish that failed, with how far it got and how to finish it. */
function publishFailed(
  error: unknown,
  final: string,
  done: number,
  total: number,
  stateFile: string | undefined,
  staging: string,
): NewsError {
  const failure =
    error instanceof NewsError
      ? error
      : new NewsError(
          `cannot publish ${final}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        );
  const told =
    stateFile === undefined
      ? `${done} of ${counted(total, 'file')} published; the rest stay staged under ${staging}`
      : `${done} of ${counted(total, 'file')} published; the same command publishes the rest (--state ${stateFile} records them)`;
  failure.hint = failure.hint === undefined ? told : `${told}; ${failure.hint}`;
  return failure;
}

/**
 * Before a run reads its watermark: completes the commit a killed run
 * recorded (publishing its files), or removes the files it staged without
 * recording them. Returns the state to start from.
 */
export async function settlePending(
  file: string,
  state: RunState | undefined,
  report: Reporter,
): Promise<RunState | undefined> {
  const pending = state?.pending;
  if (state === undefined || pending === undefined) return state;
  if (
    (pending.stage !== 'publishing' && pending.stage !== 'writing') ||
    typeof pending.staging !== 'string' ||
    !Array.isArray(pending.files)
  ) {
    throw new NewsError(`${file}: the pending commit it records is not one this tool wrote`, {
      hint: 'restore the state from a backup, or remove its "pending" field to drop that run',
    });
  }
  // The lock is read again first: on a store that ignores conditional writes another run may have it.
  await verifyLockOn(file);
  if (pending.stage === 'publishing') {
    const moved = await publishPending(pending, file);
    await removeTree(pending.staging).catch(() => undefined);
    const total = pending.files.length;
    const before = total - moved;
    report.notice(
      `completed an interrupted run (${pending.run}): published ${moved} of its ${counted(total, 'file')} under ${pending.root}${before === 0 ? '' : ` (${before} ${before === 1 ? 'was' : 'were'} published before it stopped)`}`,
    );
  } else {
    const owner = pending.owner;
    // Staged by a process on this host that still runs: never removed under it.
    if (
      owner !== undefined &&
      Number.isSafeInteger(owner.pid) &&
      owner.host === hostname() &&
      !isThisProcess(owner) &&
      alive(owner.pid)
    ) {
      throw lockHeld(
        file,
        { ...owner, since: state.updated_at },
        `that run is still staging its files under ${pending.staging}; they are removed by the first run after it ends`,
      );
    }
    await removeTree(pending.staging);
    report.notice(
      `removed the staged files of an interrupted run (${pending.run}): its records are fetched again`,
    );
  }
  const { pending: _, ...settled } = state;
  await commitRunState(file, settled);
  return settled;
}
