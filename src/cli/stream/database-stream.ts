/**
 * `news stream -o postgres://…` (or `duckdb:`): articles go into the table
 * as they arrive, and with `--state NAME` each batch is committed together
 * with the stream's position (the state row, in the same transaction), so a
 * stream killed at any moment and started again loses nothing and writes
 * nothing twice: the next run connects after the last committed article.
 *
 * It plays the two parts run.ts already has: the output (records are held
 * until their position is known) and the state (which commits them with it).
 */
import type { RequestSpec } from '../../api/types.js';
import type { LiveExport } from '../../output/live-export.js';
import type { ApiRecord } from '../../output/types.js';
import { STREAM_PROTOCOL } from '../../params/stream-params.js';
import { openSession } from '../export/database-export.js';
import {
  type RunState,
  fingerprintOf,
  nextRunState,
  parseRunState,
  startingState,
} from '../run-state/run-state.js';
import type { StreamState } from '../run-state/stream-state.js';
import type { Runtime } from '../runtime/runtime.js';

export interface StreamDatabase {
  readonly state: StreamState;
  readonly output: LiveExport;
}

/** The database a stream writes into, opened and its state locked; undefined when -o is not a database. */
export async function openStreamDatabase(
  runtime: Runtime,
  spec: RequestSpec,
  stateName: string | undefined,
  reset: boolean,
): Promise<StreamDatabase | undefined> {
  const output = runtime.settings.output;
  if (output === undefined || output === '-') return undefined;
  const { resolveDestination } = await import('../../output/destinations/registry.js');
  const destination = resolveDestination(output);
  if (destination.kind !== 'database') return undefined;
  const session = await openSession(runtime, destination, 'article');
  try {
    // The stream's identity does not depend on the transport: SSE and WebSocket share a state.
    const identity: RequestSpec = { ...spec, path: STREAM_PROTOCOL.ssePath };
    let state: RunState | undefined;
    if (stateName !== undefined) {
      await session.lockState(stateName);
      const text = await session.readState(stateName);
      const where = `the state "${stateName}" in ${session.describe}`;
      const loaded = text === undefined ? undefined : parseRunState(text, where);
      state = startingState(where, loaded, fingerprintOf(identity), reset);
    }
    const watermark = state?.watermark?.value;
    let pending: ApiRecord[] = [];
    let records = 0;
    let counted = false;
    /** Commits what is held, with the position after it when the stream has a state. */
    const commit = async (lastEventId: string | undefined, count: number): Promise<void> => {
      const id = Number(lastEventId);
      let stored: { name: string; value: string } | undefined;
      if (stateName !== undefined && Number.isSafeInteger(id)) {
        // One run is one run, however many batches it commits.
        const next = nextRunState(identity, state, id, count, runtime.io.now());
        state = counted ? { ...next, runs: next.runs - 1 } : next;
        counted = true;
        stored = { name: stateName, value: JSON.stringify(state) };
      }
      if (pending.length === 0 && stored === undefined) return;
      await session.writeBatch(pending, stored);
      records += pending.length;
      pending = [];
    };
    let finished = false;
    return {
      state: {
        lastEventId: watermark === undefined ? undefined : String(watermark),
        written: (lastEventId, count) => commit(lastEventId, count),
        async positioned(lastEventId) {
          if (stateName !== undefined && state?.watermark == null) await commit(lastEventId, 0);
        },
        close: () => session.close(),
      },
      output: {
        live: true,
        takesLines: false,
        broken: false,
        get records() {
          return records;
        },
        async writeLines() {
          throw new Error('a database takes records, not lines');
        },
        // Held until run.ts says which position they reach (state.written).
        async write(page) {
          pending.push(...page);
        },
        async finish() {
          if (!finished) {
            finished = true;
            await commit(undefined, 0);
            await session.finish();
          }
          return { path: session.describe };
        },
        // Committed batches stay; what was held without its position is sent again by the next run.
        async abort() {
          pending = [];
        },
      },
    };
  } catch (error) {
    await session.close();
    throw error;
  }
}
