import type { Grow } from '../store/grow.js';
import { f64, i32, u8 } from '../store/grow.js';
import type { ArticleTable } from '../store/table.js';
import { FIELDS } from './fields.js';

/** A single-valued keyword field as codes: `codes[row]` indexes `dict`'s values. */
export interface KeywordColumn {
  readonly codes: Int32Array;
  readonly dict: ReadonlyMap<string, number>;
}

/**
 * A many-valued keyword field inverted: `rows.get(value)` lists, ascending,
 * the rows of the articles that have the value (`category.id`, `entity.id`…).
 */
export interface PostingsColumn {
  readonly size: number;
  readonly rows: ReadonlyMap<string, Int32Array>;
}

/**
 * The engine's columns beyond the table's own: each field of the field table
 * (fields.ts) that a request filters or sorts on, as a typed array by row,
 * built on first use and extended as rows are appended (a published article
 * costs one row's values, not a rebuild). A scan over a column is sequential
 * memory; reading the dictionaries per article is not.
 */
export interface Columns {
  postings(field: string): PostingsColumn | undefined;
  number(field: string): Float64Array | undefined;
  flag(field: string): Uint8Array | undefined;
  keyword(field: string): KeywordColumn | undefined;
  /** Lower-case titles (title_starts_with, title_ends_with). */
  lowerTitles(): readonly string[];
  /**
   * A named sort key (`sort.by`) for every row, computed once and extended as
   * rows come: ranking then reads one typed array (NaN: no value, last).
   */
  sortKeys(name: string, key: (t: ArticleTable, row: number) => number | undefined): Float64Array;
}

interface Built<T> {
  column: T;
  rows: number;
}

export function createColumns(table: ArticleTable): Columns {
  const numbers = new Map<string, Built<Grow<Float64Array>>>();
  const flags = new Map<string, Built<Grow<Uint8Array>>>();
  const keywords = new Map<string, Built<{ codes: Grow<Int32Array>; dict: Map<string, number> }>>();
  const inverted = new Map<
    string,
    Built<Map<string, Grow<Int32Array>>> & { views?: PostingsColumn }
  >();
  const lower: Built<string[]> = { column: [], rows: 0 };
  const keys = new Map<string, Built<Grow<Float64Array>>>();
  const n = (): number => table.rows;
  return {
    postings(field) {
      const accessor = FIELDS[field];
      if (accessor?.kind !== 'keyword' || accessor.single !== undefined) return undefined;
      let built = inverted.get(field);
      if (built === undefined) {
        built = { column: new Map(), rows: 0 };
        inverted.set(field, built);
      }
      for (let row = built.rows; row < n(); row++) {
        for (const v of accessor.values(table, row)) {
          let list = built.column.get(v);
          if (list === undefined) {
            list = i32();
            built.column.set(v, list);
          }
          // An article listing a value twice is one posting.
          if (list.length === 0 || list.data[list.length - 1] !== row) list.push(row);
        }
      }
      if (built.views?.size !== n()) {
        const rows = new Map<string, Int32Array>();
        for (const [v, list] of built.column) rows.set(v, list.view());
        built.views = { size: n(), rows };
      }
      built.rows = n();
      return built.views;
    },
    number(field) {
      const accessor = FIELDS[field];
      if (accessor?.kind !== 'number') return undefined;
      const built = extend(numbers, field, f64, (row, col) =>
        // NaN stands for "no value" (an image width without images): every comparison with it is false.
        col.push(accessor.value(table, row) ?? Number.NaN),
      );
      return built.view();
    },
    flag(field) {
      const accessor = FIELDS[field];
      if (accessor?.kind !== 'flag') return undefined;
      return extend(flags, field, u8, (row, col) =>
        col.push(accessor.test(table, row) ? 1 : 0),
      ).view();
    },
    keyword(field) {
      const accessor = FIELDS[field];
      if (accessor?.kind !== 'keyword' || accessor.single === undefined) return undefined;
      const single = accessor.single;
      let built = keywords.get(field);
      if (built === undefined) {
        built = { column: { codes: i32(), dict: new Map() }, rows: 0 };
        keywords.set(field, built);
      }
      const { codes, dict } = built.column;
      for (let row = built.rows; row < n(); row++) {
        const v = single(table, row);
        let code = dict.get(v);
        if (code === undefined) {
          code = dict.size;
          dict.set(v, code);
        }
        codes.push(code);
      }
      built.rows = n();
      return { codes: codes.view(), dict };
    },
    sortKeys(name, key) {
      return extend(keys, name, f64, (row, col) => col.push(key(table, row) ?? Number.NaN)).view();
    },
    lowerTitles() {
      for (let row = lower.rows; row < n(); row++)
        lower.column.push((table.titles[row] as string).toLowerCase());
      lower.rows = n();
      return lower.column;
    },
  };

  function extend<T extends Grow<Float64Array> | Grow<Uint8Array>>(
    map: Map<string, Built<T>>,
    field: string,
    make: () => T,
    add: (row: number, column: T) => void,
  ): T {
    let built = map.get(field);
    if (built === undefined) {
      built = { column: make(), rows: 0 };
      map.set(field, built);
    }
    built.column.reserve(n());
    for (let row = built.rows; row < n(); row++) add(row, built.column);
    built.rows = n();
    return built.column;
  }
}
