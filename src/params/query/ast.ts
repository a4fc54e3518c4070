import type { Comparison } from './target.js';

/**
 * The parsed query. Positions are not kept in the tree, so printing a tree and
 * parsing the result gives an equal tree.
 */
export type QueryNode =
  | { readonly kind: 'and'; readonly children: readonly QueryNode[] }
  | { readonly kind: 'or'; readonly children: readonly QueryNode[] }
  | { readonly kind: 'not'; readonly child: QueryNode }
  /** `field:value`; a bare term or phrase is a predicate on `title`. */
  | { readonly kind: 'predicate'; readonly field: string; readonly comparison: Comparison }
  /** `field:(a OR b)` / `field:(a AND b)`: two or more values of one field. */
  | {
      readonly kind: 'group';
      readonly field: string;
      readonly op: 'and' | 'or';
      readonly values: readonly Comparison[];
    }
  /** `{{ … }}`: every condition inside holds for one and the same entity of the article. */
  | { readonly kind: 'entity'; readonly child: QueryNode };

/** The limits of the specification ("Limits": query). */
export const QUERY_LIMITS = {
  /** Characters (Unicode code points) of the query text. */
  maxLength: 4000,
  /** `field:value` predicates, bare terms and group values, counted together. */
  maxPredicates: 64,
  /** Nested `( … )`, `field:( … )` and `{{ … }}`. */
  maxDepth: 10,
  /** Values in one `field:( … )` group. */
  maxGroupValues: 20,
} as const;
