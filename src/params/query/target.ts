/**
 * What the query evaluator needs from whoever owns the data (the mock's filter
 * engine). The query module knows the grammar and the field list; it never
 * knows how an article is laid out.
 */

/**
 * One comparison from a `field:…` predicate, already validated against the field's type.
 * Values: `eq` carries text (numbers in canonical decimal form such as `5` or `-0.5`,
 * flags `0`/`1`, dates as written); `gt`/`gte`/`lt`/`lte`/`range` carry numbers on
 * numeric fields and the date text on `published_at` (read it with `dateTest`).
 */
export type Comparison =
  | { op: 'eq'; value: string }
  /** a quoted phrase; `slop` is the proximity after `~` (0 = exact phrase) */
  | { op: 'phrase'; value: string; slop: number }
  | { op: 'gt' | 'gte' | 'lt' | 'lte'; value: number | string }
  /** inclusive `[a TO b]`; `*` stands for an open end */
  | { op: 'range'; from: number | string | undefined; to: number | string | undefined };

export interface QueryTarget<Doc, Entity> {
  /** A predicate for `field:comparison` over a whole document. */
  predicate(field: string, comparison: Comparison): (doc: Doc) => boolean;
  /** The entities of a document, for `{{ … }}` blocks. */
  entities(doc: Doc): readonly Entity[];
  /** A predicate for `entity.*` fields over one entity, inside `{{ … }}` blocks. */
  entityPredicate(field: string, comparison: Comparison): (entity: Entity) => boolean;
}
