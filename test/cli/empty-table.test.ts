/**
 * An empty result in a table printed the header alone. A note on
 * stderr says so, with the command's noun, as `gh` does: for the table
 * format (a terminal's default, or -f table anywhere), never in a json or
 * jsonl pipeline.
 */
import { describe, expect, it } from 'vitest';
import { emptyTableNote } from '../../src/output/formats/table-empty.js';
import { runCli } from '../helpers/cli.js';

const NONE = ['--title', 'zzqqxx nothing'];
const notes = (stderr: string) => stderr.split('\n').filter((l) => !l.includes('built-in mock'));

describe('an empty table', () => {
  it('says "0 articles matched" on stderr, the header on stdout', async () => {
    for (const options of [{ tty: 100 }, {}]) {
      const r = await runCli(['search', '--mock', ...NONE, '-f', 'table'], options);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^published\s+source\s+lang\s+title\s+id\n$/);
      expect(notes(r.stderr)).toEqual(['note: 0 articles matched', '']);
    }
    // A terminal's default format is the table.
    const tty = await runCli(['search', '--mock', ...NONE], { tty: 100 });
    expect(notes(tty.stderr)).toContain('note: 0 articles matched');
  });

  it('names what the command lists', async () => {
    const people = await runCli(['people', '--mock', '--name', 'zzqqxx', '-f', 'table']);
    expect(notes(people.stderr)).toContain('note: 0 people matched');
    const sessions = await runCli(['stream', 'sessions', '--mock', '-f', 'table']);
    expect(notes(sessions.stderr)).toContain('note: no open stream sessions');
    expect(emptyTableNote('article', 'news convert saved.jsonl')).toBe('0 records in the input');
    expect(emptyTableNote('generic', 'news suggest entities zz')).toBeUndefined();
    // Facets (generic rows of a search) are said where they are read.
    expect(emptyTableNote('generic', 'news search --facets-only')).toBeUndefined();
  });

  it('says nothing in a json or jsonl pipeline, to a file, or with -q', async () => {
    for (const format of ['json', 'jsonl', 'csv']) {
      const r = await runCli(['search', '--mock', ...NONE, '-f', format]);
      expect(r.code).toBe(0);
      expect(r.stderr, format).not.toContain('matched');
    }
    const quiet = await runCli(['search', '--mock', ...NONE, '-f', 'table', '-q']);
    expect(quiet.stderr).toBe('');
  });
});
