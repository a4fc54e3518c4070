/**
 * `--dry-run` on a multi-page export: besides the request, how many pages and
 * points it would take, from one `count` request (the only request a dry run
 * sends; it is how the specification asks clients to size a paged export).
 */
import type { RequestSpec } from '../../api/types.js';
import { newestFirst } from '../../api/paging/page-pin.js';
import { OPEN_AFTER_PAGES } from '../../api/paging/page-window.js';
import type { Runtime } from '../runtime/runtime.js';
import { countBody, countable, describeEstimate, estimateFrom } from './budget.js';

export async function dryRunEstimate(
  runtime: Runtime,
  spec: RequestSpec,
  perPage: number | undefined,
  limit: number | undefined,
): Promise<string> {
  if (!countable(spec)) {
    return `estimate: not available for ${spec.path} (count covers the everything search only); about 1 point per page`;
  }
  const body = (spec.body as Record<string, unknown> | undefined) ?? {};
  try {
    const client = await runtime.client();
    const response = await client.request<{ count?: unknown }>({
      method: 'POST',
      path: '/v1/news/count',
      body: countBody(body),
      signal: runtime.signal,
    });
    const count = response.body.count;
    if (typeof count !== 'number') return 'estimate: the count response had no number';
    const estimate = estimateFrom(count, perPage ?? 100, limit, typeof body['prompt'] === 'string');
    // Past three pages the export fetches pages at once, in a window counted
    // before and after (and, unless newest first, whose end a probe reads).
    const extra = newestFirst(spec) ? '2 counts' : '2 counts and a probe';
    const parallel =
      runtime.settings.concurrency !== 1 && estimate.pages > OPEN_AFTER_PAGES
        ? `; +${extra} for the pages fetched at once`
        : '';
    return `${describeEstimate(estimate)}${parallel}`;
  } catch (error) {
    return `estimate: not available (${error instanceof Error ? error.message : String(error)})`;
  }
}
