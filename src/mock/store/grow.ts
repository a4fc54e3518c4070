/**
 * The building blocks of the article table: typed arrays that grow by
 * doubling, and dictionaries that code repeated values as small integers.
 * A column may start as a view into the store file (no copy at load); the
 * first append past its end copies it into a larger array of its own, so a
 * file shared by several stores is never written to.
 */

type Typed = Float64Array | Int32Array | Uint8Array;
type TypedCtor<T extends Typed> = { new (length: number): T };

export class Grow<T extends Typed> {
  /** The values; `data[i]` for i < length. May be longer (spare capacity). */
  data: T;
  length: number;

  constructor(
    private readonly ctor: TypedCtor<T>,
    initial?: T,
  ) {
    this.data = initial ?? new ctor(16);
    this.length = initial?.length ?? 0;
  }

  push(value: number): void {
    if (this.length === this.data.length) this.reserve(this.length + 1);
    this.data[this.length++] = value;
  }

  /**
   * Room for `total` values without another copy. Grows by a quarter: a
   * mock left publishing for days keeps its columns at most 25 % larger than
   * their rows, where doubling would leave up to half of them empty.
   */
  reserve(total: number): void {
    if (total <= this.data.length) return;
    const next = new this.ctor(Math.max(total, Math.floor(this.data.length * 1.25) + 16));
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }

  /** The values, without spare capacity (a view: valid until the next push). */
  view(): T {
    return this.data.subarray(0, this.length) as T;
  }
}

export const f64 = (initial?: Float64Array): Grow<Float64Array> => new Grow(Float64Array, initial);
export const i32 = (initial?: Int32Array): Grow<Int32Array> => new Grow(Int32Array, initial);
export const u8 = (initial?: Uint8Array): Grow<Uint8Array> => new Grow(Uint8Array, initial);

/**
 * Distinct values, each with a code (its index). `key` decides what counts as
 * the same value: shared sub-objects of articles (a source, a category, an
 * entity) are coded by their JSON, so an article's list of them is a list of
 * small integers and each object is kept once.
 */
export class Dict<T> {
  readonly values: T[];
  /** Built on first use: a store loaded from its file may never code a new value. */
  private codes: Map<string, number> | undefined;
  /**
   * Objects coded before, by identity: the generator shares one source, one
   * category… object between the articles that carry it, so most are coded
   * without computing their key.
   */
  private readonly seen = new WeakMap<object, number>();

  constructor(
    private readonly key: (value: T) => string,
    values: readonly T[] = [],
  ) {
    this.values = [...values];
  }

  /** The value's code; `value` must not change afterwards (it is kept). */
  code(value: T): number {
    const object = typeof value === 'object' && value !== null ? value : undefined;
    if (object !== undefined) {
      const known = this.seen.get(object);
      if (known !== undefined) return known;
    }
    const codes = this.index();
    const k = this.key(value);
    let c = codes.get(k);
    if (c === undefined) {
      c = this.values.length;
      this.values.push(value);
      codes.set(k, c);
    }
    if (object !== undefined) this.seen.set(object, c);
    return c;
  }

  /**
   * The code of a value made afresh for each article (a byline, a place, an
   * event): found by its key alone, since identity would never find it
   * again (and remembering every such object by identity costs the
   * collector). When new, `keep()` is what the dictionary keeps.
   */
  codeFresh(value: T, keep: () => T = () => value): number {
    const codes = this.index();
    const k = this.key(value);
    let c = codes.get(k);
    if (c === undefined) {
      c = this.values.length;
      this.values.push(keep());
      codes.set(k, c);
    }
    return c;
  }

  /** The code of a value already known (by its key), or undefined. */
  find(key: string): number | undefined {
    return this.index().get(key);
  }

  get size(): number {
    return this.values.length;
  }

  private index(): Map<string, number> {
    if (this.codes === undefined) {
      this.codes = new Map();
      for (let i = 0; i < this.values.length; i++) {
        const k = this.key(this.values[i] as T);
        if (!this.codes.has(k)) this.codes.set(k, i);
      }
    }
    return this.codes;
  }
}

/** A dictionary of strings (words, names, language codes). */
export const strings = (values: readonly string[] = []): Dict<string> =>
  new Dict<string>((s) => s, values);

/** A dictionary of JSON-like objects, equal when their JSON is. */
export const objects = <T>(values: readonly T[] = []): Dict<T> =>
  new Dict<T>((o) => JSON.stringify(o), values);
