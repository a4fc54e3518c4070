import { compileQuery, parseQuery, QueryError } from '../../params/query/index.js';
import { searchParam } from '../../params/registry.js';
import { SEARCH_PARAMS } from '../../params/search-params.js';
import { EXACT_ENTITY_CODES, type ParamDef } from '../../params/types.js';
import { MockHttpError } from '../error-envelope.js';
import type { ArticleTable } from '../store/table.js';
import type { ArticleIndex } from './article-index.js';
import { DAY_MS, dayRange, rangeEnd, rangeStart, TITLE_WINDOW_MS } from './dates.js';
import { ENTITY_NAME_TYPES } from './fields.js';
import { type FilterEnv, handlerFor, isFilterParam, rowOnly } from './filters.js';
import { queryHighlightWords } from './highlight.js';
import { listOf, parseParams, sentDefs, type Value } from './parse-request.js';
import { type IgnoredPart, promptKey, translatePrompt } from './prompt.js';
import { articleQueryTarget } from './query-target.js';
import { highlightWords } from './text.js';
import type { DocFilter, Params, SearchContext } from './types.js';

export interface Warning {
  code: string;
  message: string;
}

export interface PromptMeta {
  text: string;
  applied: Record<string, string>;
  ignored: IgnoredPart[];
  cached: boolean;
}

/** A request read, checked and turned into predicates; what every news endpoint starts from. */
export interface Prepared {
  readonly values: ReadonlyMap<string, Value>;
  /** Every filter as a predicate (streams and webhooks test one row at a time); made on first call. */
  readonly predicates: () => readonly DocFilter[];
  /**
   * The same filters for a scan: those kept as bitmaps (row-sets.ts) and the
   * predicates of the others. The published_at filters are in neither: the
   * bounds below hold them, and every scan and matcher applies the bounds.
   */
  readonly scan: { readonly sets: readonly Uint32Array[]; readonly rest: readonly DocFilter[] };
  /** published_at bounds every match lies in (inclusive), to skip the rest of the date-sorted index. */
  readonly from: number;
  readonly to: number;
  readonly warnings: readonly Warning[];
  readonly prompt: PromptMeta | undefined;
  /** The prompt's wording was parsed for the first time (costs 2 points). */
  readonly promptNew: boolean;
  /** Words the request looks for in titles: for relevance and highlighting. */
  readonly words: readonly string[];
  /** The table the filters read (rows are its rows). */
  readonly table: ArticleTable;
  /** The parameters as the request sent them: page URLs repeat the request (a prompt comes from the cache). */
  readonly params: Params;
}

export interface PrepareOptions {
  /** Parameter table of the endpoint (default: the search table). */
  readonly defs?: readonly ParamDef[];
  /** Parameters read into `values` but left to the endpoint (trends windows its own dates). */
  readonly valuesOnly?: ReadonlySet<string>;
}

const PROMPT_DEF = searchParam('prompt') as ParamDef;
const PROMPT_PLANS = new Set(['Basic', 'Professional', 'Corporate']);

/** A prompt's translations, by wording: repeats are free (spec: "served from cache"). */
export type PromptCache = Map<string, ReturnType<typeof translatePrompt>>;

