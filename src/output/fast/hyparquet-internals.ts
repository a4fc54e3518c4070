/**
 * Every use of hyparquet-writer's internals, in one place. Our Parquet
 * column-store writer (fast/parquet/) writes its own pages and footer, and
 * borrows from hyparquet-writer what its public API does not export: the
 * thrift page header, the RLE/bit-packed hybrid encoder, the page indexes
 * and the file metadata; and it loads `ByteWriter` from its own file, which
 * the package's entry point would load with all of hyparquet (~35 ms) before
 * a worker could start. None of this is covered by the package's semver, so
 * the version is pinned exactly in package.json and
 * test/output/hyparquet-internals.test.ts fails the day an upgrade changes
 * the version, a function's arity or the bytes it writes.
 *
 * Everything here is loaded with `import()`: the page writer needs only its
 * half (workers never load the footer's, which loads hyparquet).
 */
import type { ByteWriter } from 'hyparquet-writer';

/** The version these internals were read from (package.json pins it exactly). */
export const HYPARQUET_WRITER_VERSION = '0.17.0';

export type ByteWriterClass = typeof ByteWriter;
type DataPage = typeof import('hyparquet-writer/src/datapage.js');
type Encoding = typeof import('hyparquet-writer/src/encoding.js');
type Indexes = typeof import('hyparquet-writer/src/indexes.js');
type Metadata = typeof import('hyparquet-writer/src/metadata.js');

/** A data or dictionary page's thrift header, as hyparquet-writer types it. */
export type PageHeader = Parameters<DataPage['writePageHeader']>[1];
/** The file metadata `writeMetadata` serializes. */
export type FileMetadata = Parameters<Metadata['writeMetadata']>[1];

/** What the column-chunk writer (fast/parquet/pages.ts) borrows. */
export interface PageInternals {
  readonly ByteWriter: ByteWriterClass;
  readonly writePageHeader: DataPage['writePageHeader'];
  readonly writeRleBitPackedHybrid: Encoding['writeRleBitPackedHybrid'];
}

/** What the footer (fast/parquet/footer.ts) borrows. */
export interface FooterInternals {
  readonly ByteWriter: ByteWriterClass;
  readonly writeIndexes: Indexes['writeIndexes'];
  readonly writeMetadata: Metadata['writeMetadata'];
}

/** `ByteWriter` alone, from its own file (no other module of the package is loaded). */
export async function loadByteWriter(): Promise<ByteWriterClass> {
  return (await import('hyparquet-writer/src/bytewriter.js')).ByteWriter;
}

export async function loadPageInternals(): Promise<PageInternals> {
  const [ByteWriter, { writePageHeader }, { writeRleBitPackedHybrid }] = await Promise.all([
    loadByteWriter(),
    import('hyparquet-writer/src/datapage.js'),
    import('hyparquet-writer/src/encoding.js'),
  ]);
  return { ByteWriter, writePageHeader, writeRleBitPackedHybrid };
}

export async function loadFooterInternals(): Promise<FooterInternals> {
  const [ByteWriter, { writeIndexes }, { writeMetadata }] = await Promise.all([
    loadByteWriter(),
    import('hyparquet-writer/src/indexes.js'),
    import('hyparquet-writer/src/metadata.js'),
  ]);
  return { ByteWriter, writeIndexes, writeMetadata };
}
