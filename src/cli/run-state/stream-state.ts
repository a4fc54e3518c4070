/**
 * `news stream --state FILE`: the same state file as the incremental exports
 * (run-state.ts, the same lock), read as a stream reads it. The watermark is
 * the id of the last article written; the next run connects with it as
 * `Last-Event-ID`, so the service replays what was indexed meanwhile (within
 * `stream.max_age`) and nothing already written comes again.
 *
 * The state moves after batches have reached the output (a live file or
 * stdout), never before: a run killed between the two loses nothing. With a
 * live file the restart also reads the file's last id, so that batch is not
 * written again either (src/cli/stream/file-position.ts).
 */
import type { RequestSpec } from '../../api/types.js';
import { STREAM_PROTOCOL } from '../../params/stream-params.js';
import {
  type RunState,
  commitRunState,
  fingerprintOf,
  loadRunState,
  nextRunState,
  startingState,
} from './run-state.js';
import { acquireLock } from './state-lock.js';

/** The stream's identity does not depend on the transport: SSE and WebSocket share a state. */
const STREAM_PATH = STREAM_PROTOCOL.ssePath;

export interface StreamState {
  /** Where the last run stopped, or undefined on a first run. */
  readonly lastEventId: string | undefined;
  /** After a batch reached the output: moves the watermark and writes the state durably. */
  written(lastEventId: string, records: number): Promise<void>;
  /**
   * A run that wrote nothing but learnt the stream's position at connect:
   * a first state starts there, so the next run replays what was indexed
   * since this one connected. A state with a watermark keeps it.
   */
  positioned(lastEventId: string): Promise<void>;
  /** Releases the lock; the state already holds everything written. */
  close(): Promise<void>;
}

export async function openStreamState(
  file: string,
  spec: RequestSpec,
  reset: boolean,
  now: () => Date,
  notice?: (message: string) => void,
): Promise<StreamState> {
  const identity: RequestSpec = { ...spec, path: STREAM_PATH };
  const lock = await acquireLock(file, now(), notice);
  try {
    let state: RunState | undefined = startingState(
      file,
      await loadRunState(file),
      fingerprintOf(identity),
      reset,
    );
    const watermark = state?.watermark?.value;
    let counted = false;
    const written = async (lastEventId: string, records: number): Promise<void> => {
      const id = Number(lastEventId);
      if (!Number.isSafeInteger(id)) return;
      // One run is one run, however many batches it writes.
      const next = nextRunState(identity, state, id, records, now());
      state = counted ? { ...next, runs: next.runs - 1 } : next;
      counted = true;
      await commitRunState(file, state);
    };
    return {
      lastEventId: watermark === undefined ? undefined : String(watermark),
      written,
      async positioned(lastEventId) {
        if (state?.watermark == null) await written(lastEventId, 0);
      },
      close: () => lock.release(),
    };
  } catch (error) {
    await lock.release();
    throw error;
  }
}
