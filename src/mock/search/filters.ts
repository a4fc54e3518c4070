import type { ParamDef, ParamGroup } from '../../params/types.js';
import type { Columns } from './columns.js';
import { dayRange, rangeEnd, rangeStart } from './dates.js';
import { ENTITY_NAME_TYPES, FIELDS } from './fields.js';
import { haversineKm, inBBox, parseBBox } from './geo.js';
import {
  anyOf,
  type Bound,
  bound,
  compareNumber,
  entityTypeMatches,
  nameMatches,
} from './matchers.js';
import { listOf, type Value } from './parse-request.js';
import {
  compilePattern,
  hasPhraseIn,
  matchesTitleTerms,
  parseTitleTerms,
  tokenize,
} from './text.js';
import type { Doc, DocEntity, DocFilter } from './types.js';

/** What a filter may read besides its own value. */
export interface FilterEnv {
  /** Every applied parameter of the request (after prompt translation). */
  readonly values: ReadonlyMap<string, Value>;
  /** author.name → the first author record of that name (spec: "resolves to only the first matching author record"). */
  readonly firstAuthorId: (nameLower: string) => number | undefined;
  /** The compiled `query` (the engine parses it, so errors carry the request's context). */
  readonly compileQuery: (text: string) => DocFilter;
  /** The index's columns; absent when filtering articles that are not indexed (webhooks, streams). */
  readonly columns?: Columns | undefined;
}

/** Builds the predicate of one applied parameter; undefined = nothing to filter (e.g. consumed by another). */
export type FilterHandler = (value: Value, env: FilterEnv) => DocFilter | undefined;

/** Groups that shape the request or the answer rather than select articles. */
const NOT_FILTER_GROUPS: ReadonlySet<ParamGroup> = new Set([
  'Pagination',
  'Highlighting',
  'Facets',
  'Output',
  'Directory',
]);
/** `prompt` becomes other filters before the search; `search` only highlights. */
const NOT_FILTER_NAMES: ReadonlySet<string> = new Set(['prompt', 'search']);

export function isFilterParam(def: ParamDef): boolean {
  return !NOT_FILTER_GROUPS.has(def.group) && !NOT_FILTER_NAMES.has(def.name);
}

const not = (f: DocFilter | undefined): DocFilter | undefined =>
  f === undefined ? undefined : (doc, ix) => !f(doc, ix);

const num = (v: Value): number => (typeof v === 'number' ? v : Number(v));

function titleTerms(value: Value, env: FilterEnv): DocFilter | undefined {
  const terms = parseTitleTerms(String(value));
  if (terms.length === 0) return undefined;
  const slow: DocFilter = (doc) => matchesTitleTerms(doc.titleTokens, terms);
  if (env.columns === undefined) return slow;
  const { dict, offsets, ids } = env.columns.titles();
  // A word no title has: nothing can match (-2 is never an id).
  const id = (w: string) => dict.get(w) ?? -2;
  const phrases = terms.map((t) =>
    t.kind === 'word' ? { words: [id(t.word)], slop: 0 } : { words: t.words.map(id), slop: t.slop },
  );
  return (doc, ix) => {
    if (ix < 0) return slow(doc, ix);
    const from = offsets[ix] as number;
    const to = offsets[ix + 1] as number;
    for (const p of phrases) if (!hasPhraseIn(ids, from, to, p.words, p.slop)) return false;
    return true;
  };
}

/** The article's geo point: its first mentioned place with coordinates (fixture convention). */
function distanceFrom(env: FilterEnv): ((doc: Doc) => number | undefined) | undefined {
  const lat = env.values.get('location.lat');
  const lng = env.values.get('location.lng');
  if (lat === undefined || lng === undefined) return undefined;
  return (doc) => {
    const p = doc.places[0];
    return p === undefined ? undefined : haversineKm(num(lat), num(lng), p.lat, p.lng);
  };
}

/** Entity selectors of the request: entity.id and the `*.name` filters. */
function entitySelector(env: FilterEnv): ((e: DocEntity) => boolean) | undefined {
  const ids = new Set(listOf(env.values.get('entity.id')));
  const names: { type: string; tokens: string[] }[] = [];
  for (const [kind, type] of Object.entries(ENTITY_NAME_TYPES)) {
    for (const name of listOf(env.values.get(`${kind}.name`)))
      names.push({ type, tokens: tokenize(name) });
  }
  if (ids.size === 0 && names.length === 0) return undefined;
  return (e) =>
    ids.has(String(e.id)) ||
    names.some((n) => entityTypeMatches(n.type, e.type) && nameMatches(e, n.tokens));
}

const ENTITY_SENTIMENT = [
  'entity.sentiment.polarity',
  'entity.sentiment.score.min',
  'entity.sentiment.score.max',
];

/**
 * The three entity.sentiment parameters hold together for one selected entity, so
 * the first one present builds the whole predicate and the others add nothing.
 */
