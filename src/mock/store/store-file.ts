/**
 * The store file: the committed fixtures in the shape the engine reads,
 * written once at build time (`npm run build`, build-store.ts) so that a
 * `--mock` command loads them without parsing or indexing anything.
 *
 *   magic (8 bytes: NEWSSTOR), header length and columns' start (u32 LE each),
 *   header JSON (dictionaries, titles, catalogue, where each column is),
 *   the columns (8-byte aligned, little-endian typed arrays: read as views),
 *   every article's JSON (dates relative to the reference instant), by offset.
 *
 * Loading reads the header and columns (a few hundred KB for the committed
 * set) and leaves the articles' JSON in the file, read by offset for the
 * records a page shows.
 */
import { closeSync, fstatSync, openSync, readSync, writeFileSync } from 'node:fs';
import type { Catalogue } from './fixture-store.js';
import type { ArticleTable } from './table.js';
import { namedColumns } from './table-layout.js';

/** Bumped whenever the layout or the encoding of a column changes: an older file is then rebuilt. */
export const STORE_FORMAT = 2;
const MAGIC = 'NEWSSTOR';

type ColumnType = 'f64' | 'i32' | 'u8';
const BYTES: Readonly<Record<ColumnType, number>> = { f64: 8, i32: 4, u8: 1 };

/** The catalogue as JSON holds it (maps as entry lists). */
export type CatalogueJson = Omit<Catalogue, 'journalistAuthorIds' | 'duplicateOf'> & {
  journalistAuthorIds: [number, number[]][];
  duplicateOf: [number, number][];
};

export interface StoreFileHeader {
  format: number;
  seed: number;
  /** The instant the dates are relative to (shifted to `now` on load). */
  reference: string;
  /** What it was built from: file name → size, to notice a stale build. */
  source: Record<string, number>;
  rows: number;
  columns: Record<string, { type: ColumnType; offset: number; length: number }>;
  dicts: Record<string, unknown[]>;
  /** The index (rows newest first), when it is not rows 0, 1, 2…: a column of that name. */
  order: typeof ORDER_COLUMN | undefined;
  /**
   * JSON texts read only when needed, by offset after the columns: the
   * titles (title filters), the catalogue (derived from the articles at
   * build time, catalogue.ts; directories, suggest, names).
   */
  texts: {
    titles: { offset: number; length: number };
    catalogue: { offset: number; length: number };
  };
  /** Where the articles' JSON starts in the file, and its length. */
  json: { offset: number; length: number };
}

export interface StoreFileContents {
  header: StoreFileHeader;
  /** Column name → its values (views into one buffer). */
  columns: Map<string, Float64Array | Int32Array | Uint8Array>;
  /** The titles, parsed on first call (then the same array: copy before changing it). */
  titles(): string[];
  /** The catalogue, parsed on first call (the same object each time). */
  catalogue(): CatalogueJson;
  /** The open file, for reading articles by offset; it stays open with the process. */
  fd: number;
}

function typeOf(column: { data: Float64Array | Int32Array | Uint8Array }): ColumnType {
  return column.data instanceof Float64Array
    ? 'f64'
    : column.data instanceof Int32Array
      ? 'i32'
      : 'u8';
}

export interface StoreFileInput {
  seed: number;
  reference: string;
  source: Record<string, number>;
  table: ArticleTable;
  /** Values to write instead of a column's own (a grown set's dates moved back, grown-cache.ts). */
  columns?: ReadonlyMap<string, Float64Array | Int32Array | Uint8Array>;
  catalogue: Catalogue;
  /**
   * Every row's JSON, concatenated; each row's bodyRef and bodyLength point
   * into it. Only its length: the caller writes it after the other pieces.
   */
  json: Buffer | { length: number };
}

export function writeStoreFile(path: string, input: StoreFileInput & { json: Buffer }): void {
  writeFileSync(path, Buffer.concat(encodeStoreFile(input)));
}

/**
 * The store file's bytes, in pieces (the columns' are views of the table's
 * arrays), the articles' JSON last when `input.json` is a Buffer.
 */
