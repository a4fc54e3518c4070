import type { ArticleIndex, EntityNames } from './article-index.js';
import type { FieldAccessor } from './fields.js';
import { hasPhrase, tokenize } from './text.js';
import type { DocFilter } from './types.js';

/**
 * Predicates built from a field accessor and a value, shared by the flat filters
 * and the query language so both read a field the same way. Each reads the
 * engine's column of the field (columns.ts), by row.
 */

const EPSILON = 1e-9;

export type Bound = 'eq' | 'gt' | 'gte' | 'lt' | 'lte';

export function compareNumber(actual: number, op: Bound, expected: number): boolean {
  switch (op) {
    case 'eq':
      return Math.abs(actual - expected) < EPSILON;
    case 'gt':
      return actual > expected;
    case 'gte':
      return actual >= expected - EPSILON;
    case 'lt':
      return actual < expected;
    case 'lte':
      return actual <= expected + EPSILON;
  }
}

/** A name value matches an entity whose name equals it or holds its words as a phrase ("Musk" in "Elon Musk"). */
export function nameMatches(entity: EntityNames, valueTokens: readonly string[]): boolean {
  return (
    valueTokens.length > 0 &&
    (hasPhrase(entity.nameTokens, valueTokens, 0) ||
      entity.aliasTokens.some((alias) => hasPhrase(alias, valueTokens, 0)))
  );
}

/**
 * Whether an entity of `actual` type answers a name filter for `wanted`. The
 * specification calls companies "organizations and brands" and the document's
 * example is `organization.name: "Google"`, a brand in the fixtures: so
 * `organization.name` also matches brands (`brand.name` stays brands only).
 */
export function entityTypeMatches(wanted: string, actual: string): boolean {
  return wanted === actual || (wanted === 'organization' && actual === 'brand');
}

/**
 * The entities of the table's dictionary for which `test` holds, as one flag
 * per dictionary code: a filter then checks each mention's code, never a name.
 */
export function entityCodes(index: ArticleIndex, test: (code: number) => boolean): Uint8Array {
  const size = index.table.dict.entities.size;
  const out = new Uint8Array(size);
  for (let code = 0; code < size; code++) if (test(code)) out[code] = 1;
  return out;
}

/** Some mention of the row has a code `codes` marks (and passes `also`, given the mention). */
export function mentions(
  index: ArticleIndex,
  codes: Uint8Array,
  also?: (mention: number) => boolean,
): DocFilter {
  const t = index.table;
  const start = t.entities.start.data;
  const code = t.entityCode.data;
  return (row) => {
    for (let i = start[row] as number; i < (start[row + 1] as number); i++) {
      if (codes[code[i] as number] === 1 && (also === undefined || also(i))) return true;
    }
    return false;
  };
}

/** Whether the article has an entity of `type` matching any of `names`. */
export function entityNameFilter(
  index: ArticleIndex,
  type: string,
  names: readonly string[],
): DocFilter {
  const wanted = names.map(tokenize).filter((t) => t.length > 0);
  const entities = index.table.dict.entities.values;
  const codes = entityCodes(
    index,
    (code) =>
      entityTypeMatches(type, entities[code]!.type) &&
      wanted.some((w) => nameMatches(index.namesOf(code), w)),
  );
  return mentions(index, codes);
}

/** Any of `values` (case-insensitive) is among the field's values. */
export function anyOf(
  index: ArticleIndex,
  accessor: FieldAccessor,
  values: readonly string[],
  field: string,
): DocFilter | undefined {
  const columns = index.columns;
  switch (accessor.kind) {
    case 'keyword': {
      const wanted = new Set(values.map((v) => v.toLowerCase()));
      const col = columns.keyword(field);
      if (col !== undefined) {
        const codes = new Set([...wanted].map((v) => col.dict.get(v) ?? -1));
        const a = col.codes;
        const single = codes.size === 1 ? [...codes][0] : undefined;
        return single !== undefined
          ? (row) => a[row] === single
          : (row) => codes.has(a[row] as number);
      }
      const inverted = columns.postings(field);
      if (inverted === undefined) return undefined;
      // One bit per article, set from the values' postings: the scan then reads a byte.
      const bits = new Uint8Array(inverted.size);
      for (const v of wanted) {
        const list = inverted.rows.get(v);
        if (list !== undefined) for (let i = 0; i < list.length; i++) bits[list[i] as number] = 1;
      }
      return (row) => bits[row] === 1;
    }
    case 'entity-name':
      return entityNameFilter(index, accessor.type, values);
    case 'number': {
      const nums = values.map(Number).filter(Number.isFinite);
      const col = columns.number(field) as Float64Array;
      // NaN (no value) equals nothing.
      return (row) => nums.some((n) => compareNumber(col[row] as number, 'eq', n));
    }
    case 'flag': {
      const bit = values[0] === '1' || values[0] === 'true' ? 1 : 0;
      const col = columns.flag(field) as Uint8Array;
      return (row) => col[row] === bit;
    }
  }
}

/** A numeric bound; articles without a value (NaN) never match one. */
export function bound(
  index: ArticleIndex,
  accessor: FieldAccessor,
  op: Bound,
  n: number,
  field: string,
): DocFilter | undefined {
  if (accessor.kind !== 'number') return undefined;
  const col = index.columns.number(field) as Float64Array;
  switch (op) {
    case 'gte': {
      const limit = n - EPSILON;
      return (row) => (col[row] as number) >= limit;
    }
    case 'lte': {
      const limit = n + EPSILON;
      return (row) => (col[row] as number) <= limit;
    }
    default:
      return (row) => compareNumber(col[row] as number, op, n);
  }
}
