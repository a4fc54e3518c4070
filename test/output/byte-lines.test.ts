/**
 * A worker's chunk read line by line from its bytes (parallel/byte-lines.ts)
 * against the text path (a strict LineReader over the decoded chunk): the
 * same records in the same order, the same line count, mode and stop, for
 * JSON Lines, our `-f json` array, envelopes, blank lines, a byte-order mark,
 * a last line without a line end and lines that are not records, whether
 * the encoder takes a line from its bytes or declines it.
 */
import { describe, expect, it } from 'vitest';
import { LineReader } from '../../src/output/line-reader.js';
import type { LineMode } from '../../src/output/line-reader.js';
import { readByteLines } from '../../src/output/parallel/byte-lines.js';
import type { ApiRecord } from '../../src/output/types.js';

function textPath(bytes: Uint8Array, mode: LineMode) {
  const reader = new LineReader({ mode, strict: true });
  const decoder = new TextDecoder('utf-8');
  reader.feedBytes(bytes, decoder);
  reader.feed(decoder.decode());
  reader.finishLine();
  return {
    records: reader.out,
    read: { lines: reader.line - 1, mode: reader.mode, failed: reader.failed },
  };
}

/** The byte path with an encoder that takes every `take`-th line it is offered that is JSON (JSON.parse of its bytes). */
function bytePath(bytes: Uint8Array, mode: LineMode, take: number) {
  const records: ApiRecord[] = [];
  let offered = 0;
  const read = readByteLines(bytes, mode, {
    add: (rs) => records.push(...rs),
    addLine: (b, from, to, topLevel) => {
      if (offered++ % take !== 0) return false;
      let value: ApiRecord;
      try {
        value = JSON.parse(new TextDecoder().decode(b.subarray(from, to))) as ApiRecord;
      } catch {
        return false; // as the real encoder: not JSON, not taken
      }
      expect(b[to - 1]).toBe(0x7d);
      // An envelope in JSON Lines is declined by the real encoder: its records come from the text path.
      if (topLevel && Array.isArray(value['results'])) return false;
      records.push(value);
      return true;
    },
  });
  return { records, read };
}

const CASES: [string, string, LineMode][] = [
  ['JSON Lines', '{"id":1}\n{"id":2, "t":"a\\nb"}\n\n  {"id":3}  \r\n', 'lines'],
  ['the first chunk of JSON Lines', '{"id":1}\n{"id":2}\n', 'start'],
  ['a byte-order mark first', '\uFEFF{"id":1}\n{"id":2}\n', 'start'],
  ['our -f json', '[\n{"id":1},\n{"id":2} ,\n{"id":3}\n]\n', 'start'],
  ['the middle of an array', '{"id":1},\n{"id":2},\n', 'array'],
  ['the end of an array', '{"id":1}\n]\n\n', 'array'],
  ['an envelope per line', '{"results":[{"id":1},{"id":2}]}\n{"id":3}\n', 'lines'],
  ['a last line without a line end', '{"id":1}\n{"id":2}', 'lines'],
  ['a line that is not a record', '{"id":1}\n{"id": }\n{"id":3}\n', 'lines'],
  ['two records on a line', '{"id":1}\n{"id":2}{"id":3}\n', 'lines'],
  ['a record after the array', '[\n{"id":1}\n]\n{"id":2}\n', 'start'],
  ['a pretty-printed record', '{"id":1}\n{\n"id": 2\n}\n', 'lines'],
  ['an array on one line', '[{"id":1},{"id":2}]\n', 'start'],
  ['text after a record', '{"id":1} x\n', 'lines'],
  ['a comma in JSON Lines', '{"id":1},\n', 'lines'],
  // Enough lines declined that the rest of the chunk is read as text at once.
  [
    'many lines, one not a record far in',
    `${Array.from({ length: 60 }, (_, i) => (i === 45 ? '{"id": }' : `{"id":${i}}`)).join('\n')}\n`,
    'lines',
  ],
  [
    'many lines of an array',
    `[\n${Array.from({ length: 60 }, (_, i) => `{"id":${i}}`).join(',\n')}\n]\n`,
    'start',
  ],
];

describe('readByteLines', () => {
  it.each(CASES)('%s: the text path, whether lines are taken or declined', (_, input, mode) => {
    const bytes = new TextEncoder().encode(input);
    const expected = textPath(bytes, mode);
    for (const take of [1, 2, 1000]) {
      const got = bytePath(bytes, mode, take);
      expect(got.read).toEqual(expected.read);
      expect(got.records).toEqual(expected.records);
    }
  });
});
