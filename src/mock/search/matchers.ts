import type { FieldAccessor } from './fields.js';
import { hasPhrase, tokenize } from './text.js';
import type { Doc, DocEntity, DocFilter } from './types.js';

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
  return valueTokens.length > 0 && hasPhrase(entity.nameTokens, valueTokens, 0);
}

/** Whether the article has an entity of `type` matching any of `names`. */
export function entityNameFilter(type: string, names: readonly string[]): DocFilter {
  const wanted = names.map(tokenize).filter((t) => t.length > 0);
  return (doc) =>
    doc.entities.some((e) => e.type === type && wanted.some((t) => nameMatches(e, t)));
}

/** Any of `values` (case-insensitive) is among the field's values. */
export function anyOf(accessor: FieldAccessor, values: readonly string[]): DocFilter | undefined {
  switch (accessor.kind) {
    case 'keyword': {
      const wanted = new Set(values.map((v) => v.toLowerCase()));
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
      return (doc) => test(doc) === want;
    }
  }
}

/** A numeric bound; articles without a value never match one. */
export function bound(accessor: FieldAccessor, op: Bound, n: number): DocFilter | undefined {
  if (accessor.kind !== 'number') return undefined;
  const read = accessor.value;
  return (doc: Doc) => {
    const v = read(doc);
    return v !== undefined && compareNumber(v, op, n);
  };
}
