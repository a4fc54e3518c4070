/**
 * Paging through a list endpoint as an async iterator. Page N+1 is the same
 * request with `page` incremented (the envelope's `next_page` URL is not
 * followed: it may point at another host or drop parameters). Pages are
 * asked for ahead of the consumer, several at once where the list allows
 * (page-window.ts: the window, page-pin.ts: what keeps a growing list still,
 * concurrency.ts: how many), and handed over in page order; stopping early
 * aborts what is in flight, so no request outlives the loop.
 *
 * The server is not trusted to page well: a record that is not a JSON object
 * is skipped with a warning naming its page and position (every format
 * then sees the same records); a record already yielded (same `id`) is never
 * yielded again; and paging that goes round in circles (a `page` number that
 * does not advance, the same page again, ten pages in a row with nothing
 * new) ends the loop with a warning, or `onCut`, instead of asking forever
 * (page-memory.ts, page-read.ts).
 */
import { PagedRun } from './page-window.js';
import type { Page, PageRequest, PaginateOptions, Requester } from './page-types.js';

export function paginate<R = Record<string, unknown>>(
  client: Requester,
  request: PageRequest,
  options: PaginateOptions = {},
): AsyncGenerator<Page<R>, void, undefined> {
  return new PagedRun<R>(client, request, options).pages();
}
