/**
 * The stream's fallback against a server that tells no position at
 * connect: when a stream is cut before its first article, the reconnect has
 * no id to resume from, so what matched since the first connection is
 * searched for (the contract: "through the search endpoint if it must").
 * The same filters, published at or after that instant, in id order; the
 * session drops what the live connection also brings. An article published
 * before the stream started but indexed during the cut is not found this
 * way: only a position (the mock's, any server's that sends one) is exact.
 * Loaded with import() by `news stream`.
 */
import type { NewsClient } from '../../api/index.js';
import type { StreamArticle } from '../../api/stream/stream-session.js';
import { isoSeconds } from '../../params/relative-dates.js';
import type { RequestBody } from '../../params/types.js';
import { parseDateValue } from '../../params/values.js';

const SEARCH_PATH = '/v1/news/everything';

export function catchUpSearch(
  client: NewsClient,
  filters: RequestBody,
): (since: Date, signal: AbortSignal) => AsyncIterable<readonly StreamArticle[]> {
  return async function* (since, signal) {
    // Whole seconds, rounded down: the form the service documents, and never later than asked.
    const from = Math.floor(since.getTime() / 1000) * 1000;
    const asked = filters['published_at.start'];
    const start = typeof asked === 'string' ? Math.max(from, parseDateValue(asked)) : from;
    const body = {
      ...filters,
      'published_at.start': isoSeconds(start),
      'sort.by': 'id',
      'sort.order': 'asc',
    };
    for await (const page of client.paginate(
      { method: 'POST', path: SEARCH_PATH, body },
      { signal },
    )) {
      const articles: StreamArticle[] = [];
      for (const record of page.records) {
        const id = record['id'];
        if (typeof id === 'number' || (typeof id === 'string' && id !== ''))
          articles.push({ id: String(id), article: record });
      }
      yield articles;
    }
  };
}
