import type { RequestSpec } from '../../api/types.js';
import { SERVICE_PER_PAGE } from '../../params/registry.js';
import type { ApiRecord, RecordKind } from '../../output/types.js';
import { UsageError } from '../../api/errors.js';
import { type CronOptions, cronActive, cronFrom } from '../unattended/run-options.js';
import { hasTemplate } from '../unattended/output-template.js';
import { titleWindowNeeded } from '../unattended/windows.js';
import { CompletionHarvest } from '../completion/cache.js';
import { chooseFormat, exportPages } from '../export/export-pages.js';
import { refuseWithRaw } from '../runtime/raw-check.js';
import { ProgressLine } from '../runtime/reporter.js';
import type { Runtime } from '../runtime/runtime.js';
import type { FacetRow } from '../views/facet-rows.js';

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

/** What a caller may see of a list run besides the export. */
export interface ListHooks {
  /** Every page's records, as exported (`article` checks which ids came back). */
  readonly onRecords?: (records: readonly ApiRecord[]) => void;
  /** `--facets-only`: export the response's facets instead of its records. */
  readonly facetsOnly?: boolean;
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
  hooks: ListHooks = {},
): Promise<number | undefined> {
  if (raw) refuseWithRaw(runtime.settings, paging.limit);
  if (raw && hooks.facetsOnly) throw new UsageError('--raw and --facets-only do not go together');
  // A wrong --fields must cost nothing: checked before the first request is paid for.
  if (!raw && !hooks.facetsOnly) {
    const { checkFields } = await import('../../output/columns.js');
    checkFields(kind, runtime.settings.fields);
  }
  if (hooks.facetsOnly && (paging.all || paging.limit !== undefined)) {
    throw new UsageError(
      '--facets-only reads the facets of one response; --all and --limit do not apply',
      {
        hint: 'facets count the whole result, whatever the page',
      },
    );
  }
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
      const { dryRunEstimate } = await import('../unattended/dry-run-estimate.js');
      await runtime.write(`${await dryRunEstimate(runtime, spec, perPage, paging.limit)}\n`);
    }
    return undefined;
  }
  const articles = paging.placement === 'body' && kind === 'article';
  const cronPath =
    articles &&
    ((paging.cron !== undefined && cronActive(paging.cron)) ||
      // A command that watches the records (article: which ids came back) reads a
      // bounded list: nothing to checkpoint.
      (paging.all && writesFile(runtime) && hooks.onRecords === undefined) ||
      hasTemplate(runtime.settings.output ?? '') ||
      (multiPage && titleWindowNeeded(container ?? {}, runtime.io.now()) !== undefined));
  if (!raw && cronPath) {
    const { runCronList } = await import('../unattended/unattended-run.js');
    return runCronList({
      runtime,
      spec,
      kind,
      paging: { ...paging, cron: paging.cron ?? cronFrom({}) },
      perPage,
      startPage,
    });
  }
  // A bad -o (no format to guess, a directory) fails before the mock's note or any request.
  if (!raw) await chooseFormat(runtime);
  const client = await runtime.client();
  const progress = new ProgressLine(
    runtime.io.stderr,
    multiPage && !runtime.settings.quiet,
    paging.limit,
  );

  if (raw) {
    await runRaw(runtime, spec, paging, startPage, perPage);
    return undefined;
  }

  const { pagingHooks } = await import('../export/paging-events.js');
  const pages = client.paginate(spec, {
    startPage,
    ...(perPage === undefined ? {} : { perPage }),
    ...(paging.all || paging.limit !== undefined ? {} : { maxPages: 1 }),
    ...(paging.limit === undefined ? {} : { limit: paging.limit }),
    placement: paging.placement,
    signal: runtime.signal,
    ...pagingHooks(runtime, progress, paging.limit),
    onWarning: (m) => {
      progress.done();
      runtime.report.warn(m);
    },
  });
  let fetched = 0;
  // Names and ids seen here become shell completions (never fetched at Tab time).
  const harvest = new CompletionHarvest();
  let capNoted = false;
  let facets: FacetRow[] = [];
  // Loaded here, not at start-up: `news --help` imports this module.
  const { facetRows, withHighlights } = await import('../views/facet-rows.js');
  let highlighted = false;
  async function* records(): AsyncGenerator<ApiRecord[]> {
    for await (const page of pages) {
      harvest.add(page.records);
      const points = Number(page.response.usage['x-points-used']);
      progress.update(page.records.length, Number.isFinite(points) ? points : undefined);
      if (!capNoted) {
        capNoted = true;
        noteCap(runtime, page.envelope['limit'], perPage ?? SERVICE_PER_PAGE, page.records.length);
      }
      if (page.page === startPage) facets = facetRows(page.envelope['facets']);
      const shaped = withHighlights(page.records, page.envelope['highlighting']);
      if (shaped !== page.records) highlighted = true;
      fetched += shaped.length;
      hooks.onRecords?.(shaped);
      // The progress line goes before the page is printed: a table on the same
      // terminal must not start at its end.
      progress.hide();
      yield shaped;
      progress.show();
    }
  }
  try {
    if (hooks.facetsOnly) {
      for await (const _ of records()) break;
      progress.done();
      if (facets.length === 0) {
        runtime.report.notice('the response has no facets: add --facet 1 --facet-field FIELD');
      }
      async function* once(): AsyncGenerator<ApiRecord[]> {
        yield facets as unknown as ApiRecord[];
      }
      await exportPages(runtime, once(), 'generic', runtime.commandLine);
      return facets.length;
    }
    await exportPages(runtime, records(), kind, runtime.commandLine);
    const { runStats } = await import('../export/run-log.js');
    runStats(runtime).records = fetched;
    progress.done();
    await showExtras(runtime, facets, highlighted);
    return fetched;
  } finally {
    progress.done();
    await harvest.save(runtime.io.env);
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

/** A plan's per_page ceiling, applied silently by the service: said once. */
function noteCap(runtime: Runtime, limit: unknown, asked: number, got: number): void {
  if (typeof limit !== 'number' || limit >= asked || got > limit) return;
  runtime.report.notice(
    `the plan caps per_page at ${limit} (asked for ${asked}): more pages, and points, for the same records`,
  );
}

/**
 * Facets on a terminal table come after the records, as a table of their own;
 * elsewhere they would be dropped, so a note says how to get them.
 */
async function showExtras(
  runtime: Runtime,
  facets: FacetRow[],
  highlighted: boolean,
): Promise<void> {
  if (runtime.stdoutClosed) return;
  const { terminalWidth } = await import('../export/export-pages.js');
  const onTerminal =
    runtime.settings.output === undefined && (await chooseFormat(runtime)) === 'table';
  if (facets.length > 0) {
    if (onTerminal) {
      const { renderFacets } = await import('../views/facets.js');
      await runtime.write(renderFacets(facets, terminalWidth(runtime)));
    } else {
      runtime.report.notice(
        `the response has facets (${[...new Set(facets.map((f) => f.facet))].join(', ')}): --facets-only exports them`,
      );
    }
  }
  if (highlighted && onTerminal) {
    runtime.report.notice(
      'highlights are in each record\'s "highlight" field: -f json, or --fields id,highlight',
    );
  }
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
