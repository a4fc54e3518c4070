import type { Columns } from './columns.js';
import type { FieldAccessor } from './fields.js';
import { hasPhrase, tokenize } from './text.js';
import type { DocEntity, DocFilter } from './types.js';

/**
 * Predicates built from a field accessor and a value, shared by the flat filters
 * and the query language so both read a field the same way.
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
export function nameMatches(entity: DocEntity, valueTokens: readonly string[]): boolean {
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

/** Whether the article has an entity of `type` matching any of `names`. */
export function entityNameFilter(type: string, names: readonly string[]): DocFilter {
  const wanted = names.map(tokenize).filter((t) => t.length > 0);
  return (doc) =>
    doc.entities.some(
      (e) => entityTypeMatches(type, e.type) && wanted.some((t) => nameMatches(e, t)),
    );
}

/**
 * Any of `values` (case-insensitive) is among the field's values. With the
 * index's columns (and a field that has one), the test reads the column at the
 * article's position instead of the article.
 */
export function anyOf(
  accessor: FieldAccessor,
  values: readonly string[],
  columns?: Columns,
  field?: string,
): DocFilter | undefined {
  switch (accessor.kind) {
    case 'keyword': {
      const wanted = new Set(values.map((v) => v.toLowerCase()));
      const col = field === undefined ? undefined : columns?.keyword(field);
      if (col !== undefined) {
        const codes = new Set([...wanted].map((v) => col.dict.get(v) ?? -1));
        const a = col.codes;
        const single = codes.size === 1 ? [...codes][0] : undefined;
        const slow: DocFilter | undefined = anyOf(accessor, values);
        return single !== undefined
          ? (doc, ix) => (ix < 0 ? (slow as DocFilter)(doc, ix) : a[ix] === single)
          : (doc, ix) => (ix < 0 ? (slow as DocFilter)(doc, ix) : codes.has(a[ix] as number));
      }
      const inverted = field === undefined ? undefined : columns?.postings(field);
      if (inverted !== undefined) {
        // One bit per article, set from the values' postings: the scan then reads a byte.
        const bits = new Uint8Array(inverted.size);
        for (const v of wanted) {
          const list = inverted.positions.get(v);
          if (list !== undefined) for (let i = 0; i < list.length; i++) bits[list[i] as number] = 1;
        }
        const slow = anyOf(accessor, values) as DocFilter;
        return (doc, ix) => (ix < 0 ? slow(doc, ix) : bits[ix] === 1);
      }
      const read = accessor.values;
      return (doc) => {
        const have = read(doc);
        for (let i = 0; i < have.length; i++) if (wanted.has(have[i] as string)) return true;
        return false;
      };
    }
    case 'entity-name':
      return entityNameFilter(accessor.type, values);
    case 'number': {
      const nums = values.map(Number).filter(Number.isFinite);
      const read = accessor.value;
      return (doc) => {
        const v = read(doc);
        return v !== undefined && nums.some((n) => compareNumber(v, 'eq', n));
      };
    }
    case 'flag': {
      const want = values[0] === '1' || values[0] === 'true';
      const test = accessor.test;
      const col = field === undefined ? undefined : columns?.flag(field);
      if (col !== undefined) {
        const bit = want ? 1 : 0;
        return (doc, ix) => (ix < 0 ? test(doc) === want : col[ix] === bit);
      }
      return (doc) => test(doc) === want;
    }
  }
}

/** A numeric bound; articles without a value never match one. */
export function bound(
  accessor: FieldAccessor,
  op: Bound,
  n: number,
  columns?: Columns,
  field?: string,
): DocFilter | undefined {
  if (accessor.kind !== 'number') return undefined;
  const read = accessor.value;
  const slow: DocFilter = (doc) => {
    const v = read(doc);
    return v !== undefined && compareNumber(v, op, n);
  };
  const col = field === undefined ? undefined : columns?.number(field);
  if (col === undefined) return slow;
  // NaN (no value) fails every comparison, as undefined does above.
  switch (op) {
    case 'gte': {
      const limit = n - EPSILON;
      return (doc, ix) => (ix < 0 ? slow(doc, ix) : (col[ix] as number) >= limit);
    }
    case 'lte': {
      const limit = n + EPSILON;
      return (doc, ix) => (ix < 0 ? slow(doc, ix) : (col[ix] as number) <= limit);
    }
    default:
      return (doc, ix) => (ix < 0 ? slow(doc, ix) : compareNumber(col[ix] as number, op, n));
  }
}
