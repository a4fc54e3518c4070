import type { ParamDef, ParamGroup } from '../../params/types.js';
import type { ArticleIndex } from './article-index.js';
import { dayRange, rangeEnd, rangeStart } from './dates.js';
import { ENTITY_NAME_TYPES, FIELDS } from './fields.js';
import { haversineKm, inBBox, parseBBox } from './geo.js';
import {
  anyOf,
  type Bound,
  bound,
  compareNumber,
  entityCodes,
  entityTypeMatches,
  mentions,
  nameMatches,
} from './matchers.js';
import { listOf, type Value } from './parse-request.js';
import { authorOf, geoPoint, polarity } from './row.js';
import { compilePattern, hasPhraseIn, parseTitleTerms, tokenize } from './text.js';
import type { DocFilter } from './types.js';

/** What a filter may read besides its own value. */
export interface FilterEnv {
  /** Every applied parameter of the request (after prompt translation). */
  readonly values: ReadonlyMap<string, Value>;
  /** The store's table, the engine's columns and lookups. */
  readonly index: ArticleIndex;
  /** The compiled `query` (the engine parses it, so errors carry the request's context). */
  readonly compileQuery: (text: string) => DocFilter;
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
  f === undefined ? undefined : (row) => !f(row);

const num = (v: Value): number => (typeof v === 'number' ? v : Number(v));

function titleTerms(value: Value, env: FilterEnv): DocFilter | undefined {
  const terms = parseTitleTerms(String(value));
  if (terms.length === 0) return undefined;
  const t = env.index.table;
  // A word no title has: nothing can match (-2 is never an id).
  const id = (w: string) => t.dict.words.find(w) ?? -2;
  const phrases = terms.map((term) =>
    term.kind === 'word'
      ? { words: [id(term.word)], slop: 0 }
      : { words: term.words.map(id), slop: term.slop },
  );
  const offsets = t.titleWords.start.data;
  const ids = t.titleWord.data;
  return (row) => {
    const from = offsets[row] as number;
    const to = offsets[row + 1] as number;
    for (const p of phrases) if (!hasPhraseIn(ids, from, to, p.words, p.slop)) return false;
    return true;
  };
}

/** Distance to the article's geo point (its first mentioned place with coordinates). */
function distanceFrom(env: FilterEnv): ((row: number) => number | undefined) | undefined {
  const lat = env.values.get('location.lat');
  const lng = env.values.get('location.lng');
  if (lat === undefined || lng === undefined) return undefined;
  const t = env.index.table;
  return (row) => {
    const p = geoPoint(t, row);
    return p === undefined ? undefined : haversineKm(num(lat), num(lng), p.lat, p.lng);
  };
}

/** Entity selectors of the request (entity.id and the `*.name` filters), as dictionary codes. */
function entitySelector(env: FilterEnv): Uint8Array | undefined {
  const ids = new Set(listOf(env.values.get('entity.id')));
  const names: { type: string; tokens: string[] }[] = [];
  for (const [kind, type] of Object.entries(ENTITY_NAME_TYPES)) {
    for (const name of listOf(env.values.get(`${kind}.name`)))
      names.push({ type, tokens: tokenize(name) });
  }
  if (ids.size === 0 && names.length === 0) return undefined;
  const { index } = env;
  const entities = index.table.dict.entities.values;
  return entityCodes(index, (code) => {
    const e = entities[code]!;
    return (
      ids.has(String(e.id)) ||
      names.some(
        (n) => entityTypeMatches(n.type, e.type) && nameMatches(index.namesOf(code), n.tokens),
      )
    );
  });
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
    const t = env.index.table;
    const selected = entitySelector(env) ?? new Uint8Array(t.dict.entities.size).fill(1);
    const wanted = env.values.get('entity.sentiment.polarity');
    const min = env.values.get('entity.sentiment.score.min');
    const max = env.values.get('entity.sentiment.score.max');
    const scores = t.entityScore.data;
    const polarities = t.entityPolarity.data;
    return mentions(
      env.index,
      selected,
      (i) =>
        (wanted === undefined || polarity(polarities[i] as number) === wanted) &&
        (min === undefined || compareNumber(scores[i] as number, 'gte', num(min))) &&
        (max === undefined || compareNumber(scores[i] as number, 'lte', num(max))),
    );
  };
}

/** Resolves names to the first author record each; a name without a record matches nothing. */
export function authorNameFilter(
  names: readonly string[],
  env: Pick<FilterEnv, 'index'>,
): DocFilter {
  const ids = new Set<number>();
  for (const n of names) {
    const id = env.index.firstAuthorId(n.toLowerCase());
    if (id !== undefined) ids.add(id);
  }
  const t = env.index.table;
  return (row) => {
    const id = authorOf(t, row).id;
    return id !== null && ids.has(id);
  };
}

