/**
 * The mock server under load, over real loopback HTTP with 16 keep-alive
 * connections in flight (undici), and its memory with 100 000 articles.
 *
 * Budgets (2-core machine): ≥ 1 000 searches/s; < 1 GB resident with
 * 100 000 articles. Three targets separate the server from the engine:
 * - `server only`: the HTTP pipeline (auth, rate limit, metering, headers,
 *   JSON) over a stand-in engine that answers at once;
 * - `committed fixtures`: the real engine over the default fixture set;
 * - `100 000 articles`: the real engine over the large set.
 * Each target gets 0.3 s of warm-up, then 2 s of load; the searches/s lines
 * printed at the end are the numbers to compare with the budget (the bench
 * table's hz counts whole runs and means nothing here).
 */
import { Agent, request } from 'undici';
import { afterAll, bench, describe } from 'vitest';
import type { NewsEngine } from '../src/mock/engine-adapter.js';
import type { FixtureStore } from '../src/mock/fixtures/types.js';
import { type MockServer, startMockServer } from '../src/mock/server.js';

const CONCURRENCY = 16;
const MB = 1024 * 1024;
const mb = (n: number): string => (n / MB).toFixed(0);

// Largest set first, so its memory is measured before anything else is loaded.
const started = performance.now();
const large = await startMockServer({ quiet: true, articles: 100_000 });
const loadSeconds = (performance.now() - started) / 1000;
const memory = process.memoryUsage();
console.log(
  `100 000 articles: loaded in ${loadSeconds.toFixed(1)} s; rss ${mb(memory.rss)} MB, ` +
    `heap ${mb(memory.heapUsed)} MB (budget rss < 1024 MB: ${memory.rss < 1024 * MB ? 'met' : 'MISSED'})`,
);
const committed = await startMockServer({ quiet: true });
const serverOnly = await startMockServer({
  quiet: true,
  store: committed.store,
  searchEngine: instantEngine,
});

// A mix of what the CLI sends: small pages, common filters, a title search.
const BODIES = [
  { per_page: 10 },
  { 'language.code': 'en', per_page: 10 },
  { title: 'market', per_page: 10 },
  { 'sentiment.overall.polarity': 'positive', 'sort.by': 'sentiment.overall.score', per_page: 10 },
  { 'source.country.code': 'us,gb', is_breaking: 0, per_page: 20 },
  { 'category.id': 'medtop:04000000', page: 2, per_page: 10 },
].map((b) => JSON.stringify(b));
// Weighted by rate limit (Professional 12 000/min, Basic 3 000/min) so the limiter never answers 429.
const KEYS = ['api_live_mock_pro', 'api_live_mock_pro', 'api_live_mock_pro', 'api_live_mock_basic'];
const DURATION_MS = 2000;

const agent = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 10_000 });

interface LoadResult {
  sent: number;
  failed: number;
  seconds: number;
  /** Status and start of the body of the first failure, to tell why. */
  firstFailure: string | undefined;
}

/**
 * 16 loops of sequential keep-alive requests for `ms`. The loop shares the
 * server's thread, so the rate includes the client's own cost: a
 * conservative figure (a separate client process only does better).
 */
async function load(server: MockServer, ms: number): Promise<LoadResult> {
  const url = `${server.url}/v1/news/everything`;
  let sent = 0;
  let failed = 0;
  let firstFailure: string | undefined;
  const started = performance.now();
  const end = started + ms;
  const loop = async (): Promise<void> => {
    while (performance.now() < end) {
      const i = sent++;
      const { statusCode, body } = await request(url, {
        method: 'POST',
        dispatcher: agent,
        headers: { 'content-type': 'application/json', 'x-api-key': KEYS[i % KEYS.length]! },
        body: BODIES[i % BODIES.length]!,
      });
      const text = await body.text();
      if (statusCode !== 200) {
        failed++;
        firstFailure ??= `${statusCode} ${text.slice(0, 200)}`;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  return { sent, failed, seconds: (performance.now() - started) / 1000, firstFailure };
}

const targets: [string, MockServer][] = [
  ['server only (stand-in engine)', serverOnly],
  [`committed fixtures (${committed.store.articles.length} articles)`, committed],
  ['100 000 articles', large],
];
const report: string[] = [];

for (const [name, server] of targets) {
  describe(`mock server: ${name}`, () => {
    bench(
      `${DURATION_MS / 1000} s of POST /v1/news/everything, ${CONCURRENCY} connections`,
      async () => {
        await load(server, 300); // warm-up: JIT, connections, caches
        const { sent, failed, seconds, firstFailure } = await load(server, DURATION_MS);
        const rate = sent / seconds;
        report.push(
          `${name}: ${sent} searches, ${rate.toFixed(0)} searches/s ` +
            `(budget ≥ 1000: ${rate >= 1000 ? 'met' : 'MISSED'}); non-200: ${failed}` +
            (firstFailure === undefined ? '' : ` (first: ${firstFailure})`),
        );
      },
      { iterations: 1, time: 0, warmupIterations: 0, warmupTime: 0 },
    );
  });
}

afterAll(async () => {
  for (const line of report) console.log(line);
  await agent.close();
  await Promise.all([large.close(), committed.close(), serverOnly.close()]);
});

/** Answers every search at once with a small fixed page, so only the server's own cost remains. */
function instantEngine(store: FixtureStore): NewsEngine {
  const page = { status: 'ok', page: 1, per_page: 10, results: store.articles.slice(0, 10) };
  const answer = () => ({ body: page, points: 1 });
  return {
    everything: answer,
    headlines: answer,
    story: answer,
    article: answer,
    count: answer,
    trends: answer,
    local: answer,
    entityFeed: answer,
    eventTypes: answer,
    matcher: () => () => true,
  };
}
