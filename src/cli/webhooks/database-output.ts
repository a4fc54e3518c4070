/**
 * `webhooks listen -o postgres://…` (or `duckdb:`): each delivery is one
 * batch, committed before the receiver answers the delivery, so a delivery
 * the sender saw accepted is in the table.
 */
import type { ApiRecord, FormatName } from '../../output/types.js';
import { openSession } from '../export/database-export.js';
import type { Runtime } from '../runtime/runtime.js';

/** output.ts's RecordStream, as a table fills it (declared here: output.ts imports this file). */
export interface TableRecordStream {
  readonly format: FormatName;
  readonly broken: boolean;
  readonly takesRaw: boolean;
  write(records: readonly ApiRecord[]): Promise<void>;
  writeRaw(articles: readonly Uint8Array[]): Promise<void>;
  close(): Promise<void>;
}

/** The table deliveries go into; undefined when -o is not a database. */
export async function databaseRecordStream(
  runtime: Runtime,
  format: FormatName,
): Promise<TableRecordStream | undefined> {
  const output = runtime.settings.output;
  if (output === undefined || output === '-') return undefined;
  const { resolveDestination } = await import('../../output/destinations/registry.js');
  const destination = resolveDestination(output);
  if (destination.kind !== 'database') return undefined;
  const session = await openSession(runtime, destination, 'article');
  let closed = false;
  let records = 0;
  return {
    format,
    broken: false,
    takesRaw: false,
    async write(batch) {
      if (closed || batch.length === 0) return;
      await session.writeBatch(batch);
      records += batch.length;
    },
    async writeRaw() {
      throw new Error('a database takes records, not raw lines');
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await session.finish();
      } finally {
        await session.close();
      }
      runtime.report.notice(`wrote ${records} records to ${session.describe}`);
    },
  };
}
