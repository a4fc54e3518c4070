/**
 * The list runner for unattended runs: `--state` (incremental, down to a
 * watermark in indexing order), checkpointed `--all -o FILE` exports and
 * `--resume`, `-o` templates, `--partition-by`, `--max-points` and window
 * splitting. Loaded with import() by list-runner.ts only when one of these is
 * asked for, so ordinary runs and `--help` do not pay for it.
 */
import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { NewsClient } from '../../api/index.js';
import { NewsError, UsageError } from '../../api/errors.js';
import type { Page } from '../../api/paginate.js';
import type { RequestSpec } from '../../api/types.js';
import type { ApiRecord, FormatName, RecordKind } from '../../output/types.js';
import { exportOptionsFor, exportPages } from '../export-pages.js';
import { ProgressLine } from '../reporter.js';
import type { Runtime } from '../runtime.js';
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
import { Spool, checkpointPaths, loadCheckpoint, removeCheckpoint } from './checkpoint.js';
import type { CronOptions } from './options.js';
import { expandTemplate } from './output-template.js';
import { PageChannel } from './page-channel.js';
import { runPartName, splitPage } from './partition.js';
import { type RunStats, runStats } from './run-log.js';
import {
  type RunState,
  commitRunState,
  fingerprintOf,
  loadRunState,
  nextRunState,
  startingState,
} from './run-state.js';
import { acquireLock } from './state-lock.js';
import { splitWindows, titleWindowNeeded } from './windows.js';

type Body = Record<string, unknown>;

export interface CronListRequest {
  readonly runtime: Runtime;
  readonly spec: RequestSpec;
  readonly kind: RecordKind;
  /** list-runner's Paging (not imported: list-runner loads this module). */
  readonly paging: {
    readonly all: boolean;
    readonly limit: number | undefined;
    readonly placement: 'body' | 'query';
    readonly cron: CronOptions;
  };
  /** per_page to send (the user's, or what --limit implies); undefined: the server's default. */
  readonly perPage: number | undefined;
  readonly startPage: number;
}

function idOf(record: ApiRecord): number {
  const id = (record as { id?: unknown }).id;
  return typeof id === 'number' ? id : Number(id);
}

function bodyOf(spec: RequestSpec): Body {
  return { ...((spec.body as Body | undefined) ?? {}) };
}

/** Flag combinations that cannot mean anything, refused before anything is sent. */
function checkCombinations(req: CronListRequest, body: Body): void {
  const { cron, all, limit, placement } = req.paging;
  const output = req.runtime.settings.output;
  const toFile = output !== undefined && output !== '-';
  if (placement !== 'body' || req.kind !== 'article') {
    throw new UsageError('these options work on the article searches only');
  }
  if (cron.state !== undefined) {
    if (limit !== undefined) {
      throw new UsageError('--state pages down to the last run; --limit would leave a gap', {
        hint: 'drop --limit; bound the first run with --published-at-start',
      });
    }
    if (cron.resume) {
      throw new UsageError('--resume is for --all exports; a --state run restarts from its state');
    }
    if (cron.splitWindowMs !== undefined) {
      throw new UsageError('--state and --split-window do not combine: --state pages by id');
    }
    const sortBy = body['sort.by'];
    if (sortBy !== undefined && sortBy !== 'id') {
      throw new UsageError(
        `--state pages in indexing order (sort.by id), not by ${String(sortBy)}`,
        {
          hint: 'leave --sort-by out',
        },
      );
    }
    if (req.startPage !== 1) throw new UsageError('--state starts at the first page; drop --page');
  }
  if (cron.resume && (!all || !toFile)) {
    throw new UsageError('--resume continues an --all export to a file', {
      hint: 'add --all and -o FILE, as in the interrupted run',
    });
  }
  if (cron.resume && cron.partitionBy !== undefined) {
    throw new UsageError('--resume does not combine with --partition-by', {
      hint: 'partitioned runs are incremental with --state instead',
    });
  }
  if (cron.partitionBy !== undefined) {
    if (!toFile) throw new UsageError('--partition-by needs -o DIR, the root of the data set');
    const format = req.runtime.settings.format;
    if (format === undefined || format === 'table') {
      throw new UsageError('--partition-by needs -f FORMAT (parquet, jsonl, csv, …)', {
        hint: 'e.g. -f parquet -o data/ --partition-by day',
      });
    }
  }
}

