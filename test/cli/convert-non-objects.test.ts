/** `convert` never drops a record silently; a non-object is refused with its line. */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

describe('convert and records that are not objects', () => {
  it.each([
    ['an array in an array', '[[1,2],{"id":1}]', 1],
    ['a nested array of records', '[[{"id":1}]]', 1],
    ['a string', '["a",{"id":1}]', 1],
    ['null, pretty-printed', '[\n  {"id": 1},\n  null\n]', 3],
    ['an array line in JSONL', '{"id":1}\n[1,2]\n', 2],
    ['a string in an envelope', '{"meta":1,"results":["x",{"id":1}]}', 1],
    ['an array in an envelope', '{"results":[[1],{"id":1}]}', 1],
  ])('%s: exit 2 naming the line, nothing written', async (_name, input, line) => {
    for (const format of ['jsonl', 'csv']) {
      const r = await runCli(['convert', '-', '-f', format], { stdin: input });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(
          `^error: cannot read the input: records must be JSON objects.*line ${line}\\)$`,
          'm',
        ),
      );
      expect(r.stdout).toBe('');
    }
  });

  it('objects still convert', async () => {
    const r = await runCli(['convert', '-', '-f', 'jsonl'], { stdin: '[{"id":1},{"id":2}]' });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{"id":1}\n{"id":2}\n');
  });
});
