/**
 * Which rows of the table are indexed, in the order every scan walks:
 * newest first (published_at, then id, descending). Changed in place, never
 * reallocated per batch: a mock publishing thousands of articles a second
 * would otherwise make hundreds of kilobytes of garbage each time, which
 * the process keeps long after they are freed.
 */
import { i32, u8 } from './grow.js';

/** True when row `a` comes before row `b` (newer; the higher id on a tie). */
export type Newer = (a: number, b: number) => boolean;

export class RowOrder {
  private readonly rows = i32();
  /** 1 for a row taken out of the index (until the table is compacted). */
  private readonly dead = u8();
  private readonly positions = i32();
  private positionsAt = -1;
  private readonly runLengths = i32();
  private runsAt = -1;
  /** Bumped on every change: anything derived from the order is rebuilt when it moves. */
  version = 0;

  constructor(initial?: Int32Array) {
    if (initial !== undefined) for (const row of initial) this.rows.push(row);
  }

  /** The rows, newest first (a view: valid until the next change). */
  get view(): Int32Array {
    return this.rows.view();
  }

  get length(): number {
    return this.rows.length;
  }

  /** Whether a row of the table is in the index (a row not yet inserted is not). */
  isLive(row: number): boolean {
    return row < this.dead.length && this.dead.data[row] === 0;
  }

  /** The rows of a table read from its file, already in order: all of them live. */
  restore(rows: ArrayLike<number>): void {
    const n = rows.length;
    const from = this.rows.length;
    this.rows.reserve(from + n);
    let top = this.dead.length;
    for (let i = 0; i < n; i++) {
      const row = rows[i] as number;
      this.rows.data[from + i] = row;
      if (row >= top) top = row + 1;
    }
    this.rows.length = from + n;
    this.dead.reserve(top);
    // New typed-array room is zero: every row up to the highest is live.
    this.dead.data.fill(0, this.dead.length, top);
    this.dead.length = top;
    this.version++;
  }

  /** Adds appended rows, keeping the order. */
  insert(fresh: readonly number[], newer: Newer): void {
    if (fresh.length === 0) return;
    const add = [...fresh].sort((a, b) => (newer(a, b) ? -1 : newer(b, a) ? 1 : 0));
    for (const row of add) {
      while (this.dead.length <= row) this.dead.push(1);
      this.dead.data[row] = 0;
    }
    const n = this.rows.length;
    const k = add.length;
    this.rows.reserve(n + k);
    const rows = this.rows.data;
    this.rows.length = n + k;
    if (n === 0 || newer(add[k - 1] as number, rows[0] as number)) {
      // All newer than the newest (published articles): shift and place.
      rows.copyWithin(k, 0, n);
      for (let j = 0; j < k; j++) rows[j] = add[j] as number;
    } else {
      // Merge from the end: the oldest of the two lists goes last.
      let i = n - 1;
      let j = k - 1;
      for (let w = n + k - 1; j >= 0; w--) {
        rows[w] =
          i >= 0 && newer(add[j] as number, rows[i] as number)
            ? (rows[i--] as number)
            : (add[j--] as number);
      }
    }
    this.version++;
  }

  /** Takes rows out of the index; their values stay in the table until it is compacted. */
  remove(gone: ReadonlySet<number>): void {
    if (gone.size === 0) return;
    const rows = this.rows.data;
    let w = 0;
    for (let r = 0; r < this.rows.length; r++) {
      const row = rows[r] as number;
      if (gone.has(row)) this.dead.data[row] = 1;
      else rows[w++] = row;
    }
    this.rows.length = w;
    this.version++;
  }

  /** After the table dropped its dead rows: `map[old row]` is the new row of each live one. */
  renumber(map: Int32Array, rowCount: number): void {
    const rows = this.rows.data;
    for (let r = 0; r < this.rows.length; r++) rows[r] = map[rows[r] as number] as number;
    this.dead.length = rowCount;
    this.dead.data.fill(0, 0, rowCount);
    this.version++;
  }

  /**
   * For each place p, how many places from p on hold rows that go up by
   * one (`rows[p + k] === rows[p] + k`): the runs a scan may step over
   * whole when a bitmap by row has none of their bits (select.ts). Rows
   * made in order (the store file's, the `--articles` extras) form long runs.
   */
  runs(): Int32Array {
    if (this.runsAt !== this.version) {
      const n = this.rows.length;
      this.runLengths.reserve(n);
      this.runLengths.length = n;
      const runs = this.runLengths.data;
      const rows = this.rows.data;
      for (let p = n - 1; p >= 0; p--) {
        runs[p] =
          p + 1 < n && (rows[p + 1] as number) === (rows[p] as number) + 1
            ? (runs[p + 1] as number) + 1
            : 1;
      }
      this.runsAt = this.version;
    }
    return this.runLengths.view();
  }

  /** A row's place in the index (0 = newest), or -1. */
  positionOf(row: number, rowCount: number): number {
    if (this.positionsAt !== this.version) {
      this.positions.reserve(rowCount);
      this.positions.length = rowCount;
      const of = this.positions.data;
      of.fill(-1, 0, rowCount);
      const rows = this.rows.data;
      for (let p = 0; p < this.rows.length; p++) of[rows[p] as number] = p;
      this.positionsAt = this.version;
    }
    return row < this.positions.length ? (this.positions.data[row] as number) : -1;
  }
}