function applyPrompt(
  params: Params,
  ctx: SearchContext,
  index: ArticleIndex,
  cache: PromptCache,
  defs: readonly ParamDef[],
): { params: Params; meta: PromptMeta | undefined; isNew: boolean } {
  const raw = params['prompt'];
  if (raw === undefined || raw === null) return { params, meta: undefined, isNew: false };
  if (!PROMPT_PLANS.has(ctx.plan)) {
    throw new MockHttpError(
      403,
      'ER0706',
      `The prompt parameter needs the Basic plan or above (this key: ${ctx.plan}).`,
    );
  }
  const checked = parseParams({ prompt: raw }, [PROMPT_DEF]);
  const text = checked.values.get('prompt');
  if (text === undefined) {
    throw new MockHttpError(400, 'ER0800', 'prompt must be 3 to 500 characters long.');
  }
  if (ctx.promptUnavailable === true) {
    // Forced with X-Mock-Scenario: prompt-unavailable; the spec gives ER0801 no status.
    throw new MockHttpError(
      503,
      'ER0801',
      'The prompt translation service is unavailable; retry later or send the filters themselves.',
    );
  }
  const key = promptKey(String(text));
  const cachedTranslation = cache.get(key);
  const translation =
    cachedTranslation ?? translatePrompt(String(text), index.promptVocabulary, ctx.now);
  const accepted = new Set(defs.map((d) => d.name));
  const applied: Record<string, string> = {};
  const ignored: IgnoredPart[] = [...translation.ignored];
  for (const [name, value] of Object.entries(translation.params)) {
    if (params[name] !== undefined) ignored.push({ field: name, value, reason: 'explicit_param' });
    else if (!accepted.has(name))
      ignored.push({ field: name, value, reason: 'unsupported_on_endpoint' });
    else applied[name] = value;
  }
  if (Object.keys(translation.params).length === 0) {
    throw new MockHttpError(400, 'ER0802', `Nothing usable in the prompt "${String(text)}".`);
  }
  if (cachedTranslation === undefined) cache.set(key, translation);
  return {
    params: { ...applied, ...params },
    meta: { text: String(text), applied, ignored, cached: cachedTranslation !== undefined },
    isNew: cachedTranslation === undefined,
  };
}

/** ER0293 and the exact-entity codes: the coded errors among the filters. */
function checkCodedRules(
  values: ReadonlyMap<string, Value>,
  index: ArticleIndex,
  defs: readonly ParamDef[],
): void {
  // ER0293 for entity.sentiment.polarity only (specification); the score
  // bounds alone apply to any entity of the article (openapi), as filters.ts does.
  const selected = defs.some((d) => d.entitySelector && values.has(d.name));
  if (values.has('entity.sentiment.polarity') && !selected) {
    throw new MockHttpError(
      400,
      'ER0293',
      'entity.sentiment.polarity needs an entity selector: entity.id or a *.name filter such as organization.name.',
    );
  }
  for (const def of defs) {
    if (def.exactEntity === undefined) continue;
    const type = ENTITY_NAME_TYPES[def.exactEntity] as string;
    for (const name of listOf(values.get(def.name))) {
      if (!index.knowsEntity(type, name)) {
        throw new MockHttpError(
          400,
          EXACT_ENTITY_CODES[def.exactEntity],
          `${def.name}: "${name}" does not match a known ${def.exactEntity} entity exactly; look the spelling up with /v1/suggest/entities.`,
        );
      }
    }
  }
}

/**
 * The 31-day title window. Title filters and `query` without a range search the
 * last 31 days (with warning ER0366); a range wider than 31 days is ER0110 (400:
 * the specification gives no status; it is a request the caller must change). A
 * start alone runs to now; an end alone reaches 31 days back.
 */
function titleWindow(
  values: ReadonlyMap<string, Value>,
  defs: readonly ParamDef[],
  now: number,
): { from: number; to: number; warning?: Warning } | undefined {
  const titled = defs.find((d) => d.titleWindow && values.has(d.name));
  if (titled === undefined || values.has('published_at')) return undefined;
  const start = values.get('published_at.start');
  const end = values.get('published_at.end');
  const from = start === undefined ? undefined : rangeStart(String(start));
  const to = end === undefined ? undefined : rangeEnd(String(end));
  if (from !== undefined) {
    const width = (to ?? now) - from;
    if (width > TITLE_WINDOW_MS) {
      throw new MockHttpError(
        400,
        'ER0110',
        `${titled.name} searches at most 31 days, but the published_at range spans ${Math.ceil(width / DAY_MS)} days.`,
      );
    }
    return undefined;
  }
  const windowEnd = to ?? now;
  return {
    from: windowEnd - TITLE_WINDOW_MS,
    to: windowEnd,
    warning: {
      code: 'ER0366',
      message: `${titled.name} searches the 31 days before ${new Date(windowEnd).toISOString()}; give published_at.start and published_at.end to choose them.`,
    },
  };
}

