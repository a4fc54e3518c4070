import type { Params, SearchContext } from './types.js';

/** Formats the `export` block offers (spec/openapi.json). */
const EXPORT_FORMATS = ['json', 'xlsx', 'csv', 'tsv', 'xml', 'rss', 'parquet', 'jsonl'] as const;

/** Never echoed into a URL: the key would leak into logs and exports. */
const NOT_ECHOED = new Set(['api_key', 'page', 'export']);

function scalar(value: unknown): string | undefined {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  if (Array.isArray(value)) return value.map(String).join(',');
  return undefined;
}

/**
 * The URLs of this request with `page` (and optionally `export`) set: the
 * request's own parameters as a query string on the same path, so the GET form
 * of the endpoint answers it even when the original was a POST body. The
 * parameters are encoded once for the ten URLs of an envelope.
 */
export function pageUrls(
  params: Params,
  ctx: SearchContext,
): (page: number, exportFormat?: string) => string {
  const q = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (NOT_ECHOED.has(name)) continue;
    const text = scalar(value);
    if (text !== undefined) q.set(name, text);
  }
  const base = `${ctx.baseUrl}${ctx.path}?${q.toString()}${q.size > 0 ? '&' : ''}page=`;
  // Page numbers and format names need no encoding.
  return (page, exportFormat) =>
    exportFormat === undefined ? `${base}${page}` : `${base}${page}&export=${exportFormat}`;
}

export interface Paging {
  readonly page: number;
  readonly perPage: number;
}

/** The slice of `total` results this page shows. */
export function pageBounds(paging: Paging, total: number): { from: number; to: number } {
  const from = Math.min((paging.page - 1) * paging.perPage, total);
  return { from, to: Math.min(from + paging.perPage, total) };
}

/** The search envelope of spec/openapi.json, without `results` and the optional blocks. */
export function envelope(
  params: Params,
  ctx: SearchContext,
  paging: Paging,
  total: number,
): Record<string, unknown> {
  const hasNext = paging.page * paging.perPage < total;
  const hasPrevious = paging.page > 1;
  const pageUrl = pageUrls(params, ctx);
  return {
    status: 'ok',
    limit: paging.perPage,
    path: pageUrl(paging.page),
    page: paging.page,
    has_next_pages: hasNext,
    next_page: hasNext ? pageUrl(paging.page + 1) : '',
    has_previous_page: hasPrevious,
    previous_page: hasPrevious ? pageUrl(paging.page - 1) : '',
    export: Object.fromEntries(EXPORT_FORMATS.map((f) => [f, pageUrl(paging.page, f)])),
    request_id: ctx.requestId,
  };
}
