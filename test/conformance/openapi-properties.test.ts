/**
 * Property-based conformance of the mock to spec/openapi.json: for
 * every operation of the document, generated requests (valid ones from the
 * schemas, the parameter table and the fixtures; invalid ones with one
 * property broken) go to the real mock over HTTP, and every answer must hold:
 *
 *   - never a 5xx;
 *   - a status the document lists for the operation, or one the
 *     specification's prose gives (PROSE_STATUSES: which, and when);
 *   - a 2xx body valid against the document's response schema (ajv);
 *   - the filters filter: no result of a valid search violates a filter sent.
 *
 * Fixed seed; CONFORMANCE_RUNS (per operation, default 10) and
 * CONFORMANCE_SEED change it: `npm run conformance` is the long run.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeCategoryId } from '../../src/params/category-id.js';
import { parseDateValue } from '../../src/params/values.js';
import type { Article } from '../../src/mock/fixtures/types.js';
import type { MockServer } from '../../src/mock/server.js';
import { NOW, PRO, TEST, startConformanceServer } from '../mock/conformance-server.js';
import { call, schemaOf } from '../mock/server-helpers.js';
import { type GeneratedRequest, operations, requestsFor } from './openapi-requests.js';

const RUNS = Number(process.env['CONFORMANCE_RUNS'] ?? 10);
const SEED = Number(process.env['CONFORMANCE_SEED'] ?? 20_261_115);

/**
 * Statuses the document does not list for an operation but the
 * specification's prose gives, and the condition under which each may come.
 */
const PROSE_STATUSES: Readonly<
  Record<number, { why: string; when: (r: GeneratedRequest) => boolean }>
> = {
  400: {
    why: 'coded errors (spec Errors table: ER0110, ER0218–ER0250, ER0293, ER07xx, ER0800/ER0802), a missing prefix, an invalid request',
    when: () => true,
  },
  403: {
    why: 'prompt on Free/Starter (ER0706); fact-check not on the Free plan (document)',
    when: (r) => r.body?.['prompt'] !== undefined || r.op.path === '/v1/fact-check',
  },
  404: {
    why: 'an unknown id in the path (spec: ER0151 for profiles; story, entity and classification feeds)',
    when: (r) => r.op.pathParams.length > 0,
  },
};

/** Which answers the run saw, by "status (documented|prose)", for the report. */
const seen = new Map<string, number>();

const SEARCH_LIKE = new Set([
  '/v1/news/everything',
  '/v1/news/top-headlines',
  '/v1/news/story/{articleId}',
  '/v1/news/article',
  '/v1/news/category/{taxonomy}/{categoryId}',
  '/v1/news/topic/{topicId}',
  '/v1/news/industry/{industryId}',
  '/v1/news/entity/{entityId}',
]);

const list = (v: unknown): string[] =>
  String(v)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
const lower = (xs: readonly string[]) => xs.map((x) => x.toLowerCase());

/** An independent reading of some filters: what each result must satisfy. */
const FILTER_CHECKS: Readonly<Record<string, (a: Article, v: unknown) => boolean>> = {
  'language.code': (a, v) => lower(list(v)).includes(a.language.toLowerCase()),
  'ignore.language.code': (a, v) => !lower(list(v)).includes(a.language.toLowerCase()),
  'source.domain': (a, v) => lower(list(v)).includes(a.source.domain.toLowerCase()),
  'ignore.source.domain': (a, v) => !lower(list(v)).includes(a.source.domain.toLowerCase()),
  'source.id': (a, v) => list(v).includes(String(a.source.id)),
  'ignore.source.id': (a, v) => !list(v).includes(String(a.source.id)),
  'source.country.code': (a, v) =>
    lower(list(v)).includes(a.source.location.country_code.toLowerCase()),
  'category.id': (a, v) =>
    a.categories.some((c) =>
      list(v)
        .map(normalizeCategoryId)
        .includes(normalizeCategoryId(String(c.id))),
    ),
  'ignore.category.id': (a, v) =>
    !a.categories.some((c) =>
      list(v)
        .map(normalizeCategoryId)
        .includes(normalizeCategoryId(String(c.id))),
    ),
  'topic.id': (a, v) => a.topics.some((t) => list(v).includes(t.id)),
  'ignore.topic.id': (a, v) => !a.topics.some((t) => list(v).includes(t.id)),
  'industry.id': (a, v) => a.industries.some((i) => list(v).includes(String(i.id))),
  'entity.id': (a, v) => a.entities.some((e) => list(v).includes(String(e.id))),
  'ignore.entity.id': (a, v) => !a.entities.some((e) => list(v).includes(String(e.id))),
  'author.id': (a, v) => list(v).includes(String(a.author.id)),
  'sentiment.overall.score.min': (a, v) => a.sentiment.overall.score >= Number(v),
  'sentiment.overall.score.max': (a, v) => a.sentiment.overall.score <= Number(v),
  'sentiment.overall.polarity': (a, v) => a.sentiment.overall.polarity === v,
  'source.rank.opr.min': (a, v) => a.source.rankings.opr >= Number(v),
  'source.rank.opr.max': (a, v) => a.source.rankings.opr <= Number(v),
  'read_time.min': (a, v) => a.read_time >= Number(v),
  'read_time.max': (a, v) => a.read_time <= Number(v),
  is_duplicate: (a, v) => a.is_duplicate === (Number(v) === 1),
  is_breaking: (a, v) => a.is_breaking === (Number(v) === 1),
  'published_at.start': (a, v) => Date.parse(a.published_at) >= parseDateValue(String(v)),
};

