import type { ExportOptions } from '../../output/export.js';
import type { ApiRecord, RecordKind } from '../../output/types.js';
import { exportPages } from './export-pages.js';
import { chooseFormat } from './export-pages.js';
import type { Runtime } from '../runtime/runtime.js';
import type { DatabaseExportOptions } from './database-export.js';
import { thousands } from '../../output/text.js';

/** Exports an in-memory list (a response that is one array) in the chosen format. */
export async function exportList(
  runtime: Runtime,
  records: readonly ApiRecord[],
  kind: RecordKind,
  title: string,
  extra: Pick<ExportOptions, 'emptyColumns'> & Pick<DatabaseExportOptions, 'tableKind'> = {},
): Promise<void> {
  async function* once(): AsyncGenerator<readonly ApiRecord[]> {
    yield records;
  }
  await exportPages(runtime, once(), kind, title, runtime.settings.output, extra);
}

/**
 * One object (balance, a profile header): `key: value` lines on a terminal, a JSON
 * object otherwise (and with -f json), any other format as a one-record list.
 */
export async function writeSingle(
  runtime: Runtime,
  record: ApiRecord,
  title: string,
  order: readonly string[] = [],
  tableKind?: RecordKind | 'count',
): Promise<void> {
  const { fields } = runtime.settings;
  const take = runtime.recordsTo;
  if (take !== undefined && runtime.settings.output === undefined) {
    return take([fields === undefined ? record : await projectOne(record, fields)], 'generic');
  }
  const format = await chooseFormat(runtime);
  if (format === 'json' && runtime.settings.output === undefined) {
    // One object stays one object with --fields: `people get 42 --fields id,name | jq .name`.
    const shaped = fields === undefined ? record : await projectOne(record, fields);
    return runtime.write(`${JSON.stringify(shaped, null, 2)}\n`);
  }
  if (
    format === 'table' &&
    runtime.settings.output === undefined &&
    runtime.settings.fields === undefined
  ) {
    const keys = [
      ...order.filter((k) => k in record),
      ...Object.keys(record).filter((k) => !order.includes(k)),
    ];
    const width = Math.max(...keys.map((k) => k.length));
    const lines = keys.map((k) => {
      const value = record[k];
      const text =
        typeof value === 'number'
          ? thousands(value)
          : typeof value === 'string'
            ? value
            : JSON.stringify(value);
      return `${k.padEnd(width)}  ${text}`;
    });
    return runtime.write(`${lines.join('\n')}\n`);
  }
  return exportList(
    runtime,
    [record],
    'generic',
    title,
    tableKind === undefined ? {} : { tableKind },
  );
}

/** `--fields` applied to one object, with the same names and checks as a list export. */
async function projectOne(record: ApiRecord, fields: readonly string[]): Promise<ApiRecord> {
  const [{ inferColumns, selectColumns }, { projectRecord }] = await Promise.all([
    import('../../output/columns.js'),
    import('../../output/flatten.js'),
  ]);
  return projectRecord(record, selectColumns(inferColumns([record]), fields));
}
