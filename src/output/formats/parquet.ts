/**
 * Parquet through hyparquet-writer's ParquetWriter (pure JS; chosen by
 * measurement, see docs/PARQUET.md). Rows are collected as column arrays —
 * the records themselves are dropped page by page — and written as one row
 * group every ROW_GROUP_ROWS rows, so memory holds one row group at most.
 *
 * Column names are the dotted names with `.` replaced by `_`
 * (`sentiment_overall_score`): Spark and other engines read a dot as struct
 * access. The dotted names are kept in the file's key-value metadata.
 */
import type { Column, ColumnType } from '../columns.js';
import type { FormatWriter, WriterContext } from '../format-writer.js';
import { cellReader } from '../flatten.js';
import type { Cell } from '../flatten.js';
import type { Sink } from '../sink.js';

/** 1,000 peaked at 321 MB at 100k articles, over the 300 MB budget (docs/PARQUET.md). */
export const ROW_GROUP_ROWS = 500;

/** `sentiment.overall.score` → `sentiment_overall_score`; repeats get a `_2` suffix. */
export function parquetNames(columns: readonly Column[]): string[] {
  const used = new Set<string>();
  return columns.map((c) => {
    const base = c.name.replace(/[.\s]/g, '_');
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base}_${n}`;
    used.add(name);
    return name;
  });
}

interface SchemaElement {
  name: string;
  type?: 'BOOLEAN' | 'INT64' | 'DOUBLE' | 'BYTE_ARRAY';
  converted_type?: 'UTF8' | 'TIMESTAMP_MILLIS';
  logical_type?: { type: 'TIMESTAMP'; isAdjustedToUTC: boolean; unit: 'MILLIS' };
  repetition_type?: 'OPTIONAL';
  num_children?: number;
}

function element(name: string, type: ColumnType): SchemaElement {
  switch (type) {
    case 'int':
      return { name, type: 'INT64', repetition_type: 'OPTIONAL' };
    case 'float':
      return { name, type: 'DOUBLE', repetition_type: 'OPTIONAL' };
    case 'bool':
      return { name, type: 'BOOLEAN', repetition_type: 'OPTIONAL' };
    case 'timestamp':
      return {
        name,
        type: 'INT64',
        converted_type: 'TIMESTAMP_MILLIS',
        logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' },
        repetition_type: 'OPTIONAL',
      };
    case 'string':
    case 'json':
      return { name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' };
  }
}

type Value = bigint | number | boolean | string | null;

/** Converts a cell to the column's physical value; what does not fit becomes null (and is counted). */
function converter(type: ColumnType, misfit: () => void): (c: Cell) => Value {
  switch (type) {
    case 'int':
      return (c) => {
        if (c === null) return null;
        const n = typeof c === 'number' ? c : typeof c === 'string' ? Number(c) : Number.NaN;
        if (Number.isSafeInteger(n)) return BigInt(n);
        misfit();
        return null;
      };
    case 'float':
      return (c) => {
        if (c === null) return null;
        const n = typeof c === 'number' ? c : typeof c === 'string' ? Number(c) : Number.NaN;
        if (Number.isFinite(n)) return n;
        misfit();
        return null;
      };
    case 'bool':
      return (c) => {
        if (c === null) return null;
        if (typeof c === 'boolean') return c;
        misfit();
        return null;
      };
    case 'timestamp':
      return (c) => {
        if (c === null) return null;
        const t = typeof c === 'string' ? Date.parse(c) : Number.NaN;
        if (Number.isFinite(t)) return BigInt(t);
        misfit();
        return null;
      };
    case 'string':
    case 'json':
      return (c) => (c === null ? null : String(c));
  }
}

/**
 * A hyparquet Writer that hands its bytes to the sink: `ensure` moves full
 * 1 MB chunks aside, `flush` (called after each row group) writes them and
 * waits for the sink, which is how backpressure reaches the encoder.
 */
async function sinkWriter(sink: Sink): Promise<import('hyparquet-writer').Writer> {
  const { ByteWriter } = await import('hyparquet-writer');
  const CHUNK = 1024 * 1024;
  const pending: Uint8Array[] = [];
  const writer = new ByteWriter(CHUNK * 2);
  const park = (): void => {
    if (writer.index === 0) return;
    pending.push(new Uint8Array(writer.buffer.slice(0, writer.index)));
    writer.index = 0;
  };
  const baseEnsure = writer.ensure.bind(writer);
  writer.ensure = (size: number): void => {
    if (writer.index > CHUNK) park();
    baseEnsure(size);
  };
  const drain = async (): Promise<void> => {
    park();
    while (pending.length > 0) await sink.write(pending.shift()!);
  };
  return Object.assign(writer, { flush: drain, finish: drain });
}

export async function createParquetWriter(ctx: WriterContext): Promise<FormatWriter> {
  const { ParquetWriter } = await import('hyparquet-writer');
  const columns = ctx.columns;
  const names = parquetNames(columns);
  const schema: SchemaElement[] = [
    { name: 'root', num_children: columns.length },
    ...columns.map((c, i) => element(names[i]!, c.type)),
  ];
  const writer = new ParquetWriter({
    writer: await sinkWriter(ctx.sink),
    schema,
    codec: 'SNAPPY',
    createdBy: 'news CLI (hyparquet-writer)',
    kvMetadata: [
      {
        key: 'news.columns',
        value: JSON.stringify(columns.map((c, i) => ({ name: names[i], path: c.name }))),
      },
    ],
  });
  let misfits = 0;
  const convert = columns.map((c) => converter(c.type, () => void misfits++));
  const cells = columns.map(cellReader);
  let data: Value[][] = columns.map(() => []);
  let buffered = 0;

  const writeGroup = async (): Promise<void> => {
    if (buffered === 0) return;
    const columnData = columns.map((_, i) => ({ name: names[i]!, data: data[i]! }));
    data = columns.map(() => []);
    const rows = buffered;
    buffered = 0;
    await writer.write({ columnData, rowGroupSize: rows });
  };

  return {
    async writePage(records) {
      for (const r of records) {
        for (let i = 0; i < columns.length; i++) data[i]!.push(convert[i]!(cells[i]!(r)));
        if (++buffered >= ROW_GROUP_ROWS) await writeGroup();
      }
    },
    async finish() {
      await writeGroup();
      await writer.finish();
      if (misfits > 0) {
        ctx.warn(
          `parquet: ${misfits} value${misfits === 1 ? '' : 's'} did not fit the column type and were written as null`,
        );
      }
    },
  };
}
