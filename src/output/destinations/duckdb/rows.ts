/**
 * A batch's rows through DuckDB's appenders, one per table, record by
 * record: one slot per column of the table as it stands (its order, which
 * may not be ours when another run made it), each reading one field of the
 * record (or, for a child row, the parent's id, the position or a field of
 * the item) and writing it with its column's writer. A column the session
 * does not write gets its default, as an INSERT naming its columns would
 * give it.
 *
 * A list that has a child table is also kept whole in a JSON column of
 * the parent row. Its items' JSON columns are the bulk of its text, so the
 * list's JSON is put together from the same pieces while its child rows are
 * appended, and the parent row, appended right after, takes that text
 * instead of serializing the list a second time: the text JSON.stringify
 * writes. Record by record, so no text outlives its row.
 */
import type { DuckDBAppender } from '@duckdb/node-api';
import type { FieldDef } from '../database/fields.js';
import type { ApiRecord } from '../../types.js';
import type { Writer, Writers } from './values.js';

const FIELD = 0;
const PARENT = 1;
const POSITION = 2;
const DEFAULT = 3;

interface Slot {
  readonly name: string;
  readonly from: typeof FIELD | typeof PARENT | typeof POSITION | typeof DEFAULT;
  readonly json: boolean;
  readonly put: Writer;
}

const skip: Writer = (a) => a.appendDefault();

/**
 * The slots of a table whose columns are `order`, written with `ours`
 * (a child table's first two are its parent column and the position).
 */
function slotsFor(
  order: readonly string[],
  ours: readonly FieldDef[],
  writers: Writers,
  child: boolean,
): Slot[] {
  const byName = new Map(ours.map((c, i) => [c.name, { column: c, i }]));
  return order.map((name) => {
    const found = byName.get(name);
    if (found === undefined) return { name, from: DEFAULT, json: false, put: skip };
    const from = !child || found.i > 1 ? FIELD : found.i === 0 ? PARENT : POSITION;
    return { name, from, json: found.column.type === 'json', put: writers.of(found.column.type) };
  });
}

/** `table, column name: DuckDB's message`, so that a value that does not fit is found. */
function located(table: string, slot: Slot | undefined, error: unknown): Error {
  const text = error instanceof Error ? error.message : String(error);
  return new Error(
    slot === undefined ? `${table}: ${text}` : `${table}, column ${slot.name}: ${text}`,
  );
}

const quotedKeys = new Map<string, string>();
function quoted(key: string): string {
  let text = quotedKeys.get(key);
  if (text === undefined) {
    text = JSON.stringify(key);
    if (quotedKeys.size < 10_000) quotedKeys.set(key, text);
  }
  return text;
}

/** A value's JSON, as JSON.stringify writes it inside an object. */
function json(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return JSON.stringify(value);
}

/** The rows of one table, through its appender. */
abstract class TableRows {
  protected readonly slots: readonly Slot[];

  constructor(
    readonly appender: DuckDBAppender,
    readonly table: string,
    order: readonly string[],
    ours: readonly FieldDef[],
    writers: Writers,
    child: boolean,
  ) {
    this.slots = slotsFor(order, ours, writers, child);
  }

  /** Flushes and closes the appender (a row that does not fit may only fail here). */
  close(): void {
    try {
      this.appender.closeSync();
    } catch (error) {
      throw located(this.table, undefined, error);
    }
  }
}

/** A table of records, a row each: the main table or its staging twin. */
export class RecordRows extends TableRows {
  /** Per slot, the list text a child table put together for the current row. */
  readonly texts: (string | undefined)[];

  constructor(
    appender: DuckDBAppender,
    table: string,
    order: readonly string[],
    ours: readonly FieldDef[],
    writers: Writers,
  ) {
    super(appender, table, order, ours, writers, false);
    this.texts = this.slots.map(() => undefined);
  }

  /** The slot that takes a list's JSON text, or -1. */
  listSlot(field: string): number {
    return this.slots.findIndex((s) => s.name === field && s.json);
  }