function entitySentiment(name: string): FilterHandler {
  return (_value, env) => {
    if (ENTITY_SENTIMENT.find((n) => env.values.has(n)) !== name) return undefined;
    const selected = entitySelector(env) ?? (() => true);
    const polarity = env.values.get('entity.sentiment.polarity');
    const min = env.values.get('entity.sentiment.score.min');
    const max = env.values.get('entity.sentiment.score.max');
    const ok = (e: DocEntity): boolean =>
      selected(e) &&
      (polarity === undefined || e.polarity === polarity) &&
      (min === undefined || compareNumber(e.score, 'gte', num(min))) &&
      (max === undefined || compareNumber(e.score, 'lte', num(max)));
    return (doc) => doc.entities.some(ok);
  };
}

/** Resolves names to the first author record each; a name without a record matches nothing. */
export function authorNameFilter(
  names: readonly string[],
  env: Pick<FilterEnv, 'firstAuthorId'>,
): (doc: Doc) => boolean {
  const ids = new Set<number>();
  for (const n of names) {
    const id = env.firstAuthorId(n.toLowerCase());
    if (id !== undefined) ids.add(id);
  }
  return (doc) => doc.authorId !== null && ids.has(doc.authorId);
}

/** Parameters whose meaning is more than "field equals / within bounds". */
const SPECIAL: Readonly<Record<string, FilterHandler>> = {
  query: (v, env) => env.compileQuery(String(v)),
  title: titleTerms,
  'ignore.title': (v, env) => not(titleTerms(v, env)),
  title_starts_with: (v) => {
    const prefix = String(v).toLowerCase();
    return (doc) => doc.titleLower.startsWith(prefix);
  },
  title_ends_with: (v) => {
    const suffix = String(v).toLowerCase();
    return (doc) => doc.titleLower.endsWith(suffix);
  },
  title_pattern: (v) => {
    const test = compilePattern(String(v));
    return (doc) => test(doc.title);
  },
  published_at: (v) => {
    const { from, to } = dayRange(String(v));
    return (doc) => doc.publishedAt >= from && doc.publishedAt <= to;
  },
  'published_at.start': (v) => {
    const from = rangeStart(String(v));
    return (doc) => doc.publishedAt >= from;
  },
  'published_at.end': (v) => {
    const to = rangeEnd(String(v));
    return (doc) => doc.publishedAt <= to;
  },
  'author.name': (v, env) => authorNameFilter(listOf(v), env),
  'entity.sentiment.polarity': entitySentiment('entity.sentiment.polarity'),
  'entity.sentiment.score.min': entitySentiment('entity.sentiment.score.min'),
  'entity.sentiment.score.max': entitySentiment('entity.sentiment.score.max'),
  'location.bbox': (v) => {
    const box = parseBBox(String(v));
    if (box === undefined) return undefined;
    return (doc) => {
      const p = doc.places[0];
      return p !== undefined && inBBox(box, p.lat, p.lng);
    };
  },
  // The centre alone selects nothing; radius and radius.min read it.
  'location.lat': () => undefined,
  'location.lng': () => undefined,
  'location.radius': (v, env) => {
    const distance = distanceFrom(env);
    if (distance === undefined) return undefined;
    const radius = num(v);
    return (doc) => {
      const d = distance(doc);
      return d !== undefined && d <= radius;
    };
  },
  'location.radius.min': (v, env) => {
    const distance = distanceFrom(env);
    if (distance === undefined) return undefined;
    const min = num(v);
    return (doc) => {
      const d = distance(doc);
      return d !== undefined && d >= min;
    };
  },
};

const BOUNDS: Readonly<Record<string, Bound>> = { min: 'gte', max: 'lte' };

/**
 * The handler of a filter parameter: a special rule, or derived from the field
 * table — `ignore.X` excludes, `X.min`/`X.max` bound (inclusive), `X` matches.
 * Undefined means the engine cannot apply this parameter (a test keeps that empty).
 */
export function handlerFor(name: string): FilterHandler | undefined {
  const special = SPECIAL[name];
  if (special) return special;
  if (name.startsWith('ignore.')) {
    const accessor = FIELDS[name.slice('ignore.'.length)];
    return accessor && accessor.kind !== 'number'
      ? (v) => not(anyOf(accessor, listOf(v)))
      : undefined;
  }
  const m = /^(.*)\.(min|max)$/.exec(name);
  const ranged = m?.[1] === undefined ? undefined : FIELDS[m[1]];
  if (m?.[2] && ranged?.kind === 'number') {
    const op = BOUNDS[m[2]] as Bound;
    const field = m[1] as string;
    return (v, env) => bound(ranged, op, num(v), env.columns, field);
  }
  const accessor = FIELDS[name];
  return accessor ? (v, env) => anyOf(accessor, listOf(v), env.columns, name) : undefined;
}
