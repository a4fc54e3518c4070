/** One page's request and what its answer holds, checked (paginate.ts). */
import { ResponseError } from '../errors.js';
import type { ApiObject, Envelope } from './page-memory.js';
import type { RequestSpec } from '../types.js';

export function withPage(
  request: RequestSpec,
  page: number,
  perPage: number | undefined,
  placement: 'body' | 'query' | undefined,
): RequestSpec {
  const paging: Record<string, number> = { page };
  if (perPage !== undefined) paging['per_page'] = perPage;
  const inBody =
    (placement ?? (request.method !== 'GET' || request.body !== undefined ? 'body' : 'query')) ===
    'body';
  if (inBody) {
    if (
      request.body !== undefined &&
      (typeof request.body !== 'object' || request.body === null || Array.isArray(request.body))
    ) {
      throw new ResponseError(`cannot page ${request.path}: the request body is not a JSON object`);
    }
    const body = request.body as Readonly<Record<string, unknown>> | undefined;
    const out: RequestSpec = {
      method: request.method,
      path: request.path,
      body: { ...body, ...paging },
    };
    if (request.query !== undefined) out.query = request.query;
    return out;
  }
  return { method: request.method, path: request.path, query: { ...request.query, ...paging } };
}

export function asEnvelope(body: unknown, path: string): Envelope {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as Envelope;
  throw new ResponseError(
    `expected a list envelope (an object) from ${path}, got ${describe(body)}`,
  );
}

export function recordsOf(envelope: Envelope, key: string, path: string): unknown[] {
  const records = envelope[key];
  if (records === undefined || records === null) return [];
  if (!Array.isArray(records)) {
    throw new ResponseError(
      `expected "${key}" to be an array in the response of ${path}, got ${describe(records)}`,
    );
  }
  return records as unknown[];
}

/** The records that are JSON objects; the others are named in one warning per page. */
export function onlyObjects(
  records: readonly unknown[],
  page: number,
  warn: (message: string) => void,
): ApiObject[] {
  let bad: number[] | undefined;
  let kinds: Set<string> | undefined;
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    if (typeof r === 'object' && r !== null && !Array.isArray(r)) continue;
    bad ??= [];
    kinds ??= new Set();
    bad.push(i + 1);
    kinds.add(describe(r));
  }
  if (bad === undefined || kinds === undefined) return records as ApiObject[];
  const positions =
    bad.length <= 5 ? bad.join(', ') : `${bad.slice(0, 5).join(', ')} and ${bad.length - 5} more`;
  warn(
    `page ${page}: record${bad.length === 1 ? '' : 's'} ${positions} of ${records.length} ${bad.length === 1 ? 'is' : 'are'} not an object (${[...kinds].join(', ')}); skipped`,
  );
  return records.filter(
    (r): r is ApiObject => typeof r === 'object' && r !== null && !Array.isArray(r),
  );
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
