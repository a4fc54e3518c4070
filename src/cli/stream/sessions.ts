/** `news stream sessions` and `news stream sessions close ID`. Loaded with import(). */
import { UsageError } from '../../api/errors.js';
import { recordsOf } from '../lists/list-runner.js';
import type { Runtime } from '../runtime/runtime.js';
import { exportList } from '../export/single-record.js';

const PATH = '/v1/news/stream/sessions';

/** The fields of a session (docs/STREAMS.md): the header of an empty `-f table` or csv. */
const SESSION_FIELDS = [
  'session_id',
  'transport',
  'opened_at',
  'filters',
  'events_sent',
  'last_event_id',
];

export async function listSessions(runtime: Runtime): Promise<void> {
  const response = await runtime.send<unknown>({ method: 'GET', path: PATH });
  if (response === null) return;
  await exportList(runtime, recordsOf(response.body), 'generic', 'news stream sessions', {
    emptyColumns: SESSION_FIELDS,
  });
}

export async function closeSession(id: string, runtime: Runtime): Promise<void> {
  if (id.trim() === '') throw new UsageError('the session id must not be empty');
  const response = await runtime.send<Record<string, unknown>>({
    method: 'DELETE',
    path: PATH,
    query: { session_id: id.trim() },
  });
  if (response === null) return;
  runtime.report.notice(`closed stream session ${id.trim()}`);
}
