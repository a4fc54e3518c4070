/**
 * XLSX through exceljs's streaming WorkbookWriter (never the in-memory
 * Workbook: it corrupts emoji and cannot hold 100k rows). Inline strings, no
 * shared-strings table, rows committed as they come.
 *
 * exceljs ignores backpressure: the worksheet's bytes pile up in the zip
 * entry's PassThrough when the destination is slower than we are (1.4 GB at
 * 100k rows in the measurements). We therefore wait while that buffer is over
 * 8 MiB. This reaches into exceljs internals, which is why exceljs is pinned
 * at 4.4.0.
 */
import type { Writable } from 'node:stream';
import type { Column } from '../columns.js';
import type { FormatWriter, WriterContext } from '../format-writer.js';
import { rowReader } from '../flatten.js';
import type { Cell } from '../flatten.js';
import { neutraliseFormula, truncateWithMarker } from '../text.js';

/** Excel's documented maximum number of characters in one cell. */
export const XLSX_CELL_LIMIT = 32_767;
export const TRUNCATION_MARKER = '…[truncated]';
const THROTTLE_BYTES = 8 * 1024 * 1024;
const THROTTLE_EVERY = 50;
export const DATE_FORMAT = 'yyyy-mm-dd hh:mm:ss';

const WIDE = new Set(['title', 'description', 'body', 'name', 'profile.bio_summary']);

function width(c: Column): number {
  if (WIDE.has(c.name)) return 60;
  switch (c.type) {
    case 'timestamp':
      return 20;
    case 'int':
      return c.name === 'id' || c.name.endsWith('.id') ? 14 : 10;
    case 'float':
      return 10;
    case 'bool':
      return 8;
    case 'json':
      return 30;
    case 'string':
      return Math.min(Math.max(c.name.length + 2, 14), 40);
  }
}

/**
 * A worksheet name Excel accepts: no []:*?/\, no ' at either end, at most 31
 * characters. Each run of those and of white space becomes one space
 * (`news /v1/people` → `news v1 people`, not `news  v1 people`).
 */
export function sheetName(title: string | undefined, fallback: string): string {
  const clean = (s: string) => s.replace(/[\s[\]:*?/\\]+/g, ' ').replace(/^[\s']+|[\s']+$/g, '');
  return clean(clean(title ?? '').slice(0, 31)) || fallback;
}

type EntryStream = Writable & { _writableState?: { length?: number } };

interface StreamingSheet {
  stream?: { pipes?: EntryStream[] };
}

function zipEntryBuffer(sheet: unknown): EntryStream | undefined {
  return (sheet as StreamingSheet).stream?.pipes?.[0];
}

/** Bytes waiting in the entry; archiver's PassThrough comes from readable-stream 2, which has no writableLength. */
function buffered(entry: EntryStream): number {
  return entry.writableLength ?? entry._writableState?.length ?? 0;
}

export async function createXlsxWriter(ctx: WriterContext): Promise<FormatWriter> {
  const ExcelJS = (await import('exceljs')).default;
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: ctx.sink.asWritable(),
    useStyles: true,
    useSharedStrings: false,
  });
  const fallback =
    ctx.kind === 'article' ? 'articles' : ctx.kind === 'generic' ? 'records' : ctx.kind;
  const sheet = workbook.addWorksheet(sheetName(ctx.title, fallback), {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  sheet.columns = ctx.columns.map((c, i) => ({
    header: c.name,
    key: String(i),
    width: width(c),
    ...(c.type === 'timestamp' ? { style: { numFmt: DATE_FORMAT } } : {}),
  }));
  sheet.getRow(1).font = { bold: true };
  const types = ctx.columns.map((c) => c.type);
  // One style object per column, given to each of its cells: exceljs caches a
  // style's id by object, but makes every cell a fresh style object of its
  // own and so rendered each cell's style to XML to look its id up (~17 % of
  // the time). The sheet's bytes are the same.
  const styles = ctx.columns.map((c) => (c.type === 'timestamp' ? { numFmt: DATE_FORMAT } : {}));
  const row = rowReader(ctx.columns);
  let truncated = 0;
  let rows = 0;

  const value = (cell: Cell, i: number): string | number | boolean | Date | null => {
    if (cell === null) return null;
    if (types[i] === 'timestamp' && typeof cell === 'string') {
      const d = new Date(cell);
      return Number.isNaN(d.getTime()) ? cell : d;
    }
    if (typeof cell !== 'string') return cell;
    let s = ctx.sanitize ? neutraliseFormula(cell) : cell;
    if (s.length > XLSX_CELL_LIMIT) {
      truncated++;
      s = truncateWithMarker(s, XLSX_CELL_LIMIT, TRUNCATION_MARKER);
    }
    return s;
  };

  const throttle = async (): Promise<void> => {
    const entry = zipEntryBuffer(sheet);
    while (entry !== undefined && buffered(entry) > THROTTLE_BYTES && !ctx.sink.broken) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          entry.removeListener('drain', done);
          resolve();
        };
        // 'drain' only fires when a write returned false; the timer covers the rest.
        const timer = setTimeout(done, 20);
        entry.once('drain', done);
      });
    }
  };

  return {
    async writePage(records) {
      for (const r of records) {
        const added = sheet.addRow(row(r).map(value));
        for (let i = 0; i < styles.length; i++) added.getCell(i + 1).style = styles[i]!;
        added.commit();
        if (++rows % THROTTLE_EVERY === 0) await throttle();
      }
    },
    async finish() {
      sheet.commit();
      await workbook.commit();
      if (truncated > 0) {
        ctx.warn(
          `xlsx: ${truncated} cell${truncated === 1 ? '' : 's'} longer than ${XLSX_CELL_LIMIT.toLocaleString('en')} characters (Excel's limit) cut, marked "${TRUNCATION_MARKER}"`,
        );
      }
    },
  };
}
