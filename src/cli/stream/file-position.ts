/**
 * Where a stream with `--state` and `-o FILE` resumes, and how often it
 * saves its position. The file is written first and the state after it, so
 * a run killed in between (`kill -9`, the OOM killer, a host going down) has
 * a state one step behind its file: a restart reads the id of the file's
 * last complete record (src/output/last-record-id.ts) and resumes after the
 * larger of the two, which leaves every article in the file exactly once.
 *
 * Since the file tells where it stopped, the state need not be written after
 * every batch: it is saved at most once a second (and at the end), which
 * keeps a replay of tens of thousands of articles from waiting on a disk
 * sync per batch. Without an id in the records (`--fields` without id) or
 * on stdout, the state is the only record and is saved after every batch.
 */
import { lastRecordId, tellsLastId } from '../../output/last-record-id.js';
import type { FormatName } from '../../output/types.js';
import type { StreamState } from '../run-state/stream-state.js';

/** How often a position the file also holds is saved to the state. */
export const SAVE_EVERY_MS = 1000;

export interface FileTarget {
  /** `-o`; undefined or `-` for stdout. */
  readonly output: string | undefined;
  readonly format: FormatName;
  /** The output is written as articles arrive (not at the end). */
  readonly live: boolean;
  readonly fields: readonly string[] | undefined;
}

/** Whether the records written to the target carry the article id, read back on a restart. */
export function fileTellsPosition(target: FileTarget): boolean {
  return (
    target.live &&
    target.output !== undefined &&
    target.output !== '-' &&
    tellsLastId(target.format) &&
    (target.fields === undefined || target.fields.length === 0 || target.fields.includes('id'))
  );
}

/**
 * The id to resume after: the state's, or the file's last record's when
 * that is further (the kill came after the file got a batch and before the
 * state did). `--state-reset` starts afresh and does not look at the file.
 */
export async function resumePoint(
  saved: string | undefined,
  target: FileTarget,
  reset: boolean,
): Promise<string | undefined> {
  if (reset || !fileTellsPosition(target)) return saved;
  const inFile = await lastRecordId(target.output!, target.format).catch(() => undefined);
  if (inFile === undefined) return saved;
  if (saved === undefined || !/^\d+$/.test(saved)) return inFile;
  return BigInt(inFile) > BigInt(saved) ? inFile : saved;
}

/** Moves the state after written batches: after each, or at most every `everyMs` (see above). */
export class PositionSaver {
  private pendingId: string | undefined;
  private pendingRecords = 0;
  private savedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly state: StreamState,
    private readonly everyMs: number,
    private readonly nowMs: () => number = Date.now,
  ) {}

  async written(lastId: string, records: number): Promise<void> {
    this.pendingId = lastId;
    this.pendingRecords += records;
    if (this.nowMs() - this.savedAt >= this.everyMs) await this.flush();
  }

  /** Saves what is pending (the end of a run, however it ends). */
  async flush(): Promise<void> {
    const id = this.pendingId;
    if (id === undefined) return;
    const records = this.pendingRecords;
    this.pendingId = undefined;
    this.pendingRecords = 0;
    this.savedAt = this.nowMs();
    await this.state.written(id, records);
  }
}
