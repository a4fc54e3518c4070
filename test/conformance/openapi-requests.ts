/**
 * Requests generated from spec/openapi.json for the conformance
 * property test: every operation of the document, with path, query and body
 * values drawn from the request schemas, the CLI's parameter table (enums,
 * bounds, list limits, patterns) and the fixtures (ids and names that exist,
 * so filters select something). `valid` requests hold only values the
 * service accepts; `invalid` ones break exactly one property's type or range.
 */
import fc from 'fast-check';
import { searchParam } from '../../src/params/registry.js';
import type { ParamDef } from '../../src/params/types.js';
import type { FixtureStore } from '../../src/mock/fixtures/types.js';
import { type JsonSchema, openapi } from '../helpers/spec.js';

export interface Operation {
  readonly path: string;
  readonly method: 'get' | 'post';
  readonly documented: ReadonlySet<number>;
  readonly body: Readonly<Record<string, JsonSchema>>;
  readonly query: readonly { name: string; schema: JsonSchema }[];
  readonly pathParams: readonly string[];
}

export interface GeneratedRequest {
  readonly op: Operation;
  readonly url: string;
  readonly body: Record<string, unknown> | undefined;
  readonly key: string | undefined;
  readonly valid: boolean;
  /** The property made invalid, when `valid` is false. */
  readonly broken?: string;
}

/** Never generated: `fl` trims the fields the filter check reads, `export` is not served, `api_key` is the key. */
const SKIPPED = new Set(['fl', 'export', 'api_key', 'debug']);

export function operations(): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(openapi().paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (method !== 'get' && method !== 'post') continue;
      const params = ((op as { parameters?: { in: string; name: string; schema: JsonSchema }[] })
        .parameters ?? []) as { in: string; name: string; schema: JsonSchema }[];
      const body = op.requestBody?.content['application/json']?.schema.properties ?? {};
      ops.push({
        path,
        method,
        documented: new Set(Object.keys(op.responses).map(Number)),
        body: Object.fromEntries(Object.entries(body).filter(([name]) => !SKIPPED.has(name))),
        query: params.filter((p) => p.in === 'query'),
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
      });
    }
  }
  return ops;
}

/** Values that exist in the fixtures, by parameter name. */
function pools(store: FixtureStore): Record<string, readonly string[]> {
  const articles = store.articles.slice(0, 400);
  const uniq = (xs: Iterable<string | number>): string[] => [...new Set([...xs].map(String))];
  const entities = store.suggest.entities;
  const names = (type: string) => uniq(entities.filter((e) => e.type === type).map((e) => e.name));
  return {
    'category.id': [
      ...store.suggest.categories.map((c) => String(c.id)),
      ...store.suggest.categories.map((c) => `medtop:${String(c.id).padStart(8, '0')}`),
    ],
    'topic.id': store.suggest.topics.map((t) => t.id),
    'industry.id': store.suggest.industries.map((i) => String(i.id)),
    'entity.id': entities.slice(0, 60).map((e) => String(e.id)),
    'source.id': uniq(store.sources.slice(0, 40).map((s) => s.id)),
    'source.domain': uniq(store.sources.slice(0, 40).map((s) => s.domain)),
    'language.code': uniq(articles.map((a) => a.language)),
    'source.country.code': uniq(store.sources.map((s) => s.country_code.toLowerCase())),
    'author.id': uniq(articles.flatMap((a) => (a.author.id === null ? [] : [a.author.id]))),
    'author.name': uniq(articles.flatMap((a) => (a.author.name === '' ? [] : [a.author.name]))),
    'article.id': uniq(articles.map((a) => a.id)),
    id: uniq(articles.map((a) => a.id)),
    'person.name': names('person'),
    'organization.name': names('organization'),
    'location.name': names('location'),
    'brand.name': names('brand'),
    'disaster.name': names('natural-disaster'),
    'disease.name': names('disease'),
    'event.name': names('event'),
    'sport.name': names('sport'),
    words: uniq(
      articles
        .flatMap((a) => a.title.split(/\s+/))
        .filter((w) => /^[A-Za-z]{4,12}$/.test(w))
        .slice(0, 200),
    ),
  };
}

const DATES = [
  '2026-03-14',
  '2026-03-01',
  '2026-02-20T00:00:00Z',
  '2026-03-15T11:00:00Z',
  '2026-03-10T08:30:00+01:00',
];

function listOf(pool: readonly string[], max: number): fc.Arbitrary<string> {
  return fc
    .uniqueArray(fc.constantFrom(...pool), { minLength: 1, maxLength: Math.max(1, max) })
    .map((xs) => xs.join(','));
}

