/**
 * The parts of hyparquet-writer that are not its public API, as our Parquet
 * column-store writer uses them (src/output/fast/hyparquet-internals.ts):
 * an upgrade that moves, renames or changes one of them fails here, by
 * name, before it shows up as an unreadable file. The bytes below were
 * written by hyparquet-writer 0.17.0; the round trips through DuckDB and
 * hyparquet (parquet-pages.test.ts, parquet-footer.test.ts) check that they
 * are right, this file checks that they did not change.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  HYPARQUET_WRITER_VERSION,
  type PageHeader,
  loadByteWriter,
  loadFooterInternals,
  loadPageInternals,
} from '../../src/output/fast/hyparquet-internals.js';

const hex = (bytes: Uint8Array | ArrayBuffer) => Buffer.from(new Uint8Array(bytes)).toString('hex');

describe('hyparquet-writer internals', () => {
  it('the installed and the pinned version are the one the adapter was written for', () => {
    const root = new URL('../../', import.meta.url);
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(pkg.dependencies['hyparquet-writer']).toBe(HYPARQUET_WRITER_VERSION);
    // The package's exports map hides its package.json from require.resolve.
    const installed = JSON.parse(
      readFileSync(new URL('node_modules/hyparquet-writer/package.json', root), 'utf8'),
    ) as { version: string };
    expect(installed.version).toBe(HYPARQUET_WRITER_VERSION);
  });

  it('ByteWriter: the fields and methods the sink writer and the page writer use', async () => {
    const ByteWriter = await loadByteWriter();
    const w = new ByteWriter(8);
    expect([w.index, w.offset, w.buffer.byteLength]).toEqual([0, 0, 8]);
    for (const method of ['ensure', 'appendUint8', 'appendUint32', 'appendVarInt', 'appendBytes'])
      expect(typeof (w as unknown as Record<string, unknown>)[method], method).toBe('function');
    // `ensure` is the hook the sink writer overrides: every append goes through it.
    const sizes: number[] = [];
    const ensure = w.ensure.bind(w);
    w.ensure = (size: number) => {
      sizes.push(size);
      ensure(size);
    };
    w.appendUint32(0x31524150);
    w.appendBytes(new Uint8Array(10));
    expect(sizes).toEqual([4, 10]);
    expect([w.index, w.offset, w.buffer.byteLength]).toEqual([14, 14, 16]);
    expect(hex(w.buffer.slice(0, 4))).toBe('50415231');
  });

  it('the page writer: writePageHeader and writeRleBitPackedHybrid, same arity, same bytes', async () => {
    const { ByteWriter, writePageHeader, writeRleBitPackedHybrid } = await loadPageInternals();
    expect([writePageHeader.length, writeRleBitPackedHybrid.length]).toEqual([2, 3]);
    const rle = new ByteWriter();
    expect(writeRleBitPackedHybrid(rle, [1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1], 1)).toBe(4);
    expect(hex(rle.getBytes())).toBe('1001030a');
    const header = new ByteWriter();
    writePageHeader(header, {
      type: 'DATA_PAGE_V2',
      uncompressed_page_size: 10,
      compressed_page_size: 8,
      data_page_header_v2: {
        num_values: 3,
        num_nulls: 1,
        num_rows: 3,
        encoding: 'PLAIN',
        definition_levels_byte_length: 2,
        repetition_levels_byte_length: 0,
        is_compressed: true,
      },
    } as PageHeader);
    expect(hex(header.getBytes())).toBe('1506151415105c1506150215061500150415000000');
  });

  it('the footer: writeMetadata and writeIndexes, same arity, same bytes, offsets set on the chunk', async () => {
    const { ByteWriter, writeIndexes, writeMetadata } = await loadFooterInternals();
    expect([writeIndexes.length, writeMetadata.length]).toEqual([2, 3]);
    const meta = new ByteWriter();
    writeMetadata(meta, {
      version: 2,
      created_by: 't',
      schema: [
        { name: 'root', num_children: 1 },
        { name: 'a', type: 'INT64', repetition_type: 'OPTIONAL' },
      ],
      num_rows: 0n,
      row_groups: [],
      key_value_metadata: [{ key: 'k', value: 'v' }],
    } as unknown as Parameters<typeof writeMetadata>[1]);
    expect(hex(meta.getBytes())).toBe(
      '1504192c4804726f6f74150200150425021801610016001900191c18016b18017600180174191c1c0000002b000000',
    );
    const indexes = new ByteWriter();
    indexes.appendUint8(0);
    const chunk = {} as Record<string, unknown>;
    writeIndexes(indexes, [
      {
        chunk,
        offsetIndex: {
          page_locations: [
            { offset: 4n, compressed_page_size: 10, first_row_index: 0n },
            { offset: 14n, compressed_page_size: 12, first_row_index: 5n },
          ],
        },
      },
    ] as unknown as Parameters<typeof writeIndexes>[1]);
    expect(hex(indexes.getBytes())).toBe('00192c16081514160000161c1518160a0000');
    expect(chunk).toEqual({ offset_index_offset: 1n, offset_index_length: 17 });
  });
});
