/**
 * The incremental path: pages of every window, newest first, down to the last
 * run's watermark (--state), each article once; then one export, or one file
 * per partition, and only after the output is complete, the new state.
 */
import type { NewsClient } from '../../api/index.js';
import type { RequestSpec } from '../../api/types.js';
import type { ApiRecord } from '../../output/types.js';
import type { ProgressLine } from '../runtime/reporter.js';
import type { CronListRequest } from './run-request.js';
import { type Tally, budgetedPages, needsPosition, runPosition } from './paged-budget.js';
import { runStats } from '../export/run-log.js';
import { type RunState, commitRunState, nextRunState } from '../run-state/run-state.js';
import { exportAndCommit } from './staged-export.js';
import type { StateLock } from '../run-state/state-lock.js';

export interface IncrementalRun {
  readonly client: NewsClient;
  /** The request as sent (with --state: sorted by id, newest first). */
  readonly request: RequestSpec;
  /** One request per published_at window, newest window first. */
  readonly requests: readonly RequestSpec[];
  /** The state the run started from (--state), if any, and its lock. */
  readonly previous: RunState | undefined;
  readonly lock: StateLock | undefined;
  readonly tally: Tally;
  readonly progress: ProgressLine;
  readonly output: string | undefined;
  readonly now: Date;
}

function idOf(record: ApiRecord): number {
  const id = (record as { id?: unknown }).id;
  return typeof id === 'number' ? id : Number(id);
}

/** The first page with records, and a source that replays it: lets --skip-empty decide before a file exists. */
async function peek<T>(
  source: AsyncGenerator<T[]>,
): Promise<{ empty: boolean; pages: AsyncGenerator<T[]> }> {
  const first = await source.next();
  if (first.done) return { empty: true, pages: source };
  async function* replay(): AsyncGenerator<T[]> {
    yield first.value as T[];
    yield* source;
  }
  return { empty: false, pages: replay() };
}

export async function runIncremental(req: CronListRequest, run: IncrementalRun): Promise<number> {
  const { runtime, paging } = req;
  const { cron } = paging;
  const { client, request, requests, previous, tally, progress } = run;
  const stats = runStats(runtime);
  const watermark = previous?.watermark?.value;
  const title = runtime.commandLine;
  let maxId: number | undefined;
  let written = 0;
  const seen = new Set<number>();
  // Sorted by id, newest first: the page that reaches the watermark is the
  // last of its window (older windows may still hold articles indexed late).
  const reaches =
    watermark === undefined
      ? undefined
      : (records: readonly Record<string, unknown>[]) =>
          records.some((r) => idOf(r as ApiRecord) <= watermark);
  // Over several windows, one indexing position for all (paged-budget.ts).
  const position = needsPosition(req, requests)
    ? await runPosition(client, req, requests, tally)
    : undefined;
  async function* records(): AsyncGenerator<ApiRecord[]> {
    // Every window was empty when the run began: nothing is this run's.
    if (position === null) return;
    for (const one of requests) {
      const limit = paging.limit === undefined ? undefined : paging.limit - written;
      if (limit !== undefined && limit <= 0) return;
      const pages = budgetedPages(client, req, one, tally, {
        startPage: req.startPage,
        perPage: req.perPage,
        limit,
        resumable: false,
        progress,
        wholeRun: requests.length === 1 && watermark === undefined,
        ...(reaches === undefined ? {} : { lastPage: reaches }),
        // The watermark must not pass over what the pages did not show.
        wholeList: cron.state !== undefined,
        newestId: position,
      });
      for await (const page of pages) {
        const fresh: ApiRecord[] = [];
        for (const record of page.records) {
          const id = idOf(record);
          // Written by an earlier run (in id order, the rest of the page is too).
          if (watermark !== undefined && id <= watermark) break;
          if (!Number.isNaN(id)) {
            if (seen.has(id)) continue;
            seen.add(id);
            maxId = maxId === undefined ? id : Math.max(maxId, id);
          }
          fresh.push(record);
        }
        written += fresh.length;
        progress.update(fresh.length);
        if (fresh.length > 0) {
          // Not drawn over records written to the same terminal.
          progress.hide();
          yield fresh;
        }
        progress.show();
      }
    }
  }

  const { empty, pages } = await peek(records());
  let count = 0;
  if (empty && cron.state !== undefined) {
    const since = previous === undefined ? '' : ` since ${previous.updated_at}`;
    progress.done();
    runtime.report.notice(
      `nothing new${since}${cron.skipEmpty ? '; no file written (--skip-empty)' : ''}`,
    );
  }
  // Only once the output is complete (staged, or on stdout): see staged-export.ts.
  const nextState = (): RunState | undefined =>
    cron.state === undefined || runtime.stdoutClosed
      ? undefined
      : nextRunState(request, previous, maxId, written, runtime.io.now());
  if (!(empty && cron.skipEmpty)) {
    count = await exportAndCommit(req, { ...run, pages, title, nextState });
  } else {
    stats.output = undefined;
    const next = nextState();
    if (next !== undefined) await commitRunState(cron.state!, next);
  }
  stats.records = count;
  return count;
}
