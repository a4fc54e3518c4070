/**
 * `--state NAME` into a database: the state is a row of the database's
 * `news_state` table, and every page is committed together with it (one
 * transaction: the rows and how far they reach). A run killed at any moment
 * leaves the table and the state agreeing; the same command then reads the
 * pages the killed run had not committed, and after them what is new.
 *
 * Pages come in id order, newest first, pinned to the run's first id (ids
 * above it belong to the next run). The state's `progress` says which ids
 * are in: from `newest` down to `lowest`. A resumed run starts again one
 * page before the first missing one: if that page still holds `lowest`, the
 * list did not move up, and paging goes on from there; if the list moved
 * (articles left the window), it pages from the first page again, skipping
 * what is in. Records are merged by id, so a page read twice writes nothing
 * twice.
 */
import type { NewsClient } from '../../api/index.js';
import type { RequestSpec } from '../../api/types.js';
import type { DatabaseSession } from '../../output/destinations/database/types.js';
import type { ApiRecord } from '../../output/types.js';
import { runStats } from '../export/run-log.js';
import type { ProgressLine } from '../runtime/reporter.js';
import { counted } from '../runtime/reporter.js';
import {
  type RunProgress,
  type RunState,
  fingerprintOf,
  nextRunState,
  parseRunState,
  startingState,
} from '../run-state/run-state.js';
import { type Tally, budgetedPages, needsPosition, runPosition } from './paged-budget.js';
import type { CronListRequest } from './run-request.js';

function idOf(record: ApiRecord): number {
  const id = (record as { id?: unknown }).id;
  return typeof id === 'number' ? id : Number(id);
}

/** Locks the state, reads it and checks it was made for this query: the state the run starts from. */
export async function startDatabaseState(
  req: CronListRequest,
  session: DatabaseSession,
  request: RequestSpec,
): Promise<RunState | undefined> {
  const { cron } = req.paging;
  const name = cron.state!;
  await session.lockState(name);
  const text = await session.readState(name);
  const where = `the state "${name}" in ${session.describe}`;
  const loaded = text === undefined ? undefined : parseRunState(text, where);
  return startingState(where, loaded, fingerprintOf(request), cron.stateReset);
}

export interface DatabaseRun {
  readonly client: NewsClient;
  readonly session: DatabaseSession;
  readonly request: RequestSpec;
  /** One request per published_at window, newest window first. */
  readonly requests: readonly RequestSpec[];
  readonly previous: RunState | undefined;
  readonly tally: Tally;
  readonly progress: ProgressLine;
}

export async function runIntoDatabase(req: CronListRequest, run: DatabaseRun): Promise<number> {
  const { runtime } = req;
  const name = req.paging.cron.state!;
  const { client, session, request, requests, previous, tally, progress } = run;
  let written = 0;
  /** The state as last committed. */
  let state: RunState | undefined = previous;

  /** The state after this run's batches so far, with `progress` where its pages stand (none: between passes). */
  const stateWith = (watermark: number | undefined, at: RunProgress | undefined): RunState => {
    const next = nextRunState(request, previous, watermark, written, runtime.io.now());
    const { progress: _old, ...rest } = next;
    return at === undefined ? rest : { ...rest, runs: previous?.runs ?? 0, progress: at };
  };
  const commit = async (records: readonly ApiRecord[], next: RunState): Promise<void> => {
    await session.writeBatch(records, { name, value: JSON.stringify(next) });
    state = next;
  };

  /**
   * One pass over the windows, from where `from` stood (undefined: the first
   * page, pinned to the newest id it shows), down to the watermark; ends by
   * committing the watermark at the pass's newest id.
   */
  async function pass(from: RunProgress | undefined): Promise<void> {
    const watermark = state?.watermark?.value;
    // Over several windows, one indexing position for all (paged-budget.ts).
    const position =
      from === undefined && needsPosition(req, requests)
        ? await runPosition(client, req, requests, tally)
        : undefined;
    // Every window was empty when the pass began: nothing is this run's.
    if (position === null) return;
    let newest = from?.newest ?? position;
    let window = from?.window ?? 0;
    let lowest = from?.lowest;
    let page = from?.next_page ?? 1;
    let perPage = from?.per_page ?? req.perPage;
    while (window < requests.length) {
      // Again from one page before the first missing one: it shows whether the list moved.
      const startPage = Math.max(1, page - 1);
      let check = startPage > 1 && lowest !== undefined;
      let moved = false;
      const pages = budgetedPages(client, req, requests[window]!, tally, {
        startPage,
        perPage: perPage ?? undefined,
        limit: undefined,
        resumable: false,
        progress,
        wholeRun: requests.length === 1 && from === undefined,
        ...(watermark === undefined
          ? {}
          : {
              lastPage: (records: readonly Record<string, unknown>[]) =>
                records.some((r) => idOf(r as ApiRecord) <= watermark),
            }),
        wholeList: true,
        newestId: newest,
      });
      for await (const read of pages) {
        const ids = read.records.map(idOf).filter((id) => !Number.isNaN(id));
        if (check && ids.length > 0 && ids.every((id) => id < lowest!)) {
          // Articles left the list above this page: its pages moved up, so read it from the start.
          moved = true;
          break;
        }
        check = false;
        newest ??= ids[0];
        const done = (id: number): boolean =>
          (watermark !== undefined && id <= watermark) ||
          (lowest !== undefined && newest !== undefined && id >= lowest && id <= newest);
        const fresh = read.records.filter((r) => !done(idOf(r)));
        for (const id of ids) if (lowest === undefined || id < lowest) lowest = id;
        written += fresh.length;
        if (read.rescan !== true) page = read.page + 1;
        if (typeof read.envelope['limit'] === 'number') perPage = read.envelope['limit'];
        await commit(
          fresh,
          stateWith(watermark, {
            newest: newest ?? 0,
            lowest: lowest ?? 0,
            window,
            next_page: page,
            per_page: perPage ?? null,
            records: written,
          }),
        );
        progress.update(fresh.length);
        progress.show();
      }
      if (moved) {
        page = 1;
        continue;
      }
      window++;
      page = 1;
      lowest = undefined;
    }
    await commit([], stateWith(newest === undefined ? watermark : newest, undefined));
  }

  const interrupted = previous?.progress;
  if (interrupted !== undefined) {
    runtime.report.notice(
      `continuing the interrupted run of "${name}": ${counted(interrupted.records, 'record')} of it are in ${session.table}`,
    );
    await pass(interrupted);
  }
  // What was indexed since (or everything, on a first run), down to the watermark.
  await pass(undefined);
  await session.finish();
  runStats(runtime).records = written;
  progress.done();
  runtime.report.notice(
    written === 0
      ? `nothing new${previous === undefined ? '' : ` since ${previous.updated_at}`} in ${session.describe}`
      : `wrote ${counted(written, 'record')} to ${session.describe}`,
  );
  return written;
}
