/**
 * A batch's rows through DuckDB's appender: one slot per column of the
 * table as it stands (its order, which may not be ours when another run
 * made it), each reading one field of the record (or, for a child row,
 * the parent's id, the position or a field of the item) and writing it
 * with its column's writer. A column the session does not write gets its
 * default, as an INSERT naming its columns would give it.
 *
 * A list that has a child table is also kept whole in a JSON column of
 * the parent row. Its items' JSON columns are the bulk of its text, so the
 * list's JSON is put together from the same pieces while its child rows
 * are appended (`ListTexts`), and the parent row takes that text instead of
 * serializing the list a second time: the same text JSON.stringify writes.
 */
import type { DuckDBAppender } from '@duckdb/node-api';
import type { FieldDef } from '../database/fields.js';
import type { ApiRecord } from '../../types.js';
import type { Writer, Writers } from './values.js';

const FIELD = 0;
const PARENT = 1;
const POSITION = 2;
const DEFAULT = 3;

export interface Slot {
  readonly name: string;
  readonly from: typeof FIELD | typeof PARENT | typeof POSITION | typeof DEFAULT;
  readonly json: boolean;
  readonly put: Writer;
}

/** Each list field's JSON text per row of the batch (undefined: serialize it as usual). */
export type ListTexts = Map<string, (string | undefined)[]>;

const skip: Writer = (a) => a.appendDefault();

/**
 * The slots of a table whose columns are `order`, written with `ours`
 * (a child table's first two are its parent column and the position).
 */
export function slotsFor(
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

/** The records, a row each; a list's JSON from `lists` when its children put it together. */
export function appendRecords(
  appender: DuckDBAppender,
  table: string,
  slots: readonly Slot[],
  rows: readonly ApiRecord[],
  lists?: ListTexts,
): void {
  const texts = slots.map((s) => (s.json ? lists?.get(s.name) : undefined));
  let slot: Slot | undefined;
  try {
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r] as ApiRecord;
      for (let i = 0; i < slots.length; i++) {
        slot = slots[i] as Slot;
        const text = texts[i]?.[r];
        if (text !== undefined) appender.appendVarchar(text);
        else slot.put(appender, row[slot.name]);
      }
      appender.endRow();
    }
    slot = undefined;
    appender.flushSync();
  } catch (error) {
    throw located(table, slot, error);
  }
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

/** A scalar's JSON, as JSON.stringify writes it inside an object. */
function scalarJson(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return JSON.stringify(value);
}

/**
 * The items (objects) of each record's list `field` into its child table:
 * the parent's id, the position, the item's fields. With `texts`, each
 * record's list is also written out as JSON there, from the pieces.
 */
export function appendItems(
  appender: DuckDBAppender,
  table: string,
  slots: readonly Slot[],
  rows: readonly ApiRecord[],
  field: string,
  texts?: (string | undefined)[],
): void {
  const jsonSlot = new Map<string, number>();
  slots.forEach((s, i) => {
    if (s.from === FIELD && s.json) jsonSlot.set(s.name, i);
  });
  const pieces: (string | undefined)[] = slots.map(() => undefined);
  let slot: Slot | undefined;
  try {
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r] as ApiRecord;
      const list = row[field];
      if (!Array.isArray(list)) continue;
      const parent = row['id'];
      let whole: string | undefined = '[';
      for (let position = 0; position < list.length; position++) {
        const item: unknown = list[position];
        if (typeof item !== 'object' || item === null || Array.isArray(item)) {
          if (whole !== undefined)
            whole += `${position > 0 ? ',' : ''}${JSON.stringify(item) ?? 'null'}`;
          continue;
        }
        const values = item as ApiRecord;
        for (const [name, i] of jsonSlot) {
          const value = values[name];
          pieces[i] = value === undefined || value === null ? undefined : JSON.stringify(value);
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
        if (whole === undefined || typeof values['toJSON'] === 'function') {
          whole = undefined;
          continue;
        }
        let text = position > 0 ? ',{' : '{';
        let first = true;
        for (const key of Object.keys(values)) {
          const value = values[key];
          if (value === undefined || typeof value === 'function' || typeof value === 'symbol') {
            continue;
          }
          const at = jsonSlot.get(key);
          const piece =
            at !== undefined && value !== null
              ? (pieces[at] as string)
              : typeof value === 'object' && value !== null
                ? JSON.stringify(value)
                : scalarJson(value);
          text += `${first ? '' : ','}${quoted(key)}:${piece}`;
          first = false;
        }
        whole += `${text}}`;
      }
      if (texts !== undefined) texts[r] = whole === undefined ? undefined : `${whole}]`;
    }
    appender.flushSync();
  } catch (error) {
    throw located(table, slot, error);
  }
}