/** A value the service accepts for `name`. */
function validValue(
  name: string,
  schema: JsonSchema,
  def: ParamDef | undefined,
  pool: Record<string, readonly string[]>,
): fc.Arbitrary<unknown> {
  const words = pool['words'] ?? ['market'];
  const known = pool[name.replace(/^ignore\./, '')];
  if (known && known.length > 0) return listOf(known, def?.list ?? 1);
  if (name === 'query')
    return fc.constantFrom(
      'title:market',
      'language.code:en AND NOT source.bias:left',
      'bank OR rates',
    );
  if (name === 'prompt')
    return fc.constantFrom('economy news from last week', 'technology in Germany');
  if (name === 'title_pattern') return fc.constantFrom('^[A-Z]', 'bank|market');
  if (def?.titleWindow || /title/.test(name)) return fc.constantFrom(...words);
  if (name === 'search') return fc.constantFrom(...words);
  if (name.startsWith('hl.tag')) return fc.constantFrom('<b>', '</b>');
  if (name === 'location.bbox') return fc.constant('30,60,-10,30');
  if (name === 'compare_window') return fc.constantFrom('7DAYS', '24HOURS');
  if (name === 'facet.range.start') return fc.constant('NOW-7DAYS/DAY');
  if (name === 'facet.range.end') return fc.constant('NOW');
  if (name === 'facet.range.gap') return fc.constant('+1DAY');
  if (name === 'text')
    return fc.constant(`${words.slice(0, 30).join(' ')}. `.repeat(3).slice(0, 400));
  if (name === 'claim')
    return fc.constantFrom('Shares rise after earnings', 'The bank raised interest rates');
  const type = def?.type ?? (Array.isArray(schema.type) ? schema.type[0] : schema.type);
  const enumValues = def?.enum ?? (schema.enum as string[] | undefined);
  if (enumValues && enumValues.length > 0) {
    if (def?.list !== undefined) return listOf(enumValues, def.list);
    return fc.constantFrom(...enumValues);
  }
  if (type === 'date' || /published_at|date/.test(name)) return fc.constantFrom(...DATES);
  if (type === 'flag') return fc.constantFrom(0, 1);
  if (type === 'switch') return fc.constantFrom('0', '1', 'true', 'false');
  const min = def?.min ?? schema.minimum ?? 0;
  const max = def?.max ?? schema.maximum ?? min + 100;
  if (type === 'integer') {
    const low = def?.exclusiveMin ? min + 1 : min;
    return fc.integer({ min: low, max: Math.min(max, low + 1000) });
  }
  if (type === 'number') {
    return fc
      .integer({
        min: Math.ceil(min * 100) + (def?.exclusiveMin ? 1 : 0),
        max: Math.floor(max * 100),
      })
      .map((n) => n / 100);
  }
  const minLength = def?.minLength ?? schema.minLength ?? 1;
  const maxLength = def?.maxLength ?? schema.maxLength ?? 30;
  return fc.constantFrom(...words).filter((w) => w.length >= minLength && w.length <= maxLength);
}

/** A value of the wrong type, out of range, or of the wrong form. */
function invalidValue(schema: JsonSchema, def: ParamDef | undefined): fc.Arbitrary<unknown> {
  const wrong: fc.Arbitrary<unknown>[] = [
    fc.boolean(),
    fc.constant(null),
    fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
    fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { maxLength: 3 }),
    fc.string({ maxLength: 40 }),
    fc.constantFrom('*', 'a*b', '?', '', ' ', ',,,', 'NaN', '-1', '1e309', '9'.repeat(40)),
    fc.constant('x'.repeat(5000)),
  ];
  const max = def?.max ?? schema.maximum;
  const min = def?.min ?? schema.minimum;
  if (max !== undefined) wrong.push(fc.double({ min: max + 1, max: max + 1e6, noNaN: true }));
  if (min !== undefined) wrong.push(fc.double({ min: min - 1e6, max: min - 0.001, noNaN: true }));
  if (def?.list !== undefined)
    wrong.push(fc.constant(Array.from({ length: def.list + 3 }, (_, i) => `v${i}`).join(',')));
  return fc.oneof(...wrong);
}

function pathValue(name: string, store: FixtureStore, valid: boolean): fc.Arbitrary<string> {
  const junk = fc.oneof(
    fc.constantFrom('abc', '0', '99999999', 'medtop:x', 'a.b', '%20'),
    fc.string({ minLength: 1, maxLength: 8 }),
  );
  if (!valid) return junk.map((s) => encodeURIComponent(s));
  const ids = (xs: readonly { id: number | string }[]) =>
    fc.constantFrom(...xs.slice(0, 50).map((x) => String(x.id)));
  switch (name) {
    case 'articleId':
      return ids(store.articles);
    case 'entityId':
      return ids(store.suggest.entities);
    case 'taxonomy':
      return fc.constant('iptc_mediatopics');
    case 'categoryId':
      return ids(store.suggest.categories);
    case 'topicId':
      return ids(store.suggest.topics);
    case 'industryId':
      return ids(store.suggest.industries);
    default:
      return junk;
  }
}

