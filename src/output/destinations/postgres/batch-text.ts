/**
 * A batch's COPY text where each list item's nested values are made into
 * JSON once: for the item's line in its child table and, put together, for
 * the list's column in the parent row. Made one after the other (mainLines,
 * childLines), an article's entities, categories, topics, … were turned
 * into JSON twice, the largest share of the client's time in `--all` into
 * PostgreSQL (bench/README.md). The text is what those two make, value for
 * value: the list's JSON has its items' keys in order, as JSON.stringify
 * writes them.
 */
import type { FieldDef } from '../database/fields.js';
import type { TableSpec } from '../database/schema.js';
import type { ApiRecord } from '../../types.js';
import { type BatchRows, cell, childLines, copyEscape, jsonText, withoutNul } from './copy.js';

/** A list's child lines, made for these columns, and each row's list as JSON (undefined: not a list). */
interface ListText {
  readonly columns: readonly FieldDef[];
  readonly lines: string[];
  readonly json: (string | undefined)[];
}

export class BatchText implements BatchRows {
  private readonly lists = new Map<TableSpec, ListText>();

  constructor(
    readonly ids: readonly unknown[],
    private readonly rows: readonly ApiRecord[],
    private readonly children: readonly TableSpec[],
    /** The columns a child table is written with now. */
    private readonly columnsOf: (spec: TableSpec) => readonly FieldDef[],
  ) {}

  /** The main table's lines; its lists' child lines are made now, before child() asks for them. */
  main(columns: readonly FieldDef[]): Iterable<string> {
    const lists = columns.map((column) => {
      const spec = this.children.find((c) => c.list?.field === column.name);
      return spec === undefined ? undefined : this.list(spec);
    });
    return this.mainLines(columns, lists);
  }

  private *mainLines(
    columns: readonly FieldDef[],
    lists: readonly (ListText | undefined)[],
  ): Generator<string> {
    for (let r = 0; r < this.rows.length; r++) {
      const record = this.rows[r] as ApiRecord;
      let line = '';
      for (let c = 0; c < columns.length; c++) {
        const column = columns[c] as FieldDef;
        const made = lists[c]?.json[r];
        line += `${made === undefined ? cell(record[column.name], column.type) : copyEscape(made)}\t`;
      }
      yield `${line.slice(0, -1)}\n`;
    }
  }

  child(spec: TableSpec, columns: readonly FieldDef[]): Iterable<string> {
    const made = this.lists.get(spec);
    if (made !== undefined && made.columns === columns) return made.lines;
    return childLines(this.rows, spec.list?.field as string, columns);
  }

  /** The child table's lines and each row's list as JSON, from one pass over the items. */
  private list(spec: TableSpec): ListText {
    const columns = this.columnsOf(spec);
    const known = this.lists.get(spec);
    if (known !== undefined && known.columns === columns) return known;
    const field = spec.list?.field as string;
    const items = columns.slice(2);
    const lines: string[] = [];
    const json: (string | undefined)[] = [];
    for (const record of this.rows) {
      const list = record[field];
      if (!Array.isArray(list)) {
        json.push(undefined);
        continue;
      }
      const head = cell(record['id'], 'bigint');
      const parts: string[] = [];
      for (let position = 0; position < list.length; position++) {
        const item: unknown = list[position];
        if (
          typeof item !== 'object' ||
          item === null ||
          Array.isArray(item) ||
          typeof (item as { toJSON?: unknown }).toJSON === 'function'
        ) {
          // Not a row of the child table (childLines skips it too); in the list as JSON writes it.
          if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
            lines.push(itemLine(head, position, item as ApiRecord, items, new Map()));
          }
          parts.push(JSON.stringify(item) ?? 'null');
          continue;
        }
        const nested = new Map<string, string>();
        lines.push(itemLine(head, position, item as ApiRecord, items, nested));
        parts.push(objectJson(item as ApiRecord, nested));
      }
      json.push(withoutNul(`[${parts.join(',')}]`));
    }
    const text = { columns, lines, json };
    this.lists.set(spec, text);
    return text;
  }
}

/** An item's line (the parent's id, its position, its columns); the JSON of its nested values kept in `nested`. */
function itemLine(
  head: string,
  position: number,
  item: ApiRecord,
  columns: readonly FieldDef[],
  nested: Map<string, string>,
): string {
  let line = `${head}\t${position}`;
  for (const column of columns) {
    const value = item[column.name];
    if (value !== null && typeof value === 'object') {
      const text = jsonText(value);
      nested.set(column.name, text);
      line += `\t${copyEscape(text)}`;
    } else line += `\t${cell(value, column.type)}`;
  }
  return `${line}\n`;
}

/** The item as JSON.stringify writes it, its nested values' JSON taken from `nested` where made. */
function objectJson(item: ApiRecord, nested: ReadonlyMap<string, string>): string {
  let text = '{';
  for (const key of Object.keys(item)) {
    const value = item[key];
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    const made = value !== null && typeof value === 'object' ? nested.get(key) : undefined;
    text += `${text === '{' ? '' : ','}${JSON.stringify(key)}:${made ?? JSON.stringify(value)}`;
  }
  return `${text}}`;
}