function queryCompiler(env: Omit<FilterEnv, 'compileQuery'>): (text: string) => DocFilter {
  return (text) => {
    try {
      return compileQuery(
        parseQuery(text),
        articleQueryTarget({ ...env, compileQuery: () => () => true }),
      );
    } catch (error) {
      if (error instanceof QueryError) {
        throw new MockHttpError(
          400,
          error.code,
          `query: ${error.detail} at position ${error.position}.`,
        );
      }
      throw error;
    }
  };
}

function dateBounds(values: ReadonlyMap<string, Value>): { from: number; to: number } {
  let from = -Infinity;
  let to = Infinity;
  const day = values.get('published_at');
  if (day !== undefined) ({ from, to } = dayRange(String(day)));
  const start = values.get('published_at.start');
  if (start !== undefined) from = Math.max(from, rangeStart(String(start)));
  const end = values.get('published_at.end');
  if (end !== undefined) to = Math.min(to, rangeEnd(String(end)));
  return { from, to };
}

function searchedWords(values: ReadonlyMap<string, Value>): string[] {
  const words: string[] = [];
  for (const name of ['title', 'title_starts_with', 'title_ends_with']) {
    const v = values.get(name);
    if (v !== undefined) words.push(...highlightWords(String(v)));
  }
  const q = values.get('query');
  if (q !== undefined) words.push(...queryHighlightWords(String(q)));
  return [...new Set(words)];
}

/** Filters the date bounds of `Prepared` stand for (dateBounds reads the same values). */
const DATE_FILTERS = new Set(['published_at', 'published_at.start', 'published_at.end']);

export function prepare(
  rawParams: Params,
  ctx: SearchContext,
  index: ArticleIndex,
  cache: PromptCache,
  options: PrepareOptions = {},
): Prepared {
  const defs = options.defs ?? SEARCH_PARAMS;
  const prompted = applyPrompt(rawParams, ctx, index, cache, defs);
  const { values } = parseParams(prompted.params, defs);
  checkCodedRules(values, index, defs);
  const now = ctx.now.getTime();
  const window = titleWindow(values, defs, now);
  const base = { values, index };
  const env: FilterEnv = { ...base, compileQuery: queryCompiler(base) };
  const skip = options.valuesOnly ?? new Set<string>();
  const filtering = new Map([...values].filter(([name]) => !skip.has(name)));
  let { from, to } = dateBounds(filtering);
  if (window) {
    from = Math.max(from, window.from);
    to = Math.min(to, window.to);
  }
  const sets: Uint32Array[] = [];
  const rest: DocFilter[] = [];
  // Predicates of the filters a bitmap stands for: made only if a matcher asks.
  const deferred: (() => DocFilter | undefined)[] = [];
  for (const def of sentDefs(Object.fromEntries(filtering), defs)) {
    const value = filtering.get(def.name);
    if (value === undefined || !isFilterParam(def) || DATE_FILTERS.has(def.name)) continue;
    const handler = handlerFor(def.name);
    if (handler === undefined) continue;
    const make = (): DocFilter | undefined => handler(value, env);
    const bits = rowOnly(def.name)
      ? index.rowSets.bitsOf(`${def.name}\u0000${value}`, make)
      : undefined;
    if (bits !== undefined) {
      sets.push(bits);
      deferred.push(make);
      continue;
    }
    const filter = make();
    if (filter) rest.push(filter);
  }
  let filters: readonly DocFilter[] | undefined;
  return {
    values,
    predicates: () => {
      filters ??= [...rest, ...deferred.map((make) => make()).filter((f) => f !== undefined)];
      return filters;
    },
    scan: { sets, rest },
    from,
    to,
    warnings: window?.warning ? [window.warning] : [],
    prompt: prompted.meta,
    promptNew: prompted.isNew,
    words: searchedWords(values),
    params: rawParams,
    table: index.table,
  };
}
