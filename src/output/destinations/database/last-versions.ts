/**
 * What a merge writes of a batch: each id's last version, once, in the
 * order the records came (PostgreSQL's ON CONFLICT refuses a row twice in
 * one statement, and the last version of an id in a batch wins). Ids are
 * compared as the BIGINT column holds them: 42 and "42" are one id.
 */
import type { ApiRecord } from '../../types.js';

/** An id as the merge compares it: 42 and "42" are one BIGINT. */
function idKey(id: unknown): unknown {
  if (typeof id === 'number' && Number.isSafeInteger(id)) return BigInt(id);
  if (typeof id === 'string' && /^-?\d{1,19}$/.test(id)) return BigInt(id);
  return id;
}

/** Each id's last version, in the order they came; the batch itself when no id repeats. */
export function lastVersions(records: readonly ApiRecord[]): readonly ApiRecord[] {
  const seen = new Set<unknown>();
  const kept: ApiRecord[] = [];
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i] as ApiRecord;
    const id = record['id'];
    if (id !== undefined && id !== null) {
      const key = idKey(id);
      if (seen.has(key)) continue;
      seen.add(key);
    }
    kept.push(record);
  }
  return kept.length === records.length ? records : kept.reverse();
}