export function encodeStoreFile(input: StoreFileInput): Buffer[] {
  const { table } = input;
  const columns: StoreFileHeader['columns'] = {};
  const parts: Buffer[] = [];
  let at = 0;
  const ordered = isIdentity(table.order, table.rows);
  type Column = { data: Float64Array | Int32Array | Uint8Array; length: number };
  const all: [string, Column][] = namedColumns(table);
  if (!ordered) all.push([ORDER_COLUMN, { data: table.order, length: table.order.length }]);
  for (const [name, column] of all) {
    const type = typeOf(column);
    const view = input.columns?.get(name) ?? column.data.subarray(0, column.length);
    const bytes = Buffer.from(view.buffer, view.byteOffset, view.byteLength);
    columns[name] = { type, offset: at, length: column.length };
    parts.push(bytes);
    at += bytes.length;
    const pad = (8 - (at % 8)) % 8;
    if (pad > 0) parts.push(Buffer.alloc(pad));
    at += pad;
  }
  const header: Omit<StoreFileHeader, 'json' | 'texts'> & {
    json?: StoreFileHeader['json'];
    texts?: StoreFileHeader['texts'];
  } = {
    format: STORE_FORMAT,
    seed: input.seed,
    reference: input.reference,
    source: input.source,
    rows: table.rows,
    columns,
    dicts: Object.fromEntries(Object.entries(table.dict).map(([k, d]) => [k, d.values])),
    order: ordered ? undefined : ORDER_COLUMN,
  };
  const titles = Buffer.from(JSON.stringify(table.titles));
  const catalogue = Buffer.from(
    JSON.stringify({
      ...input.catalogue,
      journalistAuthorIds: [...input.catalogue.journalistAuthorIds],
      duplicateOf: [...input.catalogue.duplicateOf],
    } satisfies CatalogueJson),
  );
  header.texts = {
    titles: { offset: at, length: titles.length },
    catalogue: { offset: at + titles.length, length: catalogue.length },
  };
  parts.push(titles, catalogue);
  at += titles.length + catalogue.length;
  // The header's length decides where the columns start, and the header says where the
  // articles start: room for the offset's digits is left after a first measure.
  const probe = Buffer.from(JSON.stringify({ ...header, json: { offset: 0, length: 0 } }));
  const columnsStart = align(PREFIX + probe.length + 64);
  const jsonOffset = columnsStart + at;
  const text = Buffer.from(
    JSON.stringify({ ...header, json: { offset: jsonOffset, length: input.json.length } }),
  );
  const head = Buffer.alloc(columnsStart);
  head.write(MAGIC, 0, 'latin1');
  head.writeUInt32LE(text.length, MAGIC.length);
  head.writeUInt32LE(columnsStart, MAGIC.length + 4);
  text.copy(head, PREFIX);
  return Buffer.isBuffer(input.json) ? [head, ...parts, input.json] : [head, ...parts];
}

const align = (n: number): number => Math.ceil(n / 8) * 8;
/** The index's column, beside the table's own. */
const ORDER_COLUMN = '@order';
/** Magic, header length, columns' start. */
const PREFIX = MAGIC.length + 8;

function isIdentity(order: Int32Array, rows: number): boolean {
  if (order.length !== rows) return false;
  for (let i = 0; i < order.length; i++) if (order[i] !== i) return false;
  return true;
}

/** The catalogue back from its JSON form. */
export function catalogueOf(json: CatalogueJson): Catalogue {
  return {
    ...json,
    suggest: { ...json.suggest, entities: [...json.suggest.entities] },
    journalistAuthorIds: new Map(json.journalistAuthorIds),
    duplicateOf: new Map(json.duplicateOf),
  };
}

/**
 * Opens a store file and reads everything but the articles' JSON; undefined
 * when it is missing, of another format, or not built from `source`.
 */
export function readStoreFile(
  path: string,
  source: Record<string, number>,
): StoreFileContents | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const start = Buffer.alloc(PREFIX);
    if (readSync(fd, start, 0, PREFIX, 0) !== PREFIX) throw new Error('short');
    if (start.toString('latin1', 0, MAGIC.length) !== MAGIC) throw new Error('not a store file');
    const size = start.readUInt32LE(MAGIC.length);
    const columnsStart = start.readUInt32LE(MAGIC.length + 4);
    const text = Buffer.alloc(size);
    if (readSync(fd, text, 0, size, PREFIX) !== size) throw new Error('short');
    const header = JSON.parse(text.toString('utf8')) as StoreFileHeader;
    if (header.format !== STORE_FORMAT || !sameSource(header.source, source)) {
      closeSync(fd);
      return undefined;
    }
    const length = header.json.offset - columnsStart;
    const buffer = Buffer.allocUnsafeSlow(Math.max(0, length));
    let done = 0;
    while (done < length) {
      const n = readSync(fd, buffer, done, length - done, columnsStart + done);
      if (n === 0) throw new Error('short');
      done += n;
    }
    if (fstatSync(fd).size !== header.json.offset + header.json.length) throw new Error('size');
    const columns = new Map<string, Float64Array | Int32Array | Uint8Array>();
    for (const [name, c] of Object.entries(header.columns)) {
      const offset = buffer.byteOffset + c.offset;
      columns.set(
        name,
        c.type === 'f64'
          ? new Float64Array(buffer.buffer, offset, c.length)
          : c.type === 'i32'
            ? new Int32Array(buffer.buffer, offset, c.length)
            : new Uint8Array(buffer.buffer, offset, c.length),
      );
    }
    for (const [name, c] of Object.entries(header.columns)) {
      if (c.offset % BYTES[c.type] !== 0) throw new Error(`misaligned column ${name}`);
    }
    const lazy = <T>(at: { offset: number; length: number }): (() => T) => {
      let parsed: T | undefined;
      return () => {
        parsed ??= JSON.parse(buffer.toString('utf8', at.offset, at.offset + at.length)) as T;
        return parsed;
      };
    };
    return {
      header,
      columns,
      titles: lazy<string[]>(header.texts.titles),
      catalogue: lazy<CatalogueJson>(header.texts.catalogue),
      fd,
    };
  } catch {
    closeSync(fd);
    return undefined;
  }
}

function sameSource(a: Record<string, number>, b: Record<string, number>): boolean {
  const keys = Object.keys(b);
  return keys.length === Object.keys(a).length && keys.every((k) => a[k] === b[k]);
}
