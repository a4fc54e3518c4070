/**
 * Convert's byte reader for Parquet: a line of JSON Lines goes from its UTF-8
 * bytes to the row group's column stores without JSON.parse, without a
 * decoded string, without a record object. The line is checked and laid out
 * as a tape (json-tape.ts); the column paths are looked up in it (the
 * last of two keys alike wins, as in JSON.parse); each cell is made from the
 * bytes as the record path makes it from the parsed value (flatten.ts's
 * derivations, fast/parquet/columns.ts's type rules, tape-text.ts for
 * text and JSON text).
 *
 * Whatever it does not handle here (a value of another type than its
 * column's usual one, a number with an exponent, a date in another form, an
 * escaped key, an envelope of results), it takes back the row and says so:
 * the caller reads that line the ordinary way (JSON.parse, then the record
 * path), so the cells are the same either way. A test checks both ways on
 * generated records.
 *
 * Where it went: a worker spent about half its time decoding UTF-8, in
 * JSON.parse, in JSON.stringify of the JSON columns, in encoding text back
 * to UTF-8 and in collecting the objects all that made (docs/PARQUET.md).
 */
import type { Column } from '../columns.js';
import type { ColumnStore, NumberColumn, TextColumn } from './parquet/columns.js';
import type { FlagColumn } from './parquet/columns.js';
import { FALSE as FLAG_FALSE, TRUE as FLAG_TRUE, NULL_FLAG } from './parquet/columns.js';
import { json, simpleNumber, stringText } from './tape-text.js';
import {
  ARRAY,
  END,
  ESCAPED,
  FALSE,
  KIND,
  NUMBER,
  OBJECT,
  START,
  STRING,
  TRUE,
} from './json-tape.js';
import { TapeRecord, unreadablePath } from './tape-record.js';

/** How a column's cell is made from its value. */
enum Make {
  Int,
  Float,
  Timestamp,
  Flag,
  Text,
  Json,
  Names,
  Join,
}

interface Plan {
  readonly make: Make;
  /** The slots of the path and of its alternatives, in order. */
  readonly slots: readonly number[];
  readonly store: ColumnStore;
}

function makeOf(column: Column): Make | undefined {
  const value = column.derive === 'value';
  switch (column.type) {
    case 'int':
      return value ? Make.Int : undefined;
    case 'float':
      return value ? Make.Float : undefined;
    case 'timestamp':
      return value ? Make.Timestamp : undefined;
    case 'bool':
      return value ? Make.Flag : undefined;
    case 'string':
    case 'json':
      return { value: Make.Text, json: Make.Json, names: Make.Names, join: Make.Join }[
        column.derive
      ];
  }
}

function digits(b: Uint8Array, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) {
    const d = b[i]! - 0x30;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/**
 * `YYYY-MM-DDTHH:MM:SS[.mmm]Z` (how the API writes dates) as Date.parse reads
 * it, without a string; NaN for anything else (Date.parse then decides).
 */
export function isoMillis(b: Uint8Array, start: number, end: number): number {
  const length = end - start;
  if (length !== 20 && length !== 24) return Number.NaN;
  if (
    b[start + 4] !== 0x2d ||
    b[start + 7] !== 0x2d ||
    b[start + 10] !== 0x54 ||
    b[start + 13] !== 0x3a ||
    b[start + 16] !== 0x3a ||
    b[end - 1] !== 0x5a
  ) {
    return Number.NaN;
  }
  const year = digits(b, start, 4);
  const month = digits(b, start + 5, 2);
  const day = digits(b, start + 8, 2);
  const hour = digits(b, start + 11, 2);
  const minute = digits(b, start + 14, 2);
  const second = digits(b, start + 17, 2);
  let ms = 0;
  if (length === 24) {
    if (b[start + 19] !== 0x2e) return Number.NaN;
    ms = digits(b, start + 20, 3);
  }
  // Years before 100 mean 19xx to Date.UTC; 24:00 and leap seconds are left to Date.parse.
  if (year < 100 || month < 1 || month > 12 || day < 1 || day > 31) return Number.NaN;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || ms < 0) {
    return Number.NaN;
  }
  return Date.UTC(year, month - 1, day, hour, minute, second, ms);
}

export class ByteRows {
  /** Values that did not fit their column, counted as the record path counts them. */
  misfits = 0;

