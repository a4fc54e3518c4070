/**
 * The tables of one session and the columns it writes, kept as it goes: a
 * batch with no new field costs no catalogue query, and one with a new
 * field reads the tables again, checks every column of every table, and
 * only then creates or alters anything (with a note for each change).
 */
import type { ApiRecord } from '../../types.js';
import type { FieldDef } from './fields.js';
import {
  type Dialect,
  type ExistingColumn,
  type Layout,
  listItems,
  reconcile,
  type TableChange,
  type TableSpec,
  wantedColumns,
} from './schema.js';

/** What an engine does to its catalogue. */
export interface TableOps {
  columns(name: string): Promise<ReadonlyMap<string, ExistingColumn> | undefined>;
  create(table: TableSpec, name: string, columns: readonly FieldDef[]): Promise<void>;
  add(name: string, column: FieldDef): Promise<void>;
}

export class TableSet {
  readonly specs: readonly TableSpec[];
  private readonly known = new Map<TableSpec, FieldDef[]>();

  constructor(
    readonly layout: Layout,
    private readonly dialect: Dialect,
    private readonly where: string,
    private readonly note: (message: string) => void,
    /** The table a spec is written to (its `__new` twin while replacing). */
    readonly target: (spec: TableSpec) => string,
  ) {
    this.specs = [layout.main, ...layout.children];
  }

  /** The rows a batch brings to a table: the records, or the items of its list. */
  rowsOf(spec: TableSpec, records: readonly ApiRecord[]): readonly ApiRecord[] {
    return spec.list === undefined ? records : listItems(records, spec.list.field);
  }

  /** The columns this session writes to `spec`. */
  columnsOf(spec: TableSpec): readonly FieldDef[] {
    return this.known.get(spec) ?? spec.declared;
  }

  /** Makes every table ready for `records`; throws before any change when one is refused. */
  async prepare(records: readonly ApiRecord[], ops: TableOps): Promise<void> {
    const pending: { spec: TableSpec; wanted: FieldDef[] }[] = [];
    for (const spec of this.specs) {
      const wanted = wantedColumns(spec, this.rowsOf(spec, records));
      const known = this.known.get(spec);
      if (known !== undefined && wanted.every((c) => known.some((k) => k.name === c.name)))
        continue;
      pending.push({ spec, wanted });
    }
    if (pending.length === 0) return;
    const changes: TableChange[] = [];
    for (const { spec, wanted } of pending) {
      const name = this.target(spec);
      const existing = await ops.columns(name);
      changes.push(reconcile({ ...spec, name }, wanted, existing, this.dialect, this.where));
    }
    for (const [i, change] of changes.entries()) {
      const { spec, wanted } = pending[i] as { spec: TableSpec; wanted: FieldDef[] };
      const name = this.target(spec);
      if (change.create !== undefined) {
        await ops.create(spec, name, change.create);
        // The twin of a replace is an implementation detail; the table the user named is what is told.
        if (name === spec.name) this.note(`created table ${name}`);
      }
      for (const column of change.add) {
        await ops.add(name, column);
        this.note(
          `added column ${column.name} (${this.dialect.typeName(column.type)}) to ${name} for a field it lacked`,
        );
      }
      const merged = [...(this.known.get(spec) ?? [])];
      for (const column of wanted) {
        if (!merged.some((c) => c.name === column.name)) merged.push(column);
      }
      this.known.set(spec, merged);
    }
  }

  /** Forgets what was learned (after a rolled-back transaction, whose DDL is undone too). */
  reset(): void {
    this.known.clear();
  }
}
