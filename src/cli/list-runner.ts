import type { RequestSpec } from '../api/types.js';
import type { ApiRecord, RecordKind } from '../output/types.js';
import { UsageError } from '../api/errors.js';
import { CompletionHarvest } from './completion/cache.js';
import { exportPages } from './export-pages.js';
import { ProgressLine } from './reporter.js';
import type { Runtime } from './runtime.js';

export interface Paging {
  readonly all: boolean;
  readonly limit: number | undefined;
  /** Where page and per_page go: the JSON body (news endpoints) or the query (directories). */
  readonly placement: 'body' | 'query';
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
  return { all: options['all'] === true, limit, placement };
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
  if (runtime.settings.dryRun) {
    await runtime.printDryRun(spec);
    return undefined;
  }
  const client = await runtime.client();
  const container = (paging.placement === 'body' ? spec.body : spec.query) as
    | Record<string, unknown>
    | undefined;
  const startPage = Number(container?.['page'] ?? 1);
  const requestedPerPage = container?.['per_page'];
  const multiPage =
    paging.all || (paging.limit !== undefined && paging.limit > Number(requestedPerPage ?? 100));
  const progress = new ProgressLine(runtime.io.stderr, multiPage && !runtime.settings.quiet);
  const perPage =
    requestedPerPage !== undefined
      ? Number(requestedPerPage)
      : paging.limit !== undefined && paging.limit < 100
        ? paging.limit
        : undefined;

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
  });
  let fetched = 0;
  // Names and ids seen here become shell completions (never fetched at Tab time).
  const harvest = new CompletionHarvest();
  async function* records(): AsyncGenerator<ApiRecord[]> {
    for await (const page of pages) {
      harvest.add(page.records);
      progress.update(page.records.length);
      fetched += page.records.length;
      yield page.records;
    }
  }
  try {
    await exportPages(runtime, records(), kind, `news ${spec.path}`);
    return fetched;
  } finally {
    progress.done();
    await harvest.save(runtime.io.env);
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