  private constructor(
    private readonly record: TapeRecord,
    private readonly plans: readonly Plan[],
  ) {}

  /**
   * A byte reader for these columns, or undefined when one of them is made
   * in a way it does not handle (a number column derived from a list), or
   * when a path is empty (the record itself) or names a property every
   * object has (`constructor`: the record path would read it from the
   * prototype).
   */
  static for(columns: readonly Column[], stores: readonly ColumnStore[]): ByteRows | undefined {
    const record = new TapeRecord();
    const plans: Plan[] = [];
    for (const [i, column] of columns.entries()) {
      const make = makeOf(column);
      const paths = [column.path, ...(column.alternatives ?? [])];
      if (make === undefined || paths.some(unreadablePath)) return undefined;
      plans.push({ make, slots: paths.map((p) => record.slotOf(p)), store: stores[i]! });
    }
    return new ByteRows(record, plans);
  }

  /**
   * Adds the record on `bytes[from, to)` (one JSON object, a line end right
   * after `to`) as a row; false when it cannot (nothing is added). A line in
   * JSON Lines (`topLevel`) may also be an envelope of results: false.
   */
  add(bytes: Uint8Array, from: number, to: number, topLevel: boolean): boolean {
    if (!this.record.read(bytes, from, to, topLevel)) return false;
    const rows = this.plans[0]?.store.rows ?? 0;
    const misfits = this.misfits;
    for (const plan of this.plans) {
      if (!this.cell(bytes, plan)) {
        for (const p of this.plans) p.store.truncate(rows);
        this.misfits = misfits;
        return false;
      }
    }
    return true;
  }

  /** Adds the plan's cell; false to leave the row to the record path. */
  private cell(b: Uint8Array, plan: Plan): boolean {
    const e = this.record.valueOf(plan.slots);
    const store = plan.store;
    if (e < 0) {
      if (store.type === 'bool') store.push(NULL_FLAG);
      else if (store.type === 'string' || store.type === 'json') store.pushNull();
      else (store as NumberColumn).push(Number.NaN);
      return true;
    }
    const tape = this.record.tape.tape;
    const kind = tape[e]! & KIND;
    const start = tape[e + START]!;
    const end = tape[e + END]!;
    switch (plan.make) {
      case Make.Int:
      case Make.Float: {
        if (kind !== NUMBER) return false;
        const n = simpleNumber(b, start, end);
        if (Number.isNaN(n)) return false;
        const numbers = store as NumberColumn;
        if (plan.make === Make.Int && !Number.isSafeInteger(n)) {
          numbers.push(Number.NaN);
          this.misfits++;
        } else numbers.push(n);
        return true;
      }
      case Make.Timestamp: {
        if (tape[e] !== STRING) return false;
        const ms = isoMillis(b, start, end);
        if (Number.isNaN(ms)) return false;
        (store as NumberColumn).push(ms);
        return true;
      }
      case Make.Flag:
        if (kind !== TRUE && kind !== FALSE) return false;
        (store as FlagColumn).push(kind === TRUE ? FLAG_TRUE : FLAG_FALSE);
        return true;
      case Make.Names:
      case Make.Join:
        if (kind === ARRAY) {
          const text = store as TextColumn;
          text.begin();
          if (!this.record.list(b, e, plan.make === Make.Names, text.out)) return false;
          text.end();
          return true;
        }
        return this.text(b, e, store as TextColumn);
      case Make.Text:
        return this.text(b, e, store as TextColumn);
      case Make.Json:
        return this.jsonText(b, e, store as TextColumn);
    }
  }

  /** A scalar cell in a text column: a string's text; an object or array as JSON. */
  private text(b: Uint8Array, e: number, store: TextColumn): boolean {
    const tape = this.record.tape.tape;
    const kind = tape[e]! & KIND;
    if (kind === OBJECT || kind === ARRAY) return this.jsonText(b, e, store);
    if (kind !== STRING) return false; // a number or a flag in a text column: left to String()
    store.begin();
    stringText(b, tape[e + START]!, tape[e + END]!, (tape[e]! & ESCAPED) !== 0, store.out);
    store.end();
    return true;
  }

  private jsonText(b: Uint8Array, e: number, store: TextColumn): boolean {
    store.begin();
    if (!json(b, this.record.tape.tape, e, store.out)) return false; // the row is taken back
    store.end();
    return true;
  }
}
