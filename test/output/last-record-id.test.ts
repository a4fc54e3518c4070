/**
 * The id a restarted stream reads back from its file: the last complete
 * record's, in every format a stream writes as it goes; nothing from a torn
 * record, a header alone, or records without an id.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastRecord } from '../../src/output/complete-records.js';
import { csvFields, lastRecordId } from '../../src/output/last-record-id.js';
import { scratchDir } from '../helpers/scratch.js';

function file(name: string, text: string): string {
  const path = join(scratchDir('news-last-id-'), name);
  writeFileSync(path, text);
  return path;
}

describe('lastRecordId', () => {
  it('jsonl and ndjson: the last whole line, a torn one after it ignored', async () => {
    const text = '{"id":5,"title":"a"}\n{"id":7,"title":"b"}\n{"id":9,"ti';
    expect(await lastRecordId(file('a.jsonl', text), 'jsonl')).toBe('7');
    expect(await lastRecordId(file('a.ndjson', '{"id":"12"}\n'), 'ndjson')).toBe('12');
    expect(await lastRecordId(file('b.jsonl', '{"title":"no id"}\n'), 'jsonl')).toBeUndefined();
    expect(await lastRecordId(file('c.jsonl', ''), 'jsonl')).toBeUndefined();
    expect(await lastRecordId(join(scratchDir('x'), 'missing.jsonl'), 'jsonl')).toBeUndefined();
  });

  it('csv: the id column named by the header, quoted line ends inside the last record', async () => {
    const text = 'title,id\n"one",3\n"two\nlines, and ""quotes""",4\n"torn\n';
    const path = file('a.csv', text);
    expect(await lastRecord(path, 'csv')).toEqual({
      start: text.indexOf('"two'),
      end: text.indexOf('"torn'),
    });
    expect(await lastRecordId(path, 'csv')).toBe('4');
    expect(await lastRecordId(file('h.csv', 'title,id\n'), 'csv')).toBeUndefined();
    expect(await lastRecordId(file('n.csv', 'title\n"x"\n'), 'csv')).toBeUndefined();
  });

  it('tsv: the id column named by the header', async () => {
    expect(await lastRecordId(file('a.tsv', 'id\ttitle\n1\ta\n2\tb\\nc\n'), 'tsv')).toBe('2');
  });

  it('formats written at the end tell nothing', async () => {
    expect(await lastRecordId(file('a.json', '[{"id":1}]\n'), 'json')).toBeUndefined();
  });

  it('csvFields reads quoted fields as the csv writer writes them', () => {
    expect(csvFields('a,"b,c","d""e",')).toEqual(['a', 'b,c', 'd"e', '']);
  });
});
