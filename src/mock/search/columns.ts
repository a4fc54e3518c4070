import { FIELDS } from './fields.js';
import type { Doc } from './types.js';

/** A single-valued keyword field as codes: `codes[ix]` indexes `dict`'s values. */
export interface KeywordColumn {
  readonly codes: Int32Array;
  readonly dict: ReadonlyMap<string, number>;
}

/**
 * Field values of every indexed article in typed arrays, one per field, built on
 * first use. A scan over a column is sequential memory; a scan over the article
 * objects misses the cache once per article, which is most of a search's time.
 */
/** Every title's words as ids, flattened: article ix's words are ids[offsets[ix] .. offsets[ix + 1]). */
export interface TitleColumn {
  readonly dict: ReadonlyMap<string, number>;
  readonly offsets: Int32Array;
  readonly ids: Int32Array;
}

/**
 * A many-valued keyword field inverted: `positions.get(value)` lists, ascending,
 * the positions of the articles that have the value (`category.id`, `entity.id`…).
 */
export interface PostingsColumn {
  readonly size: number;
  readonly positions: ReadonlyMap<string, Int32Array>;
}

export interface Columns {
  /** published_at (ms) and id of every article: the tie-breakers of every sort. */
  order(): { times: Float64Array; ids: Float64Array };
  titles(): TitleColumn;
  postings(field: string): PostingsColumn | undefined;
  number(field: string): Float64Array | undefined;
  flag(field: string): Uint8Array | undefined;
  keyword(field: string): KeywordColumn | undefined;
}

export function createColumns(docs: readonly Doc[]): Columns {
  const numbers = new Map<string, Float64Array>();
  const flags = new Map<string, Uint8Array>();
  const keywords = new Map<string, KeywordColumn>();
  const inverted = new Map<string, PostingsColumn>();
  let titles: TitleColumn | undefined;
  let order: { times: Float64Array; ids: Float64Array } | undefined;
  return {
    order() {
      if (order === undefined) {
        const times = new Float64Array(docs.length);
        const ids = new Float64Array(docs.length);
        for (let i = 0; i < docs.length; i++) {
          times[i] = (docs[i] as Doc).publishedAt;
          ids[i] = (docs[i] as Doc).id;
        }
        order = { times, ids };
      }
      return order;
    },
    titles() {
      if (titles === undefined) {
        const dict = new Map<string, number>();
        const offsets = new Int32Array(docs.length + 1);
        let total = 0;
        for (let i = 0; i < docs.length; i++) total += (docs[i] as Doc).titleTokens.length;
        const ids = new Int32Array(total);
        let at = 0;
        for (let i = 0; i < docs.length; i++) {
          offsets[i] = at;
          for (const word of (docs[i] as Doc).titleTokens) {
            let id = dict.get(word);
            if (id === undefined) {
              id = dict.size;
              dict.set(word, id);
            }
            ids[at++] = id;
          }
        }
        offsets[docs.length] = at;
        titles = { dict, offsets, ids };
      }
      return titles;
    },
    postings(field) {
      const accessor = FIELDS[field];
      if (accessor?.kind !== 'keyword' || accessor.single !== undefined) return undefined;
      let col = inverted.get(field);
      if (col === undefined) {
        const lists = new Map<string, number[]>();
        for (let i = 0; i < docs.length; i++) {
          for (const v of accessor.values(docs[i] as Doc)) {
            let list = lists.get(v);
            if (list === undefined) {
              list = [];
              lists.set(v, list);
            }
            // An article listing a value twice is one posting.
            if (list[list.length - 1] !== i) list.push(i);
          }
        }
        const positions = new Map<string, Int32Array>();
        for (const [v, list] of lists) positions.set(v, Int32Array.from(list));
        col = { size: docs.length, positions };
        inverted.set(field, col);
      }
      return col;
    },
    number(field) {
      const accessor = FIELDS[field];
      if (accessor?.kind !== 'number') return undefined;
      let col = numbers.get(field);
      if (col === undefined) {
        col = new Float64Array(docs.length);
        // NaN stands for "no value" (an image width without images): every comparison with it is false.
        for (let i = 0; i < docs.length; i++) col[i] = accessor.value(docs[i] as Doc) ?? Number.NaN;
        numbers.set(field, col);
      }
      return col;
    },
    flag(field) {
      const accessor = FIELDS[field];
      if (accessor?.kind !== 'flag') return undefined;
      let col = flags.get(field);
      if (col === undefined) {
        col = new Uint8Array(docs.length);
        for (let i = 0; i < docs.length; i++) col[i] = accessor.test(docs[i] as Doc) ? 1 : 0;
        flags.set(field, col);
      }
      return col;
    },
    keyword(field) {
      const accessor = FIELDS[field];
      if (accessor?.kind !== 'keyword' || accessor.single === undefined) return undefined;
      let col = keywords.get(field);
      if (col === undefined) {
        const dict = new Map<string, number>();
        const codes = new Int32Array(docs.length);
        for (let i = 0; i < docs.length; i++) {
          const v = accessor.single(docs[i] as Doc);
          let code = dict.get(v);
          if (code === undefined) {
            code = dict.size;
            dict.set(v, code);
          }
          codes[i] = code;
        }
        col = { codes, dict };
        keywords.set(field, col);
      }
      return col;
    },
  };
}
