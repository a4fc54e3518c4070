/**
 * Pages under --max-points: a tally of what the run spent, the pages that
 * stay within the budget, and the `count` estimate that refuses to start a
 * run that would go over. Every path of the cron runner fetches through here,
 * so each one pages several at once, reports it (-v, --log-file) and feeds
 * the progress line's total.
 */
import { NewsError } from '../../api/errors.js';
import type { NewsClient } from '../../api/index.js';
import { newestIdFirst, newestIdProbe } from '../../api/paging/page-pin.js';
import type { Page, RequestKind, WindowPin } from '../../api/paging/page-types.js';
import type { ApiResponse, RequestSpec } from '../../api/types.js';
import type { ApiRecord } from '../../output/types.js';
import { BudgetError } from '../budget-error.js';
import {
  POINTS_PER_PAGE,
  PROMPT_POINTS,
  countBody,
  countable,
  describeEstimate,
  estimateFrom,
  pointsOf,
} from './budget.js';
import { type CronListRequest, bodyOf } from './run-request.js';
import type { ProgressLine } from '../runtime/reporter.js';
import type { RunStats } from '../export/run-log.js';

/** A per-run tally shared by the page loop and the log line. */
export class Tally {
  spent = 0;
  /** Records the run should bring, from the estimate's count of its one request (paginate's `expected`). */
  expected: number | undefined;
  constructor(
    readonly stats: RunStats,
    readonly max: number | undefined,
  ) {}
  /** Every response the run paid for: pages (used or fetched past the end), probes, counts. */
  spend(response: ApiResponse<unknown>, kind: RequestKind): void {
    const points = pointsOf(response);
    this.spent += points;
    this.stats.points += points;
    if (kind === 'page') this.stats.pages += 1;
    this.stats.retries += Math.max(0, response.attempts - 1);
  }
  /** Requests still affordable at a point each, or undefined without a budget. */
  requestsLeft(firstHasPrompt: boolean): number | undefined {
    if (this.max === undefined) return undefined;
    const left = this.max - this.spent - (firstHasPrompt ? PROMPT_POINTS : 0);
    return Math.max(0, Math.floor(left / POINTS_PER_PAGE));
  }
}

function budgetStop(max: number, spent: number, resumable: boolean): BudgetError {
  return new BudgetError(
    `stopped before spending more than --max-points ${max} (${spent} spent); the export is not complete`,
    {
      hint: resumable
        ? 'the checkpoint is kept: run again with --resume and a higher --max-points to continue'
        : 'raise --max-points, or narrow the filters',
    },
  );
}

export interface BudgetedOptions {
  readonly startPage: number;
  readonly perPage: number | undefined;
  readonly limit: number | undefined;
  readonly resumable: boolean;
  /** The progress line. */
  readonly progress: ProgressLine;
  /** This request is the whole run: the window's count is the progress line's total. */
  readonly wholeRun: boolean;
  /** `--state`: the page that reaches the watermark is the last. */
  readonly lastPage?: (records: readonly Record<string, unknown>[]) => boolean;
  /**
   * `--state`: the list must be read to its end (or to the watermark). When
   * the server's paging stops short of it, the run fails rather than let the
   * watermark pass over what was not read.
   */
  readonly wholeList?: boolean;
  /** `--state` over several windows: the run's indexing position (runPosition). */
  readonly newestId?: number | undefined;
  /** `--resume`: the window the interrupted run was pinned to. */
  readonly pin?: WindowPin | undefined;
  /** Told the window's end once known (the checkpoint keeps it). */
  readonly onPin?: (pin: WindowPin) => void;
}

/**
 * Pages of one request, within the budget: paginate is told how many
 * requests it may send, so not even the pages it asks for ahead (nor the
 * probes and counts of its window) spend past --max-points.
 */
