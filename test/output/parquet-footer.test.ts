/**
 * The footer built group by group (fast/parquet/footer.ts) against
 * hyparquet-writer's own `ParquetWriter.finish()` over the same row groups:
 * the same bytes, with more than 14 groups (a two-byte list header) and with
 * a group whose body column spans several pages (page indexes, written at
 * the end).
 */
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { ARTICLE_COLUMNS } from '../../src/output/columns.js';
import type { EncodedPage } from '../../src/output/format-writer.js';
import { loadFooterInternals } from '../../src/output/fast/hyparquet-internals.js';
import { ParquetFooter } from '../../src/output/fast/parquet/footer.js';
import { rowGroupOf } from '../../src/output/fast/parquet/meta.js';
import type { PageIndexes, RowGroup } from '../../src/output/fast/parquet/meta.js';
import { rowGroupEncoder, schemaOf } from '../../src/output/formats/parquet.js';
import type { ApiRecord } from '../../src/output/types.js';
import { TRICKY_ARTICLES } from './tricky-records.js';

const OPTIONS = {
  schema: schemaOf(ARTICLE_COLUMNS),
  createdBy: 'test',
  kvMetadata: [{ key: 'k', value: 'v' }],
};

/** Row groups of the tricky articles; `big` makes one group's bodies span pages of 1 MB. */
async function groups(count: number, big: boolean): Promise<EncodedPage[]> {
  const encoder = await rowGroupEncoder({
    format: 'parquet',
    columns: ARTICLE_COLUMNS,
    projected: false,
    kind: 'article',
    sanitize: false,
  });
  const out: EncodedPage[] = [];
  for (let g = 0; g < count; g++) {
    const rows = big && g === 3 ? 300 : 3;
    for (let i = 0; i < rows; i++) {
      const base = TRICKY_ARTICLES[i % 4]! as ApiRecord;
      const body = big && g === 3 ? `${i} ${'x'.repeat(8000)}` : base['body'];
      encoder.add({ ...base, id: g * 1000 + i, body });
    }
    out.push(encoder.flush()!);
  }
  return out;
}

type Placed = { rowGroup: RowGroup; indexes: PageIndexes[] };

/** The pages placed one after another after PAR1, as the writer places them. */
function place(pages: EncodedPage[], add: (group: Placed) => void, writer: ByteWriter): void {
  writer.appendUint32(0x31524150);
  for (const page of pages) {
    const placed = rowGroupOf(page.parquet!, writer.offset, OPTIONS.schema.slice(1));
    writer.appendBytes(page.bytes);
    add(placed);
  }
}

async function bothWays(count: number, big: boolean): Promise<[Uint8Array, Uint8Array]> {
  const reference = new ByteWriter();
  const pw = new ParquetWriter({ writer: reference, ...OPTIONS, codec: 'SNAPPY' });
  reference.offset = 0;
  reference.index = 0; // the constructor wrote PAR1; place() writes it again
  place(
    await groups(count, big),
    ({ rowGroup, indexes }) => {
      pw.row_groups.push(rowGroup);
      pw.pendingIndexes.push(...indexes);
      pw.num_rows += rowGroup.num_rows;
    },
    reference,
  );
  pw.finish();
  const ours = new ByteWriter();
  const footer = new ParquetFooter({ ...OPTIONS, hyparquet: await loadFooterInternals() });
  place(await groups(count, big), ({ rowGroup, indexes }) => footer.add(rowGroup, indexes), ours);
  footer.write(ours);
  return [ours.getBytes(), reference.getBytes()];
}

describe('the Parquet footer, group by group', () => {
  it.each([
    ['one group', 1, false],
    ['14 groups (one-byte list header)', 14, false],
    ['20 groups (two-byte list header)', 20, false],
    ['a group with page indexes among others', 6, true],
  ])('%s: the bytes hyparquet-writer writes', async (_, count, big) => {
    const [ours, reference] = await bothWays(count, big);
    expect(ours.length).toBe(reference.length);
    expect(Buffer.from(ours).equals(Buffer.from(reference))).toBe(true);
  });

  it('the big group really has page indexes', async () => {
    const pages = await groups(6, true);
    const paged = pages.map(
      (p) => rowGroupOf(p.parquet!, 4, OPTIONS.schema.slice(1)).indexes.length > 0,
    );
    expect(paged).toEqual([false, false, false, true, false, false]);
  });
});
