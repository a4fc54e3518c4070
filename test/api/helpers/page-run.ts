/**
 * What the page-window tests share: a client over FakeNews with short retry
 * waits, a run collected page by page with its events, and readers of what
 * was sent.
 */
import { NewsClient } from '../../../src/api/client.js';
import type { PaginateOptions, PagingEvent } from '../../../src/api/paging/page-types.js';
import { sleep } from '../../../src/api/sleep.js';
import type { RequestSpec } from '../../../src/api/types.js';
import type { FakeNews, Sent } from './fake-news.js';

export const SEARCH: RequestSpec = {
  method: 'POST',
  path: '/v1/news/everything',
  body: { title: 'x' },
};
export const NEWEST = '2026-11-20T12:00:00.000Z';

export function clientFor(fake: FakeNews, retries = 3): NewsClient {
  return new NewsClient(
    {
      version: 't',
      apiKey: 'k',
      baseUrl: 'http://fake.test',
      retries,
      // Retry waits shortened: the tests are about what is sent, not how long.
      sleep: (ms, signal) => sleep(Math.min(ms, 3), signal),
    },
    fake,
  );
}

export interface Run {
  ids: number[];
  pages: { page: number; rescan: boolean }[];
  events: PagingEvent[];
}

export async function collect(
  fake: FakeNews,
  options: PaginateOptions = {},
  request: RequestSpec = SEARCH,
): Promise<Run> {
  const client = clientFor(fake);
  const run: Run = { ids: [], pages: [], events: [] };
  for await (const page of client.paginate(request, {
    perPage: 10,
    ...options,
    onEvent: (e) => run.events.push(e),
  })) {
    run.pages.push({ page: page.page, rescan: page.rescan === true });
    run.ids.push(...page.records.map((r) => r['id'] as number));
  }
  return run;
}

export const pagesOf = (sent: readonly Sent[]) =>
  sent.filter((s) => s.path === '/v1/news/everything');
export const countsOf = (sent: readonly Sent[]) => sent.filter((s) => s.path === '/v1/news/count');
export const newestFirstIds = (n: number) => Array.from({ length: n }, (_, i) => n - i);

/** The page number request `seq` asked for (known once it was sent). */
export function pageNumber(fake: FakeNews, seq: number): number | undefined {
  const sent = fake.sent.find((s) => s.seq === seq);
  return sent?.path === '/v1/news/everything' ? Number(sent.body['page']) : undefined;
}
