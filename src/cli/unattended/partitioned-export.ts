import { setMaxListeners } from 'node:events';
import type { ApiRecord } from '../../output/types.js';
import { exportOptionsFor } from '../export/export-pages.js';
import type { StagedRun } from './commit.js';
import type { CronListRequest } from './run-request.js';
import { PageChannel } from './page-channel.js';
import { splitPage } from './partition.js';

/**
 * Writes each partition's records to `DIR/<column>=<value>/part-<run>.<ext>`,
 * one export per partition fed page by page, each staged whole (commit.ts)
 * and published by the caller's commit; none of an earlier run's files is
 * touched.
 */
export async function exportPartitioned(
  req: CronListRequest,
  pages: AsyncGenerator<ApiRecord[]>,
  staged: StagedRun,
  title: string,
  onUploaded: (bytes: number) => void,
): Promise<number> {
  const { runtime } = req;
  const key = req.paging.cron.partitionBy!;
  const format = runtime.settings.format!;
  const { exportRecords } = await import('../../output/index.js');
  const part = staged.run;
  // Each upload reports its own bytes: the progress line shows their sum.
  const uploaded = new Map<string, number>();
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
          const channel = new PageChannel();
          const file = await staged.stage(`${dir}/${part}.${format}`);
          const done = exportRecords(channel, {
            ...exportOptionsFor(runtime, format, file, req.kind, title),
            signal: controller.signal,
            // Every partition stays open until the run ends: staged on disk, each goes up once whole.
            uploadWhole: true,
            onUploaded: (bytes) => {
              uploaded.set(dir, bytes);
              onUploaded([...uploaded.values()].reduce((a, b) => a + b, 0));
            },
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
  return records;
}
