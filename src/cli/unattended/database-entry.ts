/**
 * An unattended run into a database (`-o postgres://…`, `-o duckdb:…`): the
 * flags that mean nothing there are refused, and a `--state` run opens the
 * session, takes the state's lock in the database, and pages into the
 * table batch by batch (database-run.ts). Without --state a database is
 * written as any export is (export-pages.ts), each page a batch.
 */
import { UsageError } from '../../api/errors.js';
import type { DatabaseDestination } from '../../output/destinations/destination.js';
import { openSession } from '../export/database-export.js';
import { runStats } from '../export/run-log.js';
import { ProgressLine } from '../runtime/reporter.js';
import { runIntoDatabase, startDatabaseState } from './database-run.js';
import { Tally, checkEstimate } from './paged-budget.js';
import { type Body, type CronListRequest, bodyOf } from './run-request.js';
import { splitWindows, titleWindowNeeded } from './windows.js';

export function checkDatabaseCombinations(
  req: CronListRequest,
  destination: DatabaseDestination,
): void {
  const { cron } = req.paging;
  const where = destination.url.redacted;
  if (cron.partitionBy !== undefined) {
    throw new UsageError(`--partition-by writes files; ${where} is a database`, {
      hint: 'drop --partition-by: the table holds every run',
    });
  }
  if (cron.resume) {
    throw new UsageError(`--resume continues a file; a run into ${where} continues by itself`, {
      hint: 'with --state NAME, run the same command again',
    });
  }
}

export async function runIntoDatabaseTable(
  req: CronListRequest,
  body: Body,
  destination: DatabaseDestination,
  now: Date,
): Promise<number> {
  const { runtime, paging } = req;
  const { cron } = paging;
  const session = await openSession(runtime, destination, req.kind);
  try {
    const request = { ...req.spec, body: { ...body, 'sort.by': 'id', 'sort.order': 'desc' } };
    const previous = await startDatabaseState(req, session, request);
    const span = cron.splitWindowMs ?? titleWindowNeeded(body, now);
    const requests =
      span === undefined
        ? [request]
        : splitWindows(body, span, now).map((w) => ({
            ...request,
            body: { ...bodyOf(request), 'published_at.start': w.start, 'published_at.end': w.end },
          }));
    const client = await runtime.client();
    const tally = new Tally(runStats(runtime), cron.maxPoints);
    // A first run is estimated as --all is; later ones fetch only what is new.
    const total =
      previous?.watermark == null && previous?.progress === undefined
        ? await checkEstimate(client, req, requests, tally)
        : undefined;
    const progress = new ProgressLine(runtime.io.stderr, !runtime.settings.quiet, total);
    try {
      return await runIntoDatabase(req, {
        client,
        session,
        request,
        requests,
        previous,
        tally,
        progress,
      });
    } finally {
      progress.done();
    }
  } finally {
    await session.close();
  }
}
