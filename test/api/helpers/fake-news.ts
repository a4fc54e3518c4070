/**
 * An in-memory news search behind the client's Transport interface, for the
 * paging tests: articles in an index that a test can grow while pages are in
 * flight, a latency per request (so answers come back out of order), the
 * filters and orders paging relies on (published_at.start/end, sort.by
 * published_at|id, page, per_page), `/v1/news/count`, and faults on demand.
 * A page is computed when its latency has passed: that is the moment the
 * "server" evaluates it, as a real one would.
 */
import type { PreparedRequest } from '../../../src/api/prepare-request.js';
import { AttemptError, type RawResponse, type Transport } from '../../../src/api/transport.js';

export interface FakeArticle {
  id: number;
  published_at: string;
}

export interface Sent {
  seq: number;
  path: string;
  body: Record<string, unknown>;
}

export interface Fault {
  status: number;
  headers?: Record<string, string>;
}

export class FakeNews implements Transport {
  readonly sent: Sent[] = [];
  inFlight = 0;
  maxInFlight = 0;
  /** Milliseconds before request `seq` is answered. */
  latency: (seq: number) => number = () => 5;
  /** A fault instead of the answer to request `seq`. */
  fault: (seq: number, sent: Sent) => Fault | undefined = () => undefined;
  /** Called when request `seq` is evaluated, before its answer is computed: the index may change here. */
  beforeAnswer: (seq: number, sent: Sent) => void = () => {};
  /** The page answered for request `sent` (default: the one asked for; a broken server may ignore it). */
  answerPage: (sent: Sent) => number = (sent) => Number(sent.body['page'] ?? 1);
  /** Rate-limit headers to send, if any. */
  rateLimit: (() => { limit: number; remaining: number; reset: number }) | undefined;
  #seq = 0;

  constructor(public articles: FakeArticle[]) {}

  /** `count` articles, ids 1…count, one minute apart, the newest at `newest`. */
  static seeded(count: number, newest = Date.parse('2026-11-20T12:00:00Z')): FakeNews {
    return new FakeNews(
      Array.from({ length: count }, (_, i) => ({
        id: i + 1,
        published_at: new Date(newest - (count - 1 - i) * 60_000).toISOString(),
      })),
    );
  }

  /** Indexes an article now, with the next id. */
  publish(publishedAt: string): FakeArticle {
    const article = {
      id: Math.max(0, ...this.articles.map((a) => a.id)) + 1,
      published_at: publishedAt,
    };
    this.articles.push(article);
    return article;
  }

  async send(
    request: PreparedRequest,
    options: { signal?: AbortSignal; timeoutMs: number },
  ): Promise<RawResponse> {
    const seq = ++this.#seq;
    const url = new URL(request.url);
    const body =
      request.bodyText === undefined
        ? Object.fromEntries(url.searchParams)
        : (JSON.parse(request.bodyText) as Record<string, unknown>);
    const sent: Sent = { seq, path: url.pathname, body };
    this.sent.push(sent);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await wait(this.latency(seq), options.signal);
      this.beforeAnswer(seq, sent);
      const fault = this.fault(seq, sent);
      if (fault !== undefined) {
        return {
          status: fault.status,
          statusText: '',
          headers: { 'content-type': 'application/json', ...fault.headers },
          text: JSON.stringify({
            status: 'not_ok',
            errors: [{ status: fault.status, code: null, message: 'injected fault' }],
          }),
        };
      }
      return this.#answer(sent);
    } finally {
      this.inFlight -= 1;
    }
  }

  async close(): Promise<void> {}

  /** The matching articles in the request's order. */
  matching(body: Record<string, unknown>): FakeArticle[] {
    const end =
      typeof body['published_at.end'] === 'string'
        ? Date.parse(body['published_at.end'])
        : Infinity;
    const start =
      typeof body['published_at.start'] === 'string'
        ? Date.parse(body['published_at.start'])
        : -Infinity;
    const by = body['sort.by'] ?? 'published_at';
    const sign = body['sort.order'] === 'asc' ? 1 : -1;
    const key = (a: FakeArticle) => (by === 'id' ? a.id : Date.parse(a.published_at));
    return this.articles
      .filter((a) => {
        const t = Date.parse(a.published_at);
        return t >= start && t <= end;
      })
      .sort((a, b) => sign * (key(a) - key(b)) || b.id - a.id);
  }

  #answer(sent: Sent): RawResponse {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-points-used': '1',
    };
    const rate = this.rateLimit?.();
    if (rate !== undefined) {
      headers['x-ratelimit-limit'] = String(rate.limit);
      headers['x-ratelimit-remaining'] = String(rate.remaining);
      headers['x-ratelimit-reset'] = String(rate.reset);
    }
    const matches = this.matching(sent.body);
    if (sent.path === '/v1/news/count') {
      return {
        status: 200,
        statusText: 'OK',
        headers,
        text: JSON.stringify({ status: 'ok', count: matches.length }),
      };
    }
    const page = Number(sent.body['page'] ?? 1);
    const perPage = Number(sent.body['per_page'] ?? 10);
    const answered = this.answerPage(sent);
    const results = matches.slice((answered - 1) * perPage, answered * perPage);
    return {
      status: 200,
      statusText: 'OK',
      headers,
      text: JSON.stringify({
        status: 'ok',
        page,
        limit: perPage,
        has_next_pages: answered * perPage < matches.length,
        results,
      }),
    };
  }
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AttemptError({ kind: 'aborted' }));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AttemptError({ kind: 'aborted' }));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** mulberry32: a seeded source of latencies. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
