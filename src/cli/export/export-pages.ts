import type { ExportOptions, ExportResult } from '../../output/export.js';
import type { PageSource } from '../../output/format-writer.js';
import { UsageError } from '../../api/errors.js';
import type { ApiRecord, FormatName, RecordKind } from '../../output/types.js';
import { counted } from '../runtime/reporter.js';
import type { Runtime } from '../runtime/runtime.js';
import type { DatabaseExportOptions } from './database-export.js';

/** Chooses the format: -f, else the -o extension, else table on a terminal and json in a pipe. */
export async function chooseFormat(
  runtime: Runtime,
  output: string | undefined = runtime.settings.output,
): Promise<FormatName> {
  const { format } = runtime.settings;
  if (format !== undefined) return format;
  if (output !== undefined && output !== '-') {
    const { resolveDestination } = await import('../../output/destinations/registry.js');
    // A database takes records, in no format: the pages are read as for jsonl.
    if (resolveDestination(output).kind === 'database') return 'jsonl';
    const { formatFromPath } = await import('../../output/index.js');
    const fromPath = formatFromPath(output);
    if (fromPath === undefined) {
      // A directory (`-o /tmp`) or a path that cannot be written says so, not that the name has no extension.
      const { resolveOutputTarget } = await import('../../output/atomic-file-sink.js');
      await resolveOutputTarget(output);
      throw new UsageError(`cannot tell the format from the file name "${output}"`, {
        hint: 'name the format with -f, e.g. -f csv',
      });
    }
    return fromPath;
  }
  return runtime.io.stdout.isTTY ? 'table' : 'json';
}

/**
 * The width tables and cards lay out for: `COLUMNS` when set (so a pipe or a
 * log can ask for a width, as `ls` allows), else the terminal's, else 80. A
 * terminal that reports 0 columns (`script`, some CI consoles) counts as none.
 */
export function terminalWidth(runtime: Runtime): number {
  const fromEnv = Number(runtime.io.env['COLUMNS']);
  if (Number.isInteger(fromEnv) && fromEnv >= 20) return fromEnv;
  const tty = runtime.io.stdout.columns;
  return tty !== undefined && tty > 0 ? tty : 80;
}

/** The export options every command shares, for one destination (undefined: stdout). */
export function exportOptionsFor(
  runtime: Runtime,
  format: FormatName,
  output: string | undefined,
  kind: RecordKind,
  title: string,
): ExportOptions {
  const { settings, io } = runtime;
  return {
    format,
    output,
    stdout: io.stdout,
    stdoutIsTTY: io.stdout.isTTY === true,
    kind,
    fields: settings.fields,
    sanitize: settings.sanitize,
    terminalWidth: terminalWidth(runtime),
    tableStyle: io.env['NEWS_TABLE_STYLE'] === 'box' ? 'box' : 'plain',
    title,
    // The in-process mock has no URL a feed reader could open.
    linkBase: settings.mock ? undefined : settings.baseUrl,
    warn: (m) => runtime.report.warn(m),
    signal: runtime.signal,
  };
}

/**
 * The one path from records to stdout or a file: picks the format, passes the
 * global output settings, and reports where the records went. `output`
 * overrides -o (an expanded template, a partition file).
 */
export async function exportPages(
  runtime: Runtime,
  pages: PageSource,
  kind: RecordKind,
  title: string,
  output: string | undefined = runtime.settings.output,
  extra: Pick<ExportOptions, 'onUploaded' | 'emptyColumns'> & DatabaseExportOptions = {},
): Promise<ExportResult> {
  const take = runtime.recordsTo;
  if (take !== undefined && output === undefined) return handOver(runtime, pages, kind, take);
  if (output !== undefined && output !== '-') {
    const { resolveDestination } = await import('../../output/destinations/registry.js');
    const destination = resolveDestination(output);
    if (destination.kind === 'database') {
      const { exportToDatabase } = await import('./database-export.js');
      const records = await exportToDatabase(runtime, pages, kind, destination, extra);
      return { records, stoppedEarly: false };
    }
  }
  const format = await chooseFormat(runtime, output);
  const { exportRecords } = await import('../../output/index.js');
  const result = await exportRecords(pages, {
    ...exportOptionsFor(runtime, format, output, kind, title),
    ...extra,
  });
  if (result.stoppedEarly) runtime.stdoutClosed = true;
  if (result.path !== undefined)
    runtime.report.notice(`wrote ${counted(result.records, 'record')} to ${result.path}`);
  else runtime.report.debug(counted(result.records, 'record'));
  // A header alone reads like a failure; a pipeline of json or jsonl gets nothing added.
  if (
    format === 'table' &&
    result.path === undefined &&
    result.records === 0 &&
    !result.stoppedEarly
  ) {
    const { emptyTableNote } = await import('../../output/formats/table-empty.js');
    const note = emptyTableNote(kind, title);
    if (note !== undefined) runtime.report.notice(note);
  }
  return result;
}

/** The records to `runtime.recordsTo`, projected by `--fields` as the json format would. */
async function handOver(
  runtime: Runtime,
  pages: PageSource,
  kind: RecordKind,
  take: NonNullable<Runtime['recordsTo']>,
): Promise<ExportResult> {
  const [{ resolveColumns }, { projectRecord }, { isEncoded }] = await Promise.all([
    import('../../output/export.js'),
    import('../../output/flatten.js'),
    import('../../output/format-writer.js'),
  ]);
  let project: ((record: ApiRecord) => ApiRecord) | undefined;
  let records = 0;
  for await (const page of pages) {
    if (isEncoded(page)) throw new Error('an encoded page cannot be handed over as records');
    if (page.length === 0) continue;
    if (project === undefined) {
      const { columns, projected } = resolveColumns(kind, page, runtime.settings.fields);
      project = projected ? (r) => projectRecord(r, columns) : (r) => r;
    }
    take(page.map(project), kind);
    records += page.length;
  }
  return { records, stoppedEarly: false };
}