  add(row: ApiRecord): void {
    const { slots, texts, appender } = this;
    let i = 0;
    try {
      for (; i < slots.length; i++) {
        const text = texts[i];
        if (text !== undefined) {
          appender.appendVarchar(text);
          texts[i] = undefined;
        } else {
          const slot = slots[i] as Slot;
          slot.put(appender, row[slot.name]);
        }
      }
      appender.endRow();
    } catch (error) {
      texts.fill(undefined);
      throw located(this.table, slots[i], error);
    }
  }
}

/** A child table: a row per object of the record's list `field`. */
export class ItemRows extends TableRows {
  /** The JSON columns of an item: their slots, and by name. */
  private readonly jsonSlots: number[] = [];
  private readonly jsonNames: string[] = [];
  private readonly jsonSlot = new Map<string, number>();
  private readonly pieces: (string | undefined)[];

  constructor(
    appender: DuckDBAppender,
    table: string,
    order: readonly string[],
    ours: readonly FieldDef[],
    writers: Writers,
    readonly field: string,
    /** Whether to put the list's JSON together (the parent has a JSON column for it). */
    private readonly compose: boolean,
  ) {
    super(appender, table, order, ours, writers, true);
    this.slots.forEach((s, i) => {
      if (s.from !== FIELD || !s.json) return;
      this.jsonSlots.push(i);
      this.jsonNames.push(s.name);
      this.jsonSlot.set(s.name, i);
    });
    this.pieces = this.slots.map(() => undefined);
  }

  /**
   * The items of `row`'s list; returns the list's JSON (what JSON.stringify
   * writes), or undefined when it is not a list, has an item with toJSON, or
   * is not to be put together.
   */
  add(row: ApiRecord): string | undefined {
    const list = row[this.field];
    if (!Array.isArray(list)) return undefined;
    const { slots, appender, pieces, jsonSlot, jsonSlots, jsonNames } = this;
    const parent = row['id'];
    let whole: string | undefined = this.compose ? '[' : undefined;
    let slot: Slot | undefined;
    try {
      for (let position = 0; position < list.length; position++) {
        const item: unknown = list[position];
        const comma = position > 0 ? ',' : '';
        if (typeof item !== 'object' || item === null || Array.isArray(item)) {
          // Not a child row: only in the parent's JSON (undefined and functions as null, as in a list).
          if (whole !== undefined) whole += `${comma}${JSON.stringify(item) ?? 'null'}`;
          continue;
        }
        const values = item as ApiRecord;
        for (let j = 0; j < jsonSlots.length; j++) {
          const value = values[jsonNames[j] as string];
          pieces[jsonSlots[j] as number] =
            value === undefined || value === null ? undefined : JSON.stringify(value);
        }
        for (let i = 0; i < slots.length; i++) {
          slot = slots[i] as Slot;
          if (slot.from === FIELD) {
            const piece = pieces[i];
            if (piece !== undefined) appender.appendVarchar(piece);
            else slot.put(appender, values[slot.name]);
          } else if (slot.from === PARENT) slot.put(appender, parent);
          else if (slot.from === POSITION) appender.appendInteger(position);
          else appender.appendDefault();
        }
        slot = undefined;
        appender.endRow();
        if (whole === undefined) continue;
        if (typeof values['toJSON'] === 'function') {
          whole = undefined;
          continue;
        }
        let text = `${comma}{`;
        let first = true;
        for (const key of Object.keys(values)) {
          const value = values[key];
          if (value === undefined || typeof value === 'function' || typeof value === 'symbol') {
            continue;
          }
          const at = value === null ? undefined : jsonSlot.get(key);
          text += `${first ? '' : ','}${quoted(key)}:${at === undefined ? json(value) : pieces[at]}`;
          first = false;
        }
        whole += `${text}}`;
      }
    } catch (error) {
      throw located(this.table, slot, error);
    }
    return whole === undefined ? undefined : `${whole}]`;
  }
}
