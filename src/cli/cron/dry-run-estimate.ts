/**
 * `--dry-run` on a multi-page export: besides the request, how many pages and
 * points it would take, from one `count` request (the only request a dry run
 * sends; it is how the specification asks clients to size a paged export).
 */
import type { RequestSpec } from '../../api/types.js';
import type { Runtime } from '../runtime.js';
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
    return describeEstimate(
      estimateFrom(count, perPage ?? 100, limit, typeof body['prompt'] === 'string'),
    );
  } catch (error) {
    return `estimate: not available (${error instanceof Error ? error.message : String(error)})`;
  }
}
