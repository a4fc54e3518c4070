import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const RECORDS = '{"id":1,"title":"a"}\n{"id":2,"title":"b"}\n';

describe('news convert: where the input comes from', () => {
  it('reads piped records when no file is named', async () => {
    const r = await runCli(['convert', '-f', 'csv', '--fields', 'id,title'], { stdin: RECORDS });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('id,title\r\n1,a\r\n2,b\r\n');
  });

  it('refuses to wait on a terminal when nothing is named or piped', async () => {
    const r = await runCli(['convert', '-f', 'csv'], { stdinTty: true });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: no input: name a FILE, or pipe records in\nhint: /);
    expect(r.stdout).toBe('');
  });

  it('- reads stdin even from a terminal, on purpose', async () => {
    const r = await runCli(['convert', '-', '-f', 'jsonl'], { stdin: RECORDS, stdinTty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(RECORDS);
  });

  it('a missing file is a usage error naming it', async () => {
    const r = await runCli(['convert', 'no-such-file.jsonl', '-f', 'csv']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: cannot read no-such-file.jsonl: no such file');
  });

  it('a directory is a usage error naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'news-convert-dir-'));
    const r = await runCli(['convert', dir, '-f', 'csv']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: cannot read ${dir}: it is a directory\n`);
  });

  it('a file named with no format to tell is refused before it is read', async () => {
    const r = await runCli(['convert', 'no-such-file.jsonl', '-o', 'out.unknown']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: cannot tell the format from the file name "out.unknown"');
  });
});