export async function* budgetedPages(
  client: NewsClient,
  req: CronListRequest,
  request: RequestSpec,
  tally: Tally,
  options: BudgetedOptions,
): AsyncGenerator<Page<ApiRecord>> {
  const { runtime } = req;
  const first = tally.stats.pages === 0 && typeof bodyOf(request)['prompt'] === 'string';
  const budget = tally.requestsLeft(first);
  // Without --all or --limit a run is one page, whatever cron flag brought it here.
  const onePage = !req.paging.all && options.limit === undefined;
  if (budget === 0) throw budgetStop(tally.max!, tally.spent, options.resumable);
  let capped = false;
  const { pagingHooks } = await import('../export/paging-events.js');
  const total = options.wholeRun ? options.progress : undefined;
  const hooks = pagingHooks(runtime, total, options.limit, (event) => {
    if (event.kind === 'capped') capped = true;
    if (event.kind === 'pinned') options.onPin?.(event.pin);
  });
  yield* client.paginate<ApiRecord>(request, {
    startPage: options.startPage,
    ...(options.perPage === undefined ? {} : { perPage: options.perPage }),
    ...(options.limit === undefined ? {} : { limit: options.limit }),
    ...(onePage ? { maxPages: 1 } : {}),
    ...(budget === undefined ? {} : { maxRequests: budget }),
    ...(options.lastPage === undefined ? {} : { lastPage: options.lastPage }),
    ...(options.pin === undefined ? {} : { pin: options.pin }),
    ...(options.newestId === undefined ? {} : { newestId: options.newestId }),
    ...(options.wholeList === true ? { onCut: (reason: string) => cutShort(reason) } : {}),
    ...(tally.expected === undefined ? {} : { expected: tally.expected }),
    placement: 'body',
    signal: runtime.signal,
    ...hooks,
    onResponse: (response, kind) => tally.spend(response, kind),
    onWarning: (message) => {
      options.progress.done();
      runtime.report.warn(message);
    },
  });
  if (capped && !onePage) throw budgetStop(tally.max!, tally.spent, options.resumable);
}

/** Whether the run reads its indexing position first: `--state` over several windows (runPosition). */
export function needsPosition(req: CronListRequest, requests: readonly RequestSpec[]): boolean {
  const [first] = requests;
  return (
    req.paging.cron.state !== undefined &&
    requests.length > 1 &&
    first !== undefined &&
    newestIdFirst(first)
  );
}

/**
 * `--state` over several windows: the run's indexing position, read before
 * any window is paged (src/api/paging/page-pin.ts), the newest id among the
 * windows, one article each. Every article at or below it was indexed before
 * the first page of any window, so each window, paged with it, writes all of
 * its own, and none writes an article indexed after another window was read
 * (which would lift the watermark over one that window never saw). A
 * position taken from the first window's pages alone would do the first but
 * not the second, and one from the newest window alone would leave an older
 * window's late articles above it run after run. Null: every window was
 * empty; what comes next belongs to the next run.
 */
export async function runPosition(
  client: NewsClient,
  req: CronListRequest,
  requests: readonly RequestSpec[],
  tally: Tally,
): Promise<number | null> {
  let newest: number | null = null;
  for (const request of requests) {
    const first = tally.spent === 0 && typeof bodyOf(request)['prompt'] === 'string';
    if (tally.requestsLeft(first) === 0) throw budgetStop(tally.max!, tally.spent, false);
    const response = await client.request<{ results?: unknown }>({
      ...newestIdProbe(request),
      signal: req.runtime.signal,
    });
    tally.spend(response, 'probe');
    const results = response.body?.results;
    const id = Array.isArray(results)
      ? (results[0] as { id?: unknown } | undefined)?.id
      : undefined;
    if (typeof id === 'number' && Number.isFinite(id)) newest = Math.max(newest ?? id, id);
  }
  return newest;
}

/** A `--state` run whose pages stopped before the end of the list: failed, the state unmoved. */
function cutShort(reason: string): never {
  throw new NewsError(
    `the service's pages stopped before the end of the list (${reason}); the state is unchanged`,
    { hint: 'the next run reads again from the same watermark; -v shows each page' },
  );
}

/**
 * Estimates with `count` and refuses to start over the budget (exit 4).
 * Returns the records the run should bring (for the progress line), when counted.
 */
export async function checkEstimate(
  client: NewsClient,
  req: CronListRequest,
  requests: readonly RequestSpec[],
  tally: Tally,
): Promise<number | undefined> {
  const { cron } = req.paging;
  if (cron.maxPoints === undefined || !countable(req.spec)) return undefined;
  let count = 0;
  for (const request of requests) {
    const response = await client.request<{ count?: unknown }>({
      method: 'POST',
      path: '/v1/news/count',
      body: countBody(bodyOf(request)),
      signal: req.runtime.signal,
    });
    tally.spend(response, 'count');
    if (typeof response.body.count === 'number') count += response.body.count;
  }
  const estimate = estimateFrom(
    count,
    req.perPage ?? 100,
    req.paging.limit,
    typeof bodyOf(req.spec)['prompt'] === 'string',
  );
  req.runtime.report.debug(describeEstimate(estimate));
  const probes = needsPosition(req, requests) ? requests.length : 0;
  if (tally.spent + estimate.points + probes > cron.maxPoints) {
    throw new BudgetError(
      `the export would take about ${estimate.points} points (${estimate.pages} pages for ${estimate.count} articles), more than --max-points ${cron.maxPoints}`,
      {
        hint: 'raise --max-points, narrow the filters, or add --limit; --dry-run shows the estimate',
      },
    );
  }
  const total = req.paging.limit === undefined ? count : Math.min(count, req.paging.limit);
  if (requests.length === 1) tally.expected = total;
  return total;
}
