/**
 * The output step of an incremental run (`--state`, `--partition-by`): the
 * records go into staged files that the commit publishes (commit.ts), then
 * the state moves. Output with nothing to stage (stdout, a pipe or device,
 * a single file without --state) is written as any export and the state
 * written after it.
 */
import type { RequestSpec } from '../../api/types.js';
import type { ApiRecord } from '../../output/types.js';
import { chooseFormat, exportOptionsFor, exportPages } from '../export/export-pages.js';
import { type ProgressLine, counted } from '../runtime/reporter.js';
import { STAGING, StagedRun } from './commit.js';
import type { CronListRequest } from './run-request.js';
import { exportPartitioned } from './partitioned-export.js';
import { type RunState, commitRunState } from '../run-state/run-state.js';
import { hasTemplate } from './output-template.js';
import { PARTITION_COLUMN } from './partition.js';
import { storeOf } from '../../output/destinations/registry.js';
import { fileExists, joinPath } from '../run-state/storage.js';

export interface OutputStep {
  readonly pages: AsyncGenerator<ApiRecord[]>;
  readonly output: string | undefined;
  readonly title: string;
  /** The request as sent, and the state the run started from (--state). */
  readonly request: RequestSpec;
  readonly previous: RunState | undefined;
  readonly progress: ProgressLine;
  /** The state after this run, once its records are counted; undefined when there is none to write. */
  readonly nextState: () => RunState | undefined;
}

/** The folder a single staged file is published into, and its name there; undefined: not staged. */
async function singleTarget(
  output: string | undefined,
  state: string | undefined,
): Promise<{ root: string; name: string } | undefined> {
  if (output === undefined || output === '-' || state === undefined) return undefined;
  return storeOf(output).stagingTarget(output);
}

export async function exportAndCommit(req: CronListRequest, step: OutputStep): Promise<number> {
  const { runtime } = req;
  const { cron } = req.paging;
  const { pages, output, title, progress } = step;
  const partitioned = cron.partitionBy !== undefined;
  const single = partitioned ? undefined : await singleTarget(output, cron.state);
  if (!partitioned && single === undefined) {
    const { records } = await exportPages(runtime, pages, req.kind, title, output);
    const next = step.nextState();
    if (next !== undefined) await commitRunState(cron.state!, next);
    return records;
  }

  const root = single?.root ?? output!;
  if (partitioned && storeOf(root).isRoot(root)) {
    const column = PARTITION_COLUMN[cron.partitionBy!];
    runtime.report.notice(
      `${root} is the root of the bucket: the data set's folders (${column}=…/) and its ${STAGING}/ go beside whatever else the bucket holds; -o ${joinPath(root, 'news')}/ keeps it under a prefix of its own`,
    );
  }
  const state =
    cron.state === undefined
      ? undefined
      : { file: cron.state, spec: step.request, base: step.previous };
  // A plain -o FILE is this run's file: say so when it replaces an earlier run's.
  const replaces =
    single !== undefined &&
    !hasTemplate(runtime.settings.output ?? '') &&
    (await fileExists(joinPath(single.root, single.name)));
  const staged = StagedRun.create(root, state, runtime.io.now);
  const onUploaded = (bytes: number): void => progress.uploaded(bytes);
  let records: number;
  try {
    if (partitioned) {
      records = await exportPartitioned(req, pages, staged, title, onUploaded);
    } else {
      // The format follows the final name (the staged one ends in .staged).
      const format = await chooseFormat(runtime, output);
      const { exportRecords } = await import('../../output/index.js');
      const path = await staged.stage(single!.name);
      const options = exportOptionsFor(runtime, format, path, req.kind, title);
      records = (await exportRecords(pages, { ...options, onUploaded })).records;
    }
    // The line stays up while the files are published: a store's copies take a while.
    await staged.commit(step.nextState(), (done, total) => progress.publishing(done, total));
    progress.done();
  } catch (error) {
    await staged.discard();
    throw error;
  }
  // A partitioned run with nothing new wrote no file: "nothing new" said it already.
  if (staged.staged > 0) {
    const where = partitioned
      ? `into ${counted(staged.staged, 'partition')} under ${root} (${staged.run})`
      : `to ${output}`;
    runtime.report.notice(`wrote ${counted(records, 'record')} ${where}`);
    if (replaces) {
      runtime.report.notice(
        `${output} held the previous run's records and now holds this run's: with --state each run writes only what is new; -o '${withTimeField(runtime.settings.output ?? output!)}' or --partition-by day keeps every run`,
      );
    }
  }
  return records;
}

/** `news.csv.gz` → `news-{time}.csv.gz`: the name with the run's time before its extensions. */
function withTimeField(path: string): string {
  const slash = path.lastIndexOf('/') + 1;
  const dot = path.indexOf('.', slash + 1);
  return dot === -1 ? `${path}-{time}` : `${path.slice(0, dot)}-{time}${path.slice(dot)}`;
}
