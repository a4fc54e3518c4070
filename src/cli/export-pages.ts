import type { PageSource } from '../output/format-writer.js';
import type { RecordKind } from '../output/types.js';
import { chooseFormat } from './list-runner.js';
import type { Runtime } from './runtime.js';

/**
 * The one path from records to stdout or a file: picks the format, passes the
 * global output settings, and reports where the records went.
 */
export async function exportPages(
  runtime: Runtime,
  pages: PageSource,
  kind: RecordKind,
  title: string,
): Promise<void> {
  const format = await chooseFormat(runtime);
  const { exportRecords } = await import('../output/index.js');
  const { settings, io } = runtime;
  const result = await exportRecords(pages, {
    format,
    output: settings.output,
    stdout: io.stdout,
    stdoutIsTTY: io.stdout.isTTY === true,
    kind,
    fields: settings.fields,
    sanitize: settings.sanitize,
    terminalWidth: io.stdout.columns,
    title,
    warn: (m) => runtime.report.warn(m),
    signal: runtime.signal,
  });
  if (result.stoppedEarly) runtime.stdoutClosed = true;
  if (result.path !== undefined)
    runtime.report.notice(`wrote ${result.records} records to ${result.path}`);
  else runtime.report.debug(`${result.records} records`);
}
