/**
 * What every paged run tells the user about its pages in flight: `-v` lines
 * (the window, its pins, each change of concurrency and back-off, the
 * records a page skipped), the `--log-file` counters (run-log.ts) and the
 * progress line's total. One place, so the plain, checkpointed, incremental
 * and partitioned paths say the same things. Loaded with import() by the
 * list runner.
 */
import { DEFAULT_MAX } from '../../api/paging/concurrency.js';
import type { PaginateOptions, PagingEvent } from '../../api/index.js';
import { runStats } from './run-log.js';
import type { ProgressLine } from '../runtime/reporter.js';
import type { Runtime } from '../runtime/runtime.js';
import { thousands } from '../../output/text.js';

export type PagingHooks = Required<Pick<PaginateOptions, 'concurrency' | 'onEvent'>>;

/** The paging options from the settings (`--concurrency`), and the reports of what the run did. */
export function pagingHooks(
  runtime: Runtime,
  progress: ProgressLine | undefined,
  limit: number | undefined,
  onEvent?: (event: PagingEvent) => void,
): PagingHooks {
  const stats = runStats(runtime);
  const { report } = runtime;
  const concurrency = runtime.settings.concurrency;
  return {
    concurrency,
    onEvent: (event) => {
      onEvent?.(event);
      switch (event.kind) {
        case 'pinned':
          report.debug(`paging: window pinned at published_at.end ${event.pin.end}`);
          break;
        case 'newest':
          report.debug(
            `paging: in indexing order from id ${event.id} down; what is indexed later is left for the next run`,
          );
          break;
        case 'skipped': {
          // Normal while the service indexes (docs/CRON.md): not a warning.
          const parts: string[] = [];
          if (event.repeated > 0) parts.push(`${event.repeated} already written`);
          if (event.later > 0) parts.push(`${event.later} indexed after the run began`);
          report.debug(
            `paging: page ${event.page} (${event.of} records): skipped ${parts.join(' and ')}`,
          );
          break;
        }
        case 'window': {
          stats.concurrency = Math.max(stats.concurrency ?? 1, event.concurrency);
          const how = event.adaptive
            ? `adaptive, up to ${DEFAULT_MAX}`
            : `--concurrency ${concurrency}`;
          const total = event.total === undefined ? '' : `, ${thousands(event.total)} records`;
          report.debug(`paging: ${event.concurrency} pages at once (${how})${total}`);
          if (event.total !== undefined) {
            progress?.setTotal(limit === undefined ? event.total : Math.min(limit, event.total));
          }
          break;
        }
        case 'up':
          stats.concurrency = Math.max(stats.concurrency ?? 1, event.to);
          report.debug(`paging: ${event.to} pages at once`);
          break;
        case 'rate-limit':
          report.debug(`paging: ${event.to} pages at once (the rate-limit window is running low)`);
          break;
        case 'back-off':
          stats.backoffs += 1;
          report.debug(`paging: HTTP ${event.status}: backing off to ${event.to} pages at once`);
          break;
        case 'moved':
          report.notice(
            `the search changed while paging (${event.before} articles, now ${event.after ?? 'unknown'}): reading it again one page after another for what was missed`,
          );
          break;
        case 'capped':
          break;
      }
    },
  };
}
