/**
 * Pages under --max-points: a tally of what the run spent, the pages that
 * stay within the budget, and the `count` estimate that refuses to start a
 * run that would go over. Every path of the cron runner fetches through here.
 */
import type { NewsClient } from '../../api/index.js';
import type { Page } from '../../api/paginate.js';
import type { RequestSpec } from '../../api/types.js';
import type { ApiRecord } from '../../output/types.js';
import {
  BudgetError,
  POINTS_PER_PAGE,
  PROMPT_POINTS,
  countBody,
  countable,
  describeEstimate,
  estimateFrom,
  pointsOf,
} from './budget.js';
import { type CronListRequest, bodyOf } from './cron-request.js';
import type { RunStats } from './run-log.js';

/** A per-run tally shared by the page loop and the log line. */
export class Tally {
  spent = 0;
  constructor(
    readonly stats: RunStats,
    readonly max: number | undefined,
  ) {}
  add(page: Page<ApiRecord>): void {
    const points = pointsOf(page.response);
    this.spent += points;
    this.stats.points += points;
    this.stats.pages += 1;
    this.stats.retries += Math.max(0, page.response.attempts - 1);
  }
  /** Pages still affordable, or undefined without a budget. */
  pagesLeft(firstHasPrompt: boolean): number | undefined {
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

/**
 * Pages of one request, stopping before the page that would go over the
 * budget: paginate is told how many pages it may fetch, so not even its
 * prefetch spends past --max-points.
 */
export async function* budgetedPages(
  client: NewsClient,
  req: CronListRequest,
  request: RequestSpec,
  tally: Tally,
  options: {
    startPage: number;
    perPage: number | undefined;
    limit: number | undefined;
    resumable: boolean;
  },
): AsyncGenerator<Page<ApiRecord>> {
  const first = tally.stats.pages === 0 && typeof bodyOf(request)['prompt'] === 'string';
  const budget = tally.pagesLeft(first);
  // Without --all or --limit a run is one page, whatever cron flag brought it here.
  const onePage = !req.paging.all && options.limit === undefined;
  const maxPages = onePage ? Math.min(1, budget ?? 1) : budget;
  if (maxPages === 0) throw budgetStop(tally.max!, tally.spent, options.resumable);
  let fetched = 0;
  let last: Page<ApiRecord> | undefined;
  for await (const page of client.paginate<ApiRecord>(request, {
    startPage: options.startPage,
    ...(options.perPage === undefined ? {} : { perPage: options.perPage }),
    ...(options.limit === undefined ? {} : { limit: options.limit }),
    ...(maxPages === undefined ? {} : { maxPages }),
    placement: 'body',
    signal: req.runtime.signal,
  })) {
    tally.add(page);
    fetched += 1;
    last = page;
    yield page;
  }
  if (
    !onePage &&
    maxPages !== undefined &&
    fetched === maxPages &&
    last?.envelope['has_next_pages'] === true &&
    last.records.length > 0
  ) {
    throw budgetStop(tally.max!, tally.spent, options.resumable);
  }
}

/** Estimates with `count` and refuses to start over the budget (exit 4). */
export async function checkEstimate(
  client: NewsClient,
  req: CronListRequest,
  requests: readonly RequestSpec[],
  tally: Tally,
): Promise<void> {
  const { cron } = req.paging;
  if (cron.maxPoints === undefined || !countable(req.spec)) return;
  let count = 0;
  for (const request of requests) {
    const response = await client.request<{ count?: unknown }>({
      method: 'POST',
      path: '/v1/news/count',
      body: countBody(bodyOf(request)),
      signal: req.runtime.signal,
    });
    const points = pointsOf(response);
    tally.spent += points;
    tally.stats.points += points;
    if (typeof response.body.count === 'number') count += response.body.count;
  }
  const estimate = estimateFrom(
    count,
    req.perPage ?? 100,
    req.paging.limit,
    typeof bodyOf(req.spec)['prompt'] === 'string',
  );
  req.runtime.report.debug(describeEstimate(estimate));
  if (tally.spent + estimate.points > cron.maxPoints) {
    throw new BudgetError(
      `the export would take about ${estimate.points} points (${estimate.pages} pages for ${estimate.count} articles), more than --max-points ${cron.maxPoints}`,
      {
        hint: 'raise --max-points, narrow the filters, or add --limit; --dry-run shows the estimate',
      },
    );
  }
}