/** Parameters whose meaning is more than "field equals / within bounds". */
const SPECIAL: Readonly<Record<string, FilterHandler>> = {
  query: (v, env) => env.compileQuery(String(v)),
  title: titleTerms,
  'ignore.title': (v, env) => not(titleTerms(v, env)),
  title_starts_with: (v, env) => {
    const prefix = String(v).toLowerCase();
    const titles = env.index.columns.lowerTitles();
    return (row) => (titles[row] as string).startsWith(prefix);
  },
  title_ends_with: (v, env) => {
    const suffix = String(v).toLowerCase();
    const titles = env.index.columns.lowerTitles();
    return (row) => (titles[row] as string).endsWith(suffix);
  },
  title_pattern: (v, env) => {
    const test = compilePattern(String(v));
    const titles = env.index.table.titles;
    return (row) => test(titles[row] as string);
  },
  published_at: (v, env) => {
    const { from, to } = dayRange(String(v));
    const times = env.index.table.published.data;
    return (row) => (times[row] as number) >= from && (times[row] as number) <= to;
  },
  'published_at.start': (v, env) => {
    const from = rangeStart(String(v));
    const times = env.index.table.published.data;
    return (row) => (times[row] as number) >= from;
  },
  'published_at.end': (v, env) => {
    const to = rangeEnd(String(v));
    const times = env.index.table.published.data;
    return (row) => (times[row] as number) <= to;
  },
  'author.name': (v, env) => authorNameFilter(listOf(v), env),
  'entity.sentiment.polarity': entitySentiment('entity.sentiment.polarity'),
  'entity.sentiment.score.min': entitySentiment('entity.sentiment.score.min'),
  'entity.sentiment.score.max': entitySentiment('entity.sentiment.score.max'),
  'location.bbox': (v, env) => {
    const box = parseBBox(String(v));
    if (box === undefined) return undefined;
    const t = env.index.table;
    return (row) => {
      const p = geoPoint(t, row);
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
    return (row) => {
      const d = distance(row);
      return d !== undefined && d <= radius;
    };
  },
  'location.radius.min': (v, env) => {
    const distance = distanceFrom(env);
    if (distance === undefined) return undefined;
    const min = num(v);
    return (row) => {
      const d = distance(row);
      return d !== undefined && d >= min;
    };
  },
};

/** Special filters whose predicate reads the row and their own value only (the title's words or text). */
const ROW_ONLY_SPECIAL = new Set([
  'title',
  'ignore.title',
  'title_starts_with',
  'title_ends_with',
  'title_pattern',
]);

/**
 * Whether the predicate of parameter `name` depends on nothing but the row
 * and the parameter's own value (not on other parameters, the clock or
 * lookups that change as articles come): the field-table filters and the
 * title ones. Such a predicate may be kept as a bitmap (row-sets.ts).
 */
export function rowOnly(name: string): boolean {
  if (ROW_ONLY_SPECIAL.has(name)) return true;
  return SPECIAL[name] === undefined && handlerFor(name) !== undefined;
}

const BOUNDS: Readonly<Record<string, Bound>> = { min: 'gte', max: 'lte' };

/**
 * The handler of a filter parameter: a special rule, or derived from the field
 * table — `ignore.X` excludes, `X.min`/`X.max` bound (inclusive), `X` matches.
 * Undefined means the engine cannot apply this parameter (a test keeps that empty).
 */
export function handlerFor(name: string): FilterHandler | undefined {
  if (!handlers.has(name)) handlers.set(name, makeHandler(name));
  return handlers.get(name);
}

/** handlerFor's answers, by parameter name (a request asks again for the same few). */
const handlers = new Map<string, FilterHandler | undefined>();

function makeHandler(name: string): FilterHandler | undefined {
  const special = SPECIAL[name];
  if (special) return special;
  if (name.startsWith('ignore.')) {
    const accessor = FIELDS[name.slice('ignore.'.length)];
    const field = name.slice('ignore.'.length);
    return accessor && accessor.kind !== 'number'
      ? (v, env) => not(anyOf(env.index, accessor, listOf(v), field))
      : undefined;
  }
  const m = /^(.*)\.(min|max)$/.exec(name);
  const ranged = m?.[1] === undefined ? undefined : FIELDS[m[1]];
  if (m?.[2] && ranged?.kind === 'number') {
    const op = BOUNDS[m[2]] as Bound;
    const field = m[1] as string;
    return (v, env) => bound(env.index, ranged, op, num(v), field);
  }
  const accessor = FIELDS[name];
  return accessor ? (v, env) => anyOf(env.index, accessor, listOf(v), name) : undefined;
}
