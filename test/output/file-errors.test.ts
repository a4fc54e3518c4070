/**
 * The one mapping from Node's errno codes to plain words and a hint
 * (src/output/file-errors.ts), as a table; the paths that use it are
 * checked in test/cli/file-errors.test.ts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NewsError, UsageError } from '../../src/api/errors.js';
import { errnoOf, fileError, fileProblem } from '../../src/output/file-errors.js';
import { scratchDir } from '../helpers/scratch.js';

const dir = scratchDir('news-file-errors-');
const errno = (code: string) => Object.assign(new Error(`${code}: boom`), { code });

describe('fileProblem: each errno in plain words, the code kept in brackets', () => {
  const out = join(dir, 'out.csv');
  it.each([
    ['write', 'EROFS', 'the file system is read-only (EROFS)', /file system that takes writes/],
    ['write', 'EACCES', 'permission denied (EACCES)', new RegExp(`ls -ld ${dir}`)],
    ['write', 'EPERM', 'permission denied (EPERM)', /check who may write/],
    ['read', 'EACCES', 'permission denied (EACCES)', new RegExp(`ls -l ${out}`)],
    ['write', 'ENOSPC', 'the disk is full (ENOSPC)', new RegExp(`df -h ${dir}`)],
    ['write', 'EDQUOT', 'the disk quota is used up (EDQUOT)', /free some space/],
    ['write', 'EISDIR', 'it is a directory (EISDIR)', /DIR\/out\.csv/],
    ['read', 'EISDIR', 'it is a directory (EISDIR)', /name a file inside it/],
    ['write', 'EMFILE', 'too many files are open (EMFILE)', /ulimit -n/],
    ['write', 'ENFILE', 'too many files are open (ENFILE)', /ulimit -n/],
    ['write', 'ELOOP', 'too many levels of symbolic links (ELOOP)', undefined],
    ['write', 'ENAMETOOLONG', 'the name is too long (ENAMETOOLONG)', undefined],
    ['write', 'EFBIG', 'the file is larger than the file system allows (EFBIG)', undefined],
    ['write', 'EIO', 'the disk or the network file system failed (EIO)', undefined],
    ['write', 'EBUSY', 'the file is busy (EBUSY)', undefined],
    ['write', 'EEXIST', 'it already exists (EEXIST)', undefined],
    ['write', 'EINVAL', 'the file system refused the name or the operation (EINVAL)', /FAT/],
    ['write', 'EXDEV', 'EXDEV', undefined],
  ] as const)('%s %s', (action, code, reason, hint) => {
    const problem = fileProblem(action, out, errno(code));
    expect(problem.reason).toBe(reason);
    if (hint === undefined) expect(problem.hint).toBeUndefined();
    else expect(problem.hint).toMatch(hint);
  });

  it('ENOENT: a missing directory is named, with mkdir -p', () => {
    const missing = join(dir, 'no', 'such');
    const problem = fileProblem('write', join(missing, 'out.csv'), errno('ENOENT'));
    expect(problem.reason).toBe(`the directory ${missing} does not exist (ENOENT)`);
    expect(problem.hint).toBe(`create it first (mkdir -p ${missing}), or write somewhere else`);
  });

  it('ENOENT in a directory that exists: it takes no new files (/proc), not "does not exist"', () => {
    const problem = fileProblem('write', out, errno('ENOENT'));
    expect(problem.reason).toBe(`no file can be created in ${dir} (ENOENT)`);
    expect(problem.hint).toBe('write to another directory');
  });

  it('ENOENT when reading: no such file', () => {
    expect(fileProblem('read', out, errno('ENOENT'))).toEqual({
      reason: 'no such file (ENOENT)',
      hint: undefined,
    });
  });

  it('ENOTDIR names the file standing where a directory should be', () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    expect(fileProblem('write', join(file, 'x', 'out.csv'), errno('ENOTDIR')).reason).toBe(
      `${file} is not a directory (ENOTDIR)`,
    );
  });

  it('not an errno error: its message', () => {
    expect(fileProblem('write', out, new Error('odd')).reason).toBe('odd');
    expect(errnoOf(new Error('odd'))).toBeUndefined();
    expect(errnoOf(errno('EROFS'))).toBe('EROFS');
    // The service's codes (ER0110) are not errno codes.
    expect(errnoOf({ code: 'ER0110' })).toBeUndefined();
  });
});

describe('fileError', () => {
  it('is a usage error (exit 2) by default, a failure (exit 1) once the file was in use', () => {
    const usage = fileError('write', 'rofs/out.jsonl', errno('EROFS'));
    expect(usage).toBeInstanceOf(UsageError);
    expect(usage.message).toBe('cannot write rofs/out.jsonl: the file system is read-only (EROFS)');
    const failure = fileError('write', 'out.jsonl', errno('ENOSPC'), { failure: true });
    expect(failure).toBeInstanceOf(NewsError);
    expect(failure).not.toBeInstanceOf(UsageError);
  });

  it('names the file when asked (the config file)', () => {
    expect(
      fileError('read', '/x/config.json', errno('EACCES'), { what: 'the config file' }).message,
    ).toBe('cannot read the config file /x/config.json: permission denied (EACCES)');
  });
});
