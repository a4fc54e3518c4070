import type { Comparison, QueryTarget } from '../../params/query/target.js';
import { dayRange, rangeEnd, rangeStart } from './dates.js';
import { FIELDS, type FieldAccessor } from './fields.js';
import { authorNameFilter, type FilterEnv, handlerFor } from './filters.js';
import { anyOf, type Bound, compareNumber, nameMatches } from './matchers.js';
import { polarity } from './row.js';
import { hasPhraseIn, tokenize } from './text.js';
import type { DocFilter } from './types.js';

/** What the query language calls a predicate: one argument, the article's row. */
type DocTest = DocFilter;
/** An entity of a `{{ … }}` block: one mention, by its index in the table's mention columns. */
type Mention = number;

const NEVER = (): boolean => false;

/** `title.starts_with` in the query is the flat `title_starts_with`. */
const FLAT_NAME: Readonly<Record<string, string>> = {
  'title.starts_with': 'title_starts_with',
  'title.ends_with': 'title_ends_with',
  'title.pattern': 'title_pattern',
};

/** NaN (no value) passes no comparison. */
function numeric(read: (x: number) => boolean, column: Float64Array): DocTest {
  return (row) => {
    const v = column[row] as number;
    return !Number.isNaN(v) && read(v);
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
  const t = env.index.table;
  const wordIds = words.map((w) => t.dict.words.find(w) ?? -2);
  const parts = slop === undefined ? wordIds.map((id) => [id]) : [wordIds];
  const offsets = t.titleWords.start.data;
  const ids = t.titleWord.data;
  return (row) => {
    const from = offsets[row] as number;
    const to = offsets[row + 1] as number;
    for (const p of parts) if (!hasPhraseIn(ids, from, to, p, slop ?? 0)) return false;
    return true;
  };
}

function fieldPredicate(
  env: FilterEnv,
  field: string,
  accessor: FieldAccessor,
  c: Comparison,
): DocFilter {
  if (accessor.kind === 'number')
    return numeric(numberTest(c, asNumber), env.index.columns.number(field) as Float64Array);
  if (c.op !== 'eq' && c.op !== 'phrase') return NEVER;
  return anyOf(env.index, accessor, [c.value], field) ?? NEVER;
}

function entityField(env: FilterEnv, field: string, c: Comparison): (m: Mention) => boolean {
  const text = c.op === 'eq' || c.op === 'phrase' ? c.value : undefined;
  const { index } = env;
  const t = index.table;
  const entity = (m: Mention) => t.dict.entities.values[t.entityCode.data[m] as number]!;
  switch (field) {
    case 'entity.id':
      return (m) => String(entity(m).id) === text;
    case 'entity.name': {
      const tokens = tokenize(text ?? '');
      return (m) => nameMatches(index.namesOf(t.entityCode.data[m] as number), tokens);
    }
    case 'entity.type':
      return (m) => entity(m).type === text?.toLowerCase();
    case 'entity.sentiment.polarity':
      return (m) => polarity(t.entityPolarity.data[m] as number) === text?.toLowerCase();
    case 'entity.sentiment.score': {
      const test = numberTest(c, asNumber);
      return (m) => test(t.entityScore.data[m] as number);
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
export function articleQueryTarget(env: FilterEnv): QueryTarget<number, Mention> {
  const t = env.index.table;
  return {
    predicate(field, c): DocTest {
      if (field === 'title') return titleWords(c, env);
      const times = t.published.data;
      if (field === 'published_at') {
        if (c.op === 'eq' || c.op === 'phrase') {
          const { from, to } = dayRange(c.value);
          return (row) => (times[row] as number) >= from && (times[row] as number) <= to;
        }
        const test = numberTest(c, asDate);
        return (row) => test(times[row] as number);
      }
      if (field === 'author.name')
        return c.op === 'eq' || c.op === 'phrase' ? authorNameFilter([c.value], env) : NEVER;
      const flat = FLAT_NAME[field];
      if (flat !== undefined) {
        const value = c.op === 'eq' || c.op === 'phrase' ? c.value : undefined;
        return (value === undefined ? undefined : handlerFor(flat)?.(value, env)) ?? NEVER;
      }
      const accessor = FIELDS[field];
      if (accessor === undefined) return NEVER;
      return fieldPredicate(env, field, accessor, c);
    },
    entities: (row) => {
      const out: Mention[] = [];
      for (let i = t.entities.from(row); i < t.entities.to(row); i++) out.push(i);
      return out;
    },
    entityPredicate: (field, c) => entityField(env, field, c),
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
