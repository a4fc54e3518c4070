import type { Comparison, QueryTarget } from '../../params/query/target.js';
import { dayRange, rangeEnd, rangeStart } from './dates.js';
import { FIELDS, type FieldAccessor } from './fields.js';
import { authorNameFilter, type FilterEnv, handlerFor } from './filters.js';
import { anyOf, type Bound, compareNumber, nameMatches } from './matchers.js';
import { hasPhrase, hasPhraseIn, tokenize } from './text.js';
import type { Doc, DocEntity, DocFilter } from './types.js';

/** What the query language calls a predicate: one argument, the article. */
type DocTest = (doc: Doc) => boolean;

const NEVER = (): boolean => false;

/** `title.starts_with` in the query is the flat `title_starts_with`. */
const FLAT_NAME: Readonly<Record<string, string>> = {
  'title.starts_with': 'title_starts_with',
  'title.ends_with': 'title_ends_with',
  'title.pattern': 'title_pattern',
};

function numeric(read: (x: number) => boolean, value: (doc: Doc) => number | undefined): DocTest {
  return (doc) => {
    const v = value(doc);
    return v !== undefined && read(v);
  };
}

/** A comparison over one number; strings (dates) are converted by `toNumber`. */
function numberTest(
  c: Comparison,
  toNumber: (v: number | string, end: boolean) => number,
): (x: number) => boolean {
  switch (c.op) {
    case 'eq':
    case 'phrase':
      return (x) => compareNumber(x, 'eq', toNumber(c.value, false));
    case 'range': {
      const from = c.from === undefined ? -Infinity : toNumber(c.from, false);
      const to = c.to === undefined ? Infinity : toNumber(c.to, true);
      return (x) => compareNumber(x, 'gte', from) && compareNumber(x, 'lte', to);
    }
    default: {
      // `>` a day means after the whole day; `>=` it means from its first instant.
      const end = c.op === 'gt' || c.op === 'lte';
      const n = toNumber(c.value, end);
      const op: Bound = c.op;
      return (x) => compareNumber(x, op, n);
    }
  }
}

const asNumber = (v: number | string): number => Number(v);
const asDate = (v: number | string, end: boolean): number =>
  end ? rangeEnd(String(v)) : rangeStart(String(v));

function titleWords(c: Comparison, env: FilterEnv): DocTest {
  const words = tokenize(c.op === 'eq' || c.op === 'phrase' ? c.value : '');
  if (words.length === 0) return NEVER;
  // A bare term (or quoted text on a field without phrases) needs every word; a phrase needs them in order.
  const slop = c.op === 'phrase' ? c.slop : undefined;
  const slow: DocTest =
    slop === undefined
      ? (doc) => words.every((w) => doc.titleTokens.includes(w))
      : (doc) => hasPhrase(doc.titleTokens, words, slop);
  if (env.columns === undefined) return slow;
  const { dict, offsets, ids } = env.columns.titles();
  const wordIds = words.map((w) => dict.get(w) ?? -2);
  const parts = slop === undefined ? wordIds.map((id) => [id]) : [wordIds];
  return (doc) => {
    if (doc.ix < 0) return slow(doc);
    const from = offsets[doc.ix] as number;
    const to = offsets[doc.ix + 1] as number;
    for (const p of parts) if (!hasPhraseIn(ids, from, to, p, slop ?? 0)) return false;
    return true;
  };
}

function fieldPredicate(accessor: FieldAccessor, c: Comparison): DocFilter {
  if (accessor.kind === 'number') return numeric(numberTest(c, asNumber), accessor.value);
  if (c.op !== 'eq' && c.op !== 'phrase') return NEVER;
  return anyOf(accessor, [c.value]) ?? NEVER;
}

function entityField(field: string, c: Comparison): (e: DocEntity) => boolean {
  const text = c.op === 'eq' || c.op === 'phrase' ? c.value : undefined;
  switch (field) {
    case 'entity.id':
      return (e) => String(e.id) === text;
    case 'entity.name': {
      const tokens = tokenize(text ?? '');
      return (e) => nameMatches(e, tokens);
    }
    case 'entity.type':
      return (e) => e.type === text?.toLowerCase();
    case 'entity.sentiment.polarity':
      return (e) => e.polarity === text?.toLowerCase();
    case 'entity.sentiment.score': {
      const test = numberTest(c, asNumber);
      return (e) => test(e.score);
    }
    default:
      return NEVER;
  }
}

/**
 * The query language over indexed articles. Every field goes through the same
 * field table and flat-filter handlers as the parameters, so `query=read_time:>5`
 * and `read_time.min=6` select the same articles.
 */
export function articleQueryTarget(env: FilterEnv): QueryTarget<Doc, DocEntity> {
  return {
    predicate(field, c): DocTest {
      if (field === 'title') return titleWords(c, env);
      if (field === 'published_at') {
        if (c.op === 'eq' || c.op === 'phrase') {
          const { from, to } = dayRange(c.value);
          return (doc) => doc.publishedAt >= from && doc.publishedAt <= to;
        }
        const test = numberTest(c, asDate);
        return (doc) => test(doc.publishedAt);
      }
      if (field === 'author.name')
        return c.op === 'eq' || c.op === 'phrase' ? authorNameFilter([c.value], env) : NEVER;
      const flat = FLAT_NAME[field];
      if (flat !== undefined) {
        const value = c.op === 'eq' || c.op === 'phrase' ? c.value : undefined;
        const f = value === undefined ? undefined : handlerFor(flat)?.(value, env);
        // Not indexed as far as the query knows: -1 takes the object path of the handler.
        return f === undefined ? NEVER : (doc) => f(doc, -1);
      }
      const accessor = FIELDS[field];
      if (accessor === undefined) return NEVER;
      const f = fieldPredicate(accessor, c);
      return (doc) => f(doc, -1);
    },
    entities: (doc) => doc.entities,
    entityPredicate: entityField,
  };
}

/** Fields this target answers; a test compares it with the query language's field list. */
export function targetKnowsField(field: string, inEntityBlock: boolean): boolean {
  if (inEntityBlock)
    return [
      'entity.id',
      'entity.name',
      'entity.type',
      'entity.sentiment.polarity',
      'entity.sentiment.score',
    ].includes(field);
  return (
    field === 'title' ||
    field === 'published_at' ||
    field === 'author.name' ||
    field in FLAT_NAME ||
    field in FIELDS
  );
}