let server: MockServer;
beforeAll(async () => {
  // Rate limits lifted: the run sends hundreds of requests a second.
  server = await startConformanceServer({ rateLimits: false });
});
afterAll(async () => {
  await server.close();
  const lines = [...seen.entries()].sort().map(([k, n]) => `${k}: ${n}`);
  if (process.env['CONFORMANCE_REPORT']) console.log(`statuses seen:\n  ${lines.join('\n  ')}`);
});

async function check(req: GeneratedRequest): Promise<void> {
  const r = await call(server, req.op.method.toUpperCase(), req.url, {
    ...(req.key === undefined ? {} : { key: req.key }),
    ...(req.body === undefined ? {} : { body: req.body }),
  });
  const where = `${req.op.method.toUpperCase()} ${req.url} ${JSON.stringify(req.body)?.slice(0, 300)} key=${req.key} → ${r.status} ${r.text.slice(0, 300)}`;
  expect(r.status, where).toBeLessThan(500);
  const documented = req.op.documented.has(r.status);
  if (!documented) {
    const prose = PROSE_STATUSES[r.status];
    expect(prose, `status not in the document nor the prose: ${where}`).toBeDefined();
    expect(prose!.when(req), `${r.status} (${prose!.why}) does not apply: ${where}`).toBe(true);
  }
  seen.set(
    `${r.status} ${documented ? 'documented' : 'prose'}`,
    (seen.get(`${r.status} ${documented ? 'documented' : 'prose'}`) ?? 0) + 1,
  );
  if (r.status >= 200 && r.status < 300 && documented) {
    const validate = schemaOf(req.op.path, req.op.method, r.status);
    expect(validate(r.json), `${where}\n${JSON.stringify(validate.errors)}`).toBe(true);
  }
  if (r.status === 200 && req.valid && SEARCH_LIKE.has(req.op.path) && req.body) {
    const results = (r.json as { results: Article[] }).results;
    // Prompt-derived filters may add to these; the explicit ones must still hold.
    for (const [name, value] of Object.entries(req.body)) {
      const holds = FILTER_CHECKS[name];
      if (!holds) continue;
      for (const a of results)
        expect(holds(a, value), `${name}=${String(value)} on article ${a.id}: ${where}`).toBe(true);
    }
  }
  if (r.status === 401) expect(req.key).toBeUndefined();
}

describe('the mock conforms to the OpenAPI document', () => {
  const ops = operations();

  it('covers every operation of the document', () => {
    expect(ops.length).toBeGreaterThanOrEqual(26);
  });

  for (const op of ops) {
    it(`${op.method.toUpperCase()} ${op.path}`, async () => {
      await fc.assert(fc.asyncProperty(requestsFor(op, server.store, [PRO, PRO, TEST]), check), {
        numRuns: RUNS,
        seed: SEED,
        endOnFailure: true,
      });
    });
  }

  it('the fixed clock the run relies on', () => {
    expect(server.clock.now().getTime() - NOW.getTime()).toBeLessThan(1000);
  });
});
