/**
 * The one translation of a failed file operation into plain words: Node's
 * errno codes (ENOENT, EACCES, EROFS, …) become what happened and, where one
 * helps, what to do; the code stays in brackets for a search. Every read and
 * write of a file the user named goes through it (-o files, live and atomic,
 * checkpoints, convert's and webhooks verify's inputs, the config file), and
 * cli/exit-codes.ts sends any errno error that reaches it here too.
 */
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { NewsError, UsageError } from '../api/errors.js';

/** What was being done: the first words of the line (`cannot write X: …`). */
export type FileAction = 'read' | 'write' | 'open';

export interface FileProblem {
  /** What happened, in plain words, ending with the code: `the file system is read-only (EROFS)`. */
  readonly reason: string;
  readonly hint: string | undefined;
}

/** The errno code of a Node system error, if it is one. */
export function errnoOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^E[A-Z]{2,}$/.test(code) ? code : undefined;
}

type Kind = 'directory' | 'other' | 'missing';

function kindOf(path: string): Kind {
  try {
    return statSync(path).isDirectory() ? 'directory' : 'other';
  } catch {
    return 'missing';
  }
}

/** ENOTDIR: the first part of the path that exists and is a file, not a directory. */
function fileInTheWay(path: string): string | undefined {
  const parts: string[] = [];
  for (let p = dirname(path); ; p = dirname(p)) {
    parts.unshift(p);
    if (dirname(p) === p) break;
  }
  return parts.find((p) => kindOf(p) === 'other');
}

/** Plain words and a hint for `error`, met while doing `action` on `path`. */
export function fileProblem(action: FileAction, path: string, error: unknown): FileProblem {
  const code = errnoOf(error);
  const dir = dirname(resolve(path));
  const say = (words: string, hint?: string): FileProblem => ({
    reason: `${words} (${code})`,
    hint,
  });
  const writing = action !== 'read';
  switch (code) {
    case 'ENOENT': {
      if (kindOf(dir) === 'missing') {
        return say(
          `the directory ${dir} does not exist`,
          writing ? `create it first (mkdir -p ${dir}), or write somewhere else` : undefined,
        );
      }
      // The directory is there: reading, the file is not; writing, the
      // directory takes no new files (/proc, /sys) or vanished meanwhile.
      return writing
        ? say(`no file can be created in ${dir}`, 'write to another directory')
        : say('no such file');
    }
    case 'ENOTDIR': {
      const file = fileInTheWay(resolve(path));
      return say(
        file === undefined ? 'a part of the path is not a directory' : `${file} is not a directory`,
      );
    }
    case 'EISDIR':
      return say(
        'it is a directory',
        writing ? 'name a file inside it, e.g. DIR/out.csv' : 'name a file inside it',
      );
    case 'EACCES':
    case 'EPERM':
      return say(
        'permission denied',
        writing
          ? `check who may write to ${dir} (ls -ld ${dir}), or write somewhere else`
          : `check who may read it (ls -l ${path})`,
      );
    case 'EROFS':
      return say(
        'the file system is read-only',
        'write to a directory on a file system that takes writes',
      );
    case 'ENOSPC':
      return say('the disk is full', `free some space (df -h ${dir}), or write somewhere else`);
    case 'EDQUOT':
      return say('the disk quota is used up', 'free some space, or write somewhere else');
    case 'EFBIG':
      return say('the file is larger than the file system allows');
    case 'ENAMETOOLONG':
      return say('the name is too long');
    case 'ELOOP':
      return say('too many levels of symbolic links');
    case 'EMFILE':
    case 'ENFILE':
      return say('too many files are open', 'raise the limit (ulimit -n), or run fewer at once');
    case 'EIO':
      return say('the disk or the network file system failed');
    case 'EBUSY':
    case 'ETXTBSY':
      return say('the file is busy');
    case 'EEXIST': {
      // mkdir -p answers EEXIST when a file stands where a directory must be.
      const file = fileInTheWay(resolve(path));
      return say(file === undefined ? 'it already exists' : `${file} is not a directory`);
    }
    case 'EINVAL':
      return say(
        'the file system refused the name or the operation',
        'a name with characters this file system does not allow (: on FAT or SMB)?',
      );
    case undefined:
      return { reason: error instanceof Error ? error.message : String(error), hint: undefined };
    default:
      return { reason: code, hint: undefined };
  }
}

/**
 * `cannot write PATH: the file system is read-only (EROFS)` with its hint.
 * `failure`: the file was already in use (a write, a rename): exit 1; else
 * a usage error, exit 2, as for any path refused before the work begins.
 * `what` names the file before its path (`the config file`).
 */
export function fileError(
  action: FileAction,
  path: string,
  error: unknown,
  options: { failure?: boolean; what?: string } = {},
): NewsError {
  const { reason, hint } = fileProblem(action, path, error);
  const message = `cannot ${action} ${options.what ? `${options.what} ` : ''}${path}: ${reason}`;
  return options.failure === true
    ? new NewsError(message, { hint })
    : new UsageError(message, { hint });
}
