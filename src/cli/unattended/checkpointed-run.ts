/**
 * `--all -o FILE` and `--resume`: pages are spooled beside FILE with a
 * checkpoint (checkpoint.ts), then the whole spool is encoded atomically into
 * FILE, so an interrupted export leaves no FILE, only the spool and the
 * checkpoint, which its error names, and a resumed one ends with the same
 * records as an uninterrupted run.
 */
import type { NewsClient } from '../../api/index.js';
import {
  ConnectionError,
  InterruptedError,
  NewsError,
  TimeoutError,
  UsageError,
} from '../../api/errors.js';
import type { RequestSpec } from '../../api/types.js';
import { storeOf } from '../../output/destinations/registry.js';
import type { FormatName } from '../../output/types.js';
import { networkHint } from '../exit-codes.js';
import { exportPages } from '../export/export-pages.js';
import { type ProgressLine, counted } from '../runtime/reporter.js';
import {
  Spool,
  checkpointPaths,
  loadCheckpoint,
  removeCheckpoint,
} from '../run-state/checkpoint.js';
import type { CronListRequest } from './run-request.js';
import { type Tally, budgetedPages } from './paged-budget.js';
import { runStats } from '../export/run-log.js';
import { fingerprintOf } from '../run-state/run-state.js';

/** `--all -o FILE`: spool with a checkpoint, then encode the spool atomically into FILE. */
export async function runCheckpointed(
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
  let resumed: Spool | undefined;
  let earlier = false;
  let resumable = false;
  if (paging.cron.resume) {
    resumed = await Spool.resume(output, fingerprint);
    if (resumed === undefined) {
      runtime.report.notice(`no checkpoint for ${output}: starting from the first page`);
    } else {
      const c = resumed.checkpoint;
      runtime.report.notice(
        `resuming ${output} at page ${c.next_page} (${c.records} records from ${c.pages} pages kept)`,
      );
    }
  } else {
    const found = await loadCheckpoint(checkpointPaths(output).checkpoint);
    earlier = found !== undefined;
    // Only this export's checkpoint is one --resume would continue.
    resumable = found?.fingerprint === fingerprint;
  }
  // A fresh spool replaces an earlier run's checkpoint only once this run has a page to keep:
  // a run that fails before (a network down) leaves it for --resume.
  let spool: Spool | undefined = resumed;
  let pinned: string | undefined;
  const fresh = async (): Promise<Spool> => {
    if (earlier) {
      runtime.report.notice(
        `discarding the checkpoint of an interrupted export to ${output} (--resume would continue it)`,
      );
    }
    const created = await Spool.create(output, fingerprint, now);
    if (pinned !== undefined) created.setPin(pinned);
    return created;
  };
  const checkpoint = resumed?.checkpoint;
  const startPage =
    checkpoint === undefined || checkpoint.pages === 0 ? req.startPage : checkpoint.next_page;
  const perPage = checkpoint?.per_page ?? req.perPage;
  const limit = paging.limit === undefined ? undefined : paging.limit - (checkpoint?.records ?? 0);
  const pinnedEnd = checkpoint?.pinned_end;
  // Once FILE is whole, the spool beside it is no longer what a failure keeps.
  let whole = false;
  const kept = (): string | undefined => (whole ? undefined : keptHint(output, spool, resumable));
  runtime.keptOnInterrupt = kept;
  try {
    try {
      if (limit === undefined || limit > 0) {
        const pages = budgetedPages(client, req, request, tally, {
          startPage,
          perPage,
          limit,
          resumable: true,
          progress,
          wholeRun: checkpoint === undefined || checkpoint.pages === 0,
          // A resumed run pages the window the interrupted one was pinned to.
          pin: pinnedEnd === undefined ? undefined : { end: pinnedEnd },
          onPin: (pin) => {
            pinned = pin.end;
            spool?.setPin(pin.end);
          },
        });
        for await (const page of pages) {
          spool ??= await fresh();
          const size =
            perPage ?? (typeof page.envelope['limit'] === 'number' ? page.envelope['limit'] : null);
          const added = await spool.append(
            // A second pass's pages come after the last one: the checkpoint stays there.
            page.rescan === true ? spool.checkpoint.next_page - 1 : page.page,
            page.records,
            size ?? page.records.length,
            runtime.io.now(),
          );
          progress.update(added.length);
          progress.show();
        }
      }
      spool ??= await fresh();
    } finally {
      await spool?.close();
    }
    // Hidden, not done: the upload of an s3:// output goes on drawing it.
    progress.hide();
    // An interrupt while the spool is encoded keeps the spool too, and says so.
    const result = await exportPages(
      runtime,
      spool.pages(),
      req.kind,
      runtime.commandLine,
      output,
      {
        onUploaded: (bytes) => progress.uploaded(bytes),
      },
    );
    whole = true;
    await removeCheckpoint(output);
    runStats(runtime).records = result.records;
    return result.records;
  } catch (error) {
    throw withCheckpointHint(error, kept(), runtime.signal.aborted);
  } finally {
    runtime.keptOnInterrupt = undefined;
  }
}

/**
 * What a failed or interrupted checkpointed run leaves beside FILE, named,
 * and how to go on; undefined when it leaves nothing (no page yet, and no
 * earlier checkpoint of this export).
 */
function keptHint(
  output: string,
  spool: Spool | undefined,
  /** An earlier checkpoint of this export is beside FILE (kept while this run has no page). */
  earlier: boolean,
): string | undefined {
  const { spool: lines, checkpoint } = checkpointPaths(output);
  const files = `${lines} and ${checkpoint}`;
  const c = spool?.checkpoint;
  if (c !== undefined) {
    return c.pages > 0
      ? `${counted(c.records, 'record')} from ${counted(c.pages, 'page')} are checkpointed in ${files}: the same command with --resume continues`
      : undefined;
  }
  return earlier
    ? `the checkpoint of the earlier interrupted export is kept in ${files}: the same command with --resume continues it`
    : undefined;
}

/**
 * The failure of a checkpointed run, with what it kept and how to go on:
 * appended to the failure's own hint (the network's, say), and on Ctrl-C
 * the "interrupted" error main() would print anyway, with it.
 */
function withCheckpointHint(
  error: unknown,
  kept: string | undefined,
  interrupted: boolean,
): unknown {
  if (error instanceof UsageError || kept === undefined) return error;
  if (interrupted) return new InterruptedError('interrupted', { hint: kept });
  if (!(error instanceof NewsError)) return error;
  const own =
    error.hint ??
    (error instanceof TimeoutError || error instanceof ConnectionError
      ? networkHint(error)
      : undefined);
  error.hint = own === undefined ? kept : `${own}; ${kept}`;
  return error;
}

/** A regular file (or none yet): a checkpoint can sit beside it. Pipes and devices are written straight. */
export async function atomicTarget(output: string): Promise<boolean> {
  // A path that cannot be written is reported by the export itself, with its own message.
  return storeOf(output)
    .stagingTarget(output)
    .then(
      (target) => target !== undefined,
      () => true,
    );
}
