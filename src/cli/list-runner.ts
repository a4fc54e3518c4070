import type { RequestSpec } from '../api/types.js';
import type { ApiRecord, RecordKind } from '../output/types.js';
import { UsageError } from '../api/errors.js';
import { type CronOptions, cronActive, cronFrom } from './cron/options.js';
import { hasTemplate } from './cron/output-template.js';
import { titleWindowNeeded } from './cron/windows.js';
import { exportPages } from './export-pages.js';
import { ProgressLine } from './reporter.js';
import type { Runtime } from './runtime.js';

export interface Paging {
  readonly all: boolean;
  readonly limit: number | undefined;
  /** Where page and per_page go: the JSON body (news endpoints) or the query (directories). */
  readonly placement: 'body' | 'query';
  /** The unattended-run flags (--state, --resume, …) of the commands that take them. */
  readonly cron?: CronOptions | undefined;
}

/** `--all` and `--limit N` as given on a list command. */
export function pagingFrom(
  options: Readonly<Record<string, unknown>>,
  placement: 'body' | 'query',
): Paging {
  let limit: number | undefined;
  if (options['limit'] !== undefined) {
    limit = Number(options['limit']);
    if (!Number.isInteger(limit) || limit < 1) {
      throw new UsageError(
        `--limit must be a whole number of at least 1 (got "${String(options['limit'])}")`,
      );
    }
  }
  const cron = cronFrom(options);
  // --state pages down to the last run's watermark: every page, by definition.
  const all = options['all'] === true || cron.state !== undefined;
  return { all, limit, placement, cron };
}

/** The records of a list response: `results` per the OpenAPI, `articles` in older answers. */
export function recordsOf(body: unknown): ApiRecord[] {
  if (Array.isArray(body)) return body as ApiRecord[];
  if (typeof body !== 'object' || body === null) return [];
  const envelope = body as { results?: unknown; articles?: unknown };
  const list = envelope.results ?? envelope.articles;
  return Array.isArray(list) ? (list as ApiRecord[]) : [];
}

/**
 * Fetches a list (one page, `--all` pages, or up to `--limit` records) and exports it.
 * With --raw, prints each response body untouched instead.
 * Returns how many records were exported (undefined with --raw or --dry-run).
 */
export async function runList(
  runtime: Runtime,
  spec: RequestSpec,
  kind: RecordKind,
  paging: Paging,
  raw = false,
): Promise<number | undefined> {
  const container = (paging.placement === 'body' ? spec.body : spec.query) as
    | Record<string, unknown>
    | undefined;
  const startPage = Number(container?.['page'] ?? 1);
  const requestedPerPage = container?.['per_page'];
  const multiPage =
    paging.all || (paging.limit !== undefined && paging.limit > Number(requestedPerPage ?? 100));
  const perPage =
    requestedPerPage !== undefined
      ? Number(requestedPerPage)
      : paging.limit !== undefined && paging.limit < 100
        ? paging.limit
        : undefined;

  if (runtime.settings.dryRun) {
    // The request as it would really go out, with the per_page --limit adds.
    const shown =
      perPage === undefined || requestedPerPage !== undefined
        ? spec
        : withPaging(spec, paging.placement, { per_page: perPage });
    await runtime.printDryRun(shown);
    if (multiPage) {
      const { dryRunEstimate } = await import('./cron/dry-run-estimate.js');
      await runtime.write(`${await dryRunEstimate(runtime, spec, perPage, paging.limit)}\n`);
    }
    return undefined;
  }
  const articles = paging.placement === 'body' && kind === 'article';
  const cronPath =
    articles &&
    ((paging.cron !== undefined && cronActive(paging.cron)) ||
      (paging.all && writesFile(runtime)) ||
      hasTemplate(runtime.settings.output ?? '') ||
      (multiPage && titleWindowNeeded(container ?? {}, runtime.io.now()) !== undefined));
  if (!raw && cronPath) {
    const { runCronList } = await import('./cron/cron-runner.js');
    return runCronList({
      runtime,
      spec,
      kind,
      paging: { ...paging, cron: paging.cron ?? cronFrom({}) },
      perPage,
      startPage,
    });
  }
  const client = await runtime.client();
  const progress = new ProgressLine(runtime.io.stderr, multiPage && !runtime.settings.quiet);

  if (raw) {
    await runRaw(runtime, spec, paging, startPage, perPage);
    return undefined;
  }

  const pages = client.paginate(spec, {
    startPage,
    ...(perPage === undefined ? {} : { perPage }),
    ...(paging.all || paging.limit !== undefined ? {} : { maxPages: 1 }),
    ...(paging.limit === undefined ? {} : { limit: paging.limit }),
    placement: paging.placement,
    signal: runtime.signal,
    onWarning: (m) => {
      progress.done();
      runtime.report.warn(m);
    },
  });
  let fetched = 0;
  async function* records(): AsyncGenerator<ApiRecord[]> {
    for await (const page of pages) {
      progress.update(page.records.length);
      fetched += page.records.length;
      yield page.records;
    }
  }
  try {
    await exportPages(runtime, records(), kind, `news ${spec.path}`);
    const { runStats } = await import('./cron/run-log.js');
    runStats(runtime).records = fetched;
    return fetched;
  } finally {
    progress.done();
  }
}

/** `--all -o FILE` goes through the checkpointed path, so an interrupted export can `--resume`. */
function writesFile(runtime: Runtime): boolean {
  const output = runtime.settings.output;
  return output !== undefined && output !== '-';
}

function withPaging(
  spec: RequestSpec,
  placement: 'body' | 'query',
  paging: Record<string, number>,
): RequestSpec {
  return placement === 'body'
    ? { ...spec, body: { ...(spec.body as object), ...paging } }
    : { ...spec, query: { ...spec.query, ...paging } };
}

/** `--raw`: each page's body exactly as the server sent it, one per line. */
async function runRaw(
  runtime: Runtime,
  spec: RequestSpec,
  paging: Paging,
  startPage: number,
  perPage: number | undefined,
): Promise<void> {
  const client = await runtime.client();
  let page = startPage;
  let previous: string | undefined;
  for (;;) {
    const placed = { page, ...(perPage === undefined ? {} : { per_page: perPage }) };
    const pageSpec: RequestSpec =
      paging.placement === 'body'
        ? { ...spec, body: { ...(spec.body as object), ...placed } }
        : { ...spec, query: { ...spec.query, ...placed } };
    const response = await client.request<string>({
      ...pageSpec,
      raw: true,
      signal: runtime.signal,
    });
    const text = response.body;
    if (text === previous) {
      // A server answering the same page forever would make --all loop without end.
      runtime.report.warn(`page ${page} is the same as page ${page - 1}; stopped paging`);
      return;
    }
    previous = text;
    await runtime.write(text.endsWith('\n') ? text : `${text}\n`);
    if (!paging.all || runtime.stdoutClosed) return;
    let more = false;
    try {
      more = (JSON.parse(text) as { has_next_pages?: unknown }).has_next_pages === true;
    } catch {
      return;
    }
    if (!more) return;
    page += 1;
  }
}