function directoryIds(path: string, store: FixtureStore): readonly { id: number }[] {
  if (path.startsWith('/v1/people')) return store.people;
  if (path.startsWith('/v1/companies')) return store.companies;
  return store.journalists;
}

/** Requests for one operation: valid ones, and ones with one property broken. */
export function requestsFor(
  op: Operation,
  store: FixtureStore,
  keys: readonly string[],
): fc.Arbitrary<GeneratedRequest> {
  const pool = pools(store);
  const bodyNames = Object.keys(op.body);
  return fc
    .record({
      valid: fc.boolean(),
      key: fc.oneof(
        { weight: 12, arbitrary: fc.constantFrom(...keys) },
        { weight: 1, arbitrary: fc.constant(undefined) },
      ),
      chosen: fc.uniqueArray(fc.constantFrom(...(bodyNames.length > 0 ? bodyNames : ['-'])), {
        maxLength: 4,
      }),
      seed: fc.integer(),
    })
    .chain(({ valid, key, chosen, seed }) => {
      const names = chosen.filter((n) => n !== '-');
      // The article endpoint needs its ids in a valid request.
      if (valid && op.path === '/v1/news/article' && !names.includes('id')) names.push('id');
      if (valid && op.path === '/v1/news/trends' && !names.includes('field')) names.push('field');
      if (
        valid &&
        op.path === '/v1/fact-check' &&
        !names.some((n) => ['id', 'text', 'claim'].includes(n))
      )
        names.push('claim');
      const broken = !valid && names.length > 0 ? names[Math.abs(seed) % names.length] : undefined;
      const body = fc.record(
        Object.fromEntries(
          names.map((name) => {
            const def = defFor(op, name);
            const schema = op.body[name] ?? {};
            return [
              name,
              name === broken ? invalidValue(schema, def) : validValue(name, schema, def, pool),
            ];
          }),
        ),
      );
      const pathParts = fc.record(
        Object.fromEntries(
          op.pathParams.map((n) => [n, pathValue(n, store, valid || broken !== undefined)]),
        ),
      );
      const query = fc.record(
        Object.fromEntries(op.query.map((q) => [q.name, queryValue(op, q.name, store, valid)])),
        { requiredKeys: [] },
      );
      const directoryId = fc.constantFrom(
        ...directoryIds(op.path, store)
          .slice(0, 40)
          .map((x) => x.id),
      );
      return fc
        .record({ body, pathParts, query, directoryId })
        .map(({ body: b, pathParts: pp, query: q, directoryId: dirId }) => {
          let path = op.path;
          for (const [n, v] of Object.entries(pp)) path = path.replace(`{${n}}`, v as string);
          path = path.replace('{id}', String(valid ? dirId : 99_999_999));
          const search = new URLSearchParams();
          for (const [n, v] of Object.entries(q)) if (v !== undefined) search.set(n, String(v));
          const qs = search.toString();
          return {
            op,
            url: qs === '' ? path : `${path}?${qs}`,
            body: op.method === 'post' ? b : undefined,
            key,
            valid: valid && broken === undefined,
            ...(broken === undefined ? {} : { broken }),
          };
        });
    });
}

function queryValue(
  op: Operation,
  name: string,
  store: FixtureStore,
  valid: boolean,
): fc.Arbitrary<unknown> {
  const words = store.people.slice(0, 20).map((p) => p.name.split(' ')[0]!);
  if (!valid)
    return fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('-5', '0', 'abc', '1e9', '%'));
  switch (name) {
    case 'prefix':
      return fc.constantFrom('ec', 'ba', 'te', 'a', 'Par', 'mus');
    case 'name':
      return fc.constantFrom(...words);
    case 'wikidata_id':
      return fc.constantFrom('Q317521', '317521');
    case 'page':
      return fc.integer({ min: 1, max: 3 });
    case 'per_page':
      return fc.integer({ min: 1, max: 250 });
    case 'coverage':
      return fc.constantFrom('true', 'false');
    default:
      void op;
      return fc.string({ maxLength: 10 });
  }
}

/** The parameter table's definition when the name is a search parameter, for bounds and enums. */
function defFor(op: Operation, name: string): ParamDef | undefined {
  if (op.path === '/v1/news/raw' && name === 'sort.by') return undefined;
  if (op.path === '/v1/news/article' && name === 'id')
    return { ...(searchParam('article.id') as ParamDef), name: 'id', list: 100 };
  if (op.path === '/v1/fact-check') return undefined;
  if (op.path === '/v1/news/trends' && !searchParam(name)) return undefined;
  return searchParam(name);
}
