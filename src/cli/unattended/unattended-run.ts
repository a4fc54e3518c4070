/**
 * The list runner for unattended runs: `--state` (incremental, down to a
 * watermark in indexing order), checkpointed `--all -o FILE` exports and
 * `--resume`, `-o` templates, `--partition-by`, `--max-points` and window
 * splitting. Loaded with import() by list-runner.ts only when one of these is
 * asked for, so ordinary runs and `--help` do not pay for it.
 *
 * This is the one entry: it checks the flags, takes the lock, reads the
 * state, splits windows and checks the budget, then hands over to one of the
 * paths: checkpointed-run.ts (`--all -o FILE`), or incremental-run.ts
 * (everything else, with partitioned-export.ts for `--partition-by`).
 */
import { UsageError } from '../../api/errors.js';
import { ProgressLine } from '../runtime/reporter.js';
import { atomicTarget, runCheckpointed } from './checkpointed-run.js';
import { type Body, type CronListRequest, bodyOf } from './run-request.js';
import { runIncremental } from './incremental-run.js';
import { expandTemplate } from './output-template.js';
import { Tally, checkEstimate } from './paged-budget.js';
import { runStats } from '../export/run-log.js';
import { resolveDestination, storeOf } from '../../output/destinations/registry.js';
import { checkDatabaseCombinations, runIntoDatabaseTable } from './database-entry.js';
import { settlePending } from './commit.js';
import {
  type RunState,
  fingerprintOf,
  loadRunState,
  startingState,
} from '../run-state/run-state.js';
import { type StateLock, acquireLock } from '../run-state/state-lock.js';
import { splitWindows, titleWindowNeeded } from './windows.js';

export type { CronListRequest } from './run-request.js';

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

export async function runCronList(req: CronListRequest): Promise<number> {
  const { runtime, paging } = req;
  const { cron } = paging;
  const now = runtime.io.now();
  const body = bodyOf(req.spec);
  checkCombinations(req, body);
  const stats = runStats(runtime);
  const raw = runtime.settings.output;
  const destination = resolveDestination(raw);
  if (destination.kind === 'database') {
    stats.output = destination.url.redacted;
    checkDatabaseCombinations(req, destination);
    // With --state, the rows and the state go into the database together.
    if (cron.state !== undefined) return runIntoDatabaseTable(req, body, destination, now);
  }
  const output =
    raw === undefined || raw === '-' || destination.kind === 'database'
      ? raw
      : expandTemplate(raw, {
          now,
          from: body['published_at.start'],
          to: body['published_at.end'],
        });
  if (destination.kind !== 'database') stats.output = output === '-' ? undefined : output;
  if (output !== undefined && output !== '-' && destination.kind === 'store') {
    // A bad -o (a directory, a missing bucket, a name with no format) fails
    // before the lock, the state and the first point spent.
    const partitioned = cron.partitionBy !== undefined;
    await storeOf(output).checkOutput(output, partitioned);
    if (!partitioned)
      await (await import('../export/export-pages.js')).chooseFormat(runtime, output);
  }

  // Locked before the state is read: two runs must never start from the same watermark.
  const lock =
    cron.state === undefined
      ? undefined
      : await acquireLock(cron.state, now, (m) => runtime.report.notice(m));
  try {
    return await runLocked(req, body, output, now, lock);
  } finally {
    await lock?.release();
  }
}

async function runLocked(
  req: CronListRequest,
  body: Body,
  output: string | undefined,
  now: Date,
  lock: StateLock | undefined,
): Promise<number> {
  const { runtime, paging } = req;
  const { cron } = paging;
  const stats = runStats(runtime);
  let request = req.spec;
  let previous: RunState | undefined;
  if (cron.state !== undefined) {
    request = { ...req.spec, body: { ...body, 'sort.by': 'id', 'sort.order': 'desc' } };
    const loaded = await loadRunState(cron.state);
    const fingerprint = fingerprintOf(request);
    // The fingerprint is checked first: a usage error changes nothing.
    if (!cron.stateReset) startingState(cron.state, loaded, fingerprint, false);
    // A killed run's commit is completed (or its staged files removed) before anything else.
    const settled = await settlePending(cron.state, loaded, runtime.report);
    previous = startingState(cron.state, settled, fingerprint, cron.stateReset);
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
  const total =
    watermark === undefined && (paging.all || paging.limit !== undefined)
      ? await checkEstimate(client, req, requests, tally)
      : undefined;

  const toFile = output !== undefined && output !== '-';
  const progress = new ProgressLine(
    runtime.io.stderr,
    !runtime.settings.quiet,
    total ?? paging.limit,
  );
  try {
    if (
      paging.all &&
      toFile &&
      resolveDestination(output).kind === 'store' &&
      cron.state === undefined &&
      cron.partitionBy === undefined &&
      requests.length === 1 &&
      (await atomicTarget(output))
    ) {
      return await runCheckpointed(req, client, request, output, tally, progress, now);
    }

    return await runIncremental(req, {
      client,
      request,
      requests,
      previous,
      tally,
      progress,
      output,
      now,
      lock,
    });
  } finally {
    progress.done();
  }
}
