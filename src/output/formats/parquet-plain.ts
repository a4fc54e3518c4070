/**
 * Parquet the plain way, used when the fast paths are off (fast-paths.ts):
 * each row group's cells as JS values, column by column, handed to
 * hyparquet-writer's public `ParquetWriter`, which chooses the encodings,
 * writes the pages (its own JavaScript Snappy) and the footer. The file has
 * the schema, row groups, statistics and metadata of the column-store writer
 * (parquet.ts and fast/parquet/), and reads back as the same rows; its bytes
 * differ (another Snappy, other page boundaries). Slower and hungrier than
 * the column store: the yardstick it is tested against.
 */
import type { Column, ColumnType } from '../columns.js';
import type { FormatWriter, WriterContext } from '../format-writer.js';
import type { Cell } from '../flatten.js';
import { cellReader } from '../flatten.js';
import { HAS_STATISTICS, ROW_GROUP_ROWS, fileMetadata, schemaOf, sinkWriter } from './parquet.js';

type Value = bigint | number | boolean | string | null;

/** A number of the cell, or NaN. */
function numberOf(c: Cell): number {
  return typeof c === 'number' ? c : typeof c === 'string' ? Number(c) : Number.NaN;
}

/**
 * A cell as the column's type takes it; undefined when it does not fit (it is
 * then written as null, and counted). The column store's rules (fast/parquet/columns.ts).
 */
function typedValue(type: ColumnType, c: Cell): Value | undefined {
  if (c === null) return null;
  switch (type) {
    case 'int': {
      const n = numberOf(c);
      return Number.isSafeInteger(n) ? BigInt(n) : undefined;
    }
    case 'float': {
      const n = numberOf(c);
      return Number.isFinite(n) ? n : undefined;
    }
    case 'timestamp': {
      const n = typeof c === 'string' ? Date.parse(c) : Number.NaN;
      return Number.isFinite(n) ? BigInt(n) : undefined;
    }
    case 'bool':
      return typeof c === 'boolean' ? c : undefined;
    case 'string':
    case 'json':
      return String(c);
  }
}

export async function createPlainParquetWriter(ctx: WriterContext): Promise<FormatWriter> {
  const { ByteWriter, ParquetWriter } = await import('hyparquet-writer');
  const columns: readonly Column[] = ctx.columns;
  const schema = schemaOf(columns);
  const names = schema.slice(1).map((e) => e.name);
  const cells = columns.map(cellReader);
  const parquet = new ParquetWriter({
    writer: sinkWriter(ctx.sink, ByteWriter),
    schema: schema as ConstructorParameters<typeof ParquetWriter>[0]['schema'],
    codec: 'SNAPPY',
    ...fileMetadata(columns),
  });
  let group: Value[][] = columns.map(() => []);
  let rows = 0;
  let misfits = 0;

  const flush = async (): Promise<void> => {
    if (rows === 0) return;
    const columnData = columns.map((c, i) => ({
      name: names[i]!,
      data: group[i]!,
      statistics: HAS_STATISTICS[c.type],
    }));
    group = columns.map(() => []);
    const size = rows;
    rows = 0;
    await parquet.write({ columnData, rowGroupSize: size });
  };

  return {
    async writePage(records) {
      for (const record of records) {
        for (let i = 0; i < columns.length; i++) {
          const value = typedValue(columns[i]!.type, cells[i]!(record));
          if (value === undefined) misfits++;
          group[i]!.push(value ?? null);
        }
        if (++rows >= ROW_GROUP_ROWS) await flush();
      }
    },
    async finish() {
      await flush();
      await parquet.finish();
      if (misfits > 0) {
        ctx.warn(
          `parquet: ${misfits} value${misfits === 1 ? '' : 's'} did not fit the column type and were written as null`,
        );
      }
    },
  };
}
