/**
 * A reader of the repository has no issue tracker: the why is said in
 * words, never as a tracker's number. Every tracked text file but the
 * lock file is searched.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('no ticket numbers', () => {
  it('no file cites an issue or pull request by number', () => {
    let found = '';
    try {
      found = execFileSync(
        'git',
        [
          'grep',
          '-n',
          '-I',
          '-E',
          String.raw`[Ii]ssues? #?[0-9]{1,3}\b|\(#[0-9]{1,3}\)`,
          '--',
          '.',
          ':!package-lock.json',
        ],
        { cwd: new URL('../', import.meta.url), encoding: 'utf8' },
      );
    } catch (error) {
      // git grep exits 1 when nothing matches.
      if ((error as { status?: number }).status !== 1) throw error;
    }
    expect(found.split('\n').filter(Boolean)).toEqual([]);
  });
});