/** A per-run tally shared by the page loop and the log line. */
class Tally {
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
async function* budgetedPages(
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
async function checkEstimate(
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

export async function runCronList(req: CronListRequest): Promise<number> {
  const { runtime, paging } = req;
  const { cron } = paging;
  const now = runtime.io.now();
  const body = bodyOf(req.spec);
  checkCombinations(req, body);
  const stats = runStats(runtime);
  const raw = runtime.settings.output;
  const output =
    raw === undefined || raw === '-'
      ? raw
      : expandTemplate(raw, {
          now,
          from: body['published_at.start'],
          to: body['published_at.end'],
        });
  stats.output = output === '-' ? undefined : output;

  // Locked before the state is read: two runs must never start from the same watermark.
  const lock = cron.state === undefined ? undefined : await acquireLock(cron.state, now);
  try {
    return await runLocked(req, body, output, now);
  } finally {
    await lock?.release();
  }
}

async function runLocked(
  req: CronListRequest,
  body: Body,
  output: string | undefined,
  now: Date,
): Promise<number> {
  const { runtime, paging } = req;
  const { cron } = paging;
  const stats = runStats(runtime);
  let request = req.spec;
  let previous: RunState | undefined;
  if (cron.state !== undefined) {
    request = { ...req.spec, body: { ...body, 'sort.by': 'id', 'sort.order': 'desc' } };
    previous = startingState(
      cron.state,
      await loadRunState(cron.state),
      fingerprintOf(request),
      cron.stateReset,
    );
  }
  const watermark = previous?.watermark?.value;

  const span = cron.splitWindowMs ?? titleWindowNeeded(body, now);
  const requests =
    span === undefined
      ? [request]
      : splitWindows(body, span, now).map((w) => ({
          ...request,
          // From the request's body: --state's sort by id must hold in every window.
          body: { ...bodyOf(request), 'published_at.start': w.start, 'published_at.end': w.end },
        }));
  if (requests.length > 1) {
    runtime.report.debug(`fetching ${requests.length} published_at windows`);
  }

  const client = await runtime.client();
  const tally = new Tally(stats, cron.maxPoints);
  // A state run with a watermark fetches only what is new: count cannot tell how much that is.
  if (watermark === undefined && (paging.all || paging.limit !== undefined)) {
    await checkEstimate(client, req, requests, tally);
  }

  const toFile = output !== undefined && output !== '-';
  const title = `news ${req.spec.path}`;
  const progress = new ProgressLine(runtime.io.stderr, !runtime.settings.quiet);
  try {
    if (
      paging.all &&
      toFile &&
      cron.state === undefined &&
      cron.partitionBy === undefined &&
      requests.length === 1 &&
      (await atomicTarget(output))
    ) {
      return await runCheckpointed(req, client, request, output, tally, progress, now);
    }

    let maxId: number | undefined;
    let written = 0;
    const seen = new Set<number>();
    async function* records(): AsyncGenerator<ApiRecord[]> {
      for (const one of requests) {
        const limit = paging.limit === undefined ? undefined : paging.limit - written;
        if (limit !== undefined && limit <= 0) return;
        const pages = budgetedPages(client, req, one, tally, {
          startPage: req.startPage,
          perPage: req.perPage,
          limit,
          resumable: false,
        });
        for await (const page of pages) {
          const fresh: ApiRecord[] = [];
          let reached = false;
          for (const record of page.records) {
            const id = idOf(record);
            if (watermark !== undefined && id <= watermark) {
              reached = true;
              break;
            }
            if (!Number.isNaN(id)) {
              if (seen.has(id)) continue;
              seen.add(id);
              maxId = maxId === undefined ? id : Math.max(maxId, id);
            }
            fresh.push(record);
          }
          written += fresh.length;
          progress.update(fresh.length);
          if (fresh.length > 0) yield fresh;
          // The watermark ends this window (leaving the loop ends paginate and
          // its prefetch); older windows may still hold articles indexed late.
          if (reached) break;
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
    if (!(empty && cron.skipEmpty)) {
      count =
        cron.partitionBy === undefined
          ? (await exportPages(runtime, pages, req.kind, title, output)).records
          : await exportPartitioned(req, pages, output!, title, now);
    } else {
      stats.output = undefined;
    }
    stats.records = count;
    if (cron.state !== undefined && !runtime.stdoutClosed) {
      // Only now: the output is written, fsynced and renamed (or on stdout).
      await commitRunState(
        cron.state,
        nextRunState(request, previous, maxId, written, runtime.io.now()),
      );
    }
    return count;
  } finally {
    progress.done();
  }
}

/** `--all -o FILE`: spool with a checkpoint, then encode the spool atomically into FILE. */
async function runCheckpointed(
  req: CronListRequest,
  client: NewsClient,
  request: RequestSpec,
  output: string,
  tally: Tally,
  progress: ProgressLine,
  now: Date,
): Promise<number> {
  const { runtime, paging } = req;
  const format: FormatName | undefined = runtime.settings.format;
  const fingerprint = JSON.stringify({
    query: fingerprintOf(request),
    per_page: req.perPage ?? null,
    start: req.startPage,
    limit: paging.limit ?? null,
    format: format ?? null,
    fields: runtime.settings.fields ?? null,
  });
  let spool: Spool | undefined;
  if (paging.cron.resume) {
    spool = await Spool.resume(output, fingerprint);
    if (spool === undefined) {
      runtime.report.notice(`no checkpoint for ${output}: starting from the first page`);
    } else {
      const c = spool.checkpoint;
      runtime.report.notice(
        `resuming ${output} at page ${c.next_page} (${c.records} records from ${c.pages} pages kept)`,
      );
    }
  } else if ((await loadCheckpoint(checkpointPaths(output).checkpoint)) !== undefined) {
    runtime.report.notice(
      `discarding the checkpoint of an interrupted export to ${output} (--resume would continue it)`,
    );
  }
  spool ??= await Spool.create(output, fingerprint, now);
  const checkpoint = spool.checkpoint;
  const startPage = checkpoint.pages === 0 ? req.startPage : checkpoint.next_page;
  const perPage = checkpoint.per_page ?? req.perPage;
  const limit = paging.limit === undefined ? undefined : paging.limit - checkpoint.records;
  try {
    if (limit === undefined || limit > 0) {
      const pages = budgetedPages(client, req, request, tally, {
        startPage,
        perPage,
        limit,
        resumable: true,
      });
      for await (const page of pages) {
        const size =
          perPage ?? (typeof page.envelope['limit'] === 'number' ? page.envelope['limit'] : null);
        const fresh = await spool.append(
          page.page,
          page.records,
          size ?? page.records.length,
          runtime.io.now(),
        );
        progress.update(fresh.length);
      }
    }
  } catch (error) {
    await spool.close();
    if (error instanceof NewsError && !(error instanceof UsageError)) {
      const c = spool.checkpoint;
      error.hint ??= `${c.records} records from ${c.pages} pages are checkpointed: run the same command with --resume to continue`;
    }
    throw error;
  }
  await spool.close();
  progress.done();
  const result = await exportPages(
    runtime,
    spool.pages(),
    req.kind,
    `news ${req.spec.path}`,
    output,
  );
  await removeCheckpoint(output);
  runStats(runtime).records = result.records;
  return result.records;
}

/**
 * Writes each partition's records to `DIR/<column>=<value>/part-<run>.<ext>`,
 * one export per partition fed page by page; every file is written
 * atomically and none of an earlier run's files is touched.
 */
async function exportPartitioned(
  req: CronListRequest,
  pages: AsyncGenerator<ApiRecord[]>,
  root: string,
  title: string,
  now: Date,
): Promise<number> {
  const { runtime } = req;
  const key = req.paging.cron.partitionBy!;
  const format = runtime.settings.format!;
  const { exportRecords } = await import('../../output/index.js');
  const part = runPartName(now, randomBytes(3).toString('hex'));
  const writers = new Map<string, { channel: PageChannel; done: Promise<number> }>();
  // One writer per partition, each listening for Ctrl-C: a year by day is 365 listeners.
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  const onAbort = (): void => controller.abort(runtime.signal.reason);
  if (runtime.signal.aborted) onAbort();
  runtime.signal.addEventListener('abort', onAbort, { once: true });
  let records = 0;
  try {
    for await (const page of pages) {
      for (const [dir, list] of splitPage(key, page)) {
        let writer = writers.get(dir);
        if (writer === undefined) {
          await mkdir(join(root, dir), { recursive: true });
          const channel = new PageChannel();
          const file = join(root, dir, `${part}.${format}`);
          const done = exportRecords(channel, {
            ...exportOptionsFor(runtime, format, file, req.kind, title),
            signal: controller.signal,
          }).then((r) => r.records);
          done.catch(() => undefined);
          writer = { channel, done };
          writers.set(dir, writer);
        }
        // A writer that failed stops taking pages: its failure ends the run.
        await Promise.race([
          writer.channel.push(list),
          writer.done.then(() => {
            throw new Error(`the writer of ${dir} ended early`);
          }),
        ]);
        records += list.length;
      }
    }
  } catch (error) {
    for (const { channel } of writers.values()) channel.fail(error);
    await Promise.allSettled([...writers.values()].map((w) => w.done));
    runtime.signal.removeEventListener('abort', onAbort);
    throw error;
  }
  for (const { channel } of writers.values()) channel.close();
  const results = await Promise.allSettled([...writers.values()].map((w) => w.done));
  runtime.signal.removeEventListener('abort', onAbort);
  const failed = results.find((r) => r.status === 'rejected');
  if (failed !== undefined) throw (failed as PromiseRejectedResult).reason;
  runtime.report.notice(
    `wrote ${records} records into ${writers.size} partition${writers.size === 1 ? '' : 's'} under ${root} (${part})`,
  );
  return records;
}

/** A regular file (or none yet): a checkpoint can sit beside it. Pipes and devices are written straight. */
async function atomicTarget(output: string): Promise<boolean> {
  const { resolveOutputTarget } = await import('../../output/atomic-file-sink.js');
  // A path that cannot be written is reported by the export itself, with its own message.
  return (await resolveOutputTarget(output).catch(() => undefined))?.kind !== 'direct';
}
