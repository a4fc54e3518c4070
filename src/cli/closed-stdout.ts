/**
 * `news search >&-`: standard output closed by the shell. Node reopens a
 * closed fd 1 on /dev/null before any script runs, so every record would
 * vanish and the run would still exit 0. On Linux the reopened descriptor
 * can be told from a deliberate `>/dev/null`: Node opens it read-write, a
 * shell redirection write-only. Elsewhere nothing is detected.
 */
import { fstatSync, readFileSync, statSync } from 'node:fs';
import { Writable } from 'node:stream';
import { NewsError } from '../api/errors.js';

const O_ACCMODE = 0o3;
const O_RDWR = 0o2;

export function stdoutWasClosed(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const out = fstatSync(1);
    if (!out.isCharacterDevice() || out.rdev !== statSync('/dev/null').rdev) return false;
    const flags = /^flags:\s*([0-7]+)/m.exec(readFileSync('/proc/self/fdinfo/1', 'utf8'));
    return flags !== null && (Number.parseInt(flags[1]!, 8) & O_ACCMODE) === O_RDWR;
  } catch {
    return false;
  }
}

/** Stands in for a closed stdout: the first write fails with an error the user can act on. */
export function closedStdout(): Writable {
  const stream = new Writable({
    write(_chunk, _encoding, callback) {
      callback(
        Object.assign(
          new NewsError('standard output is closed (>&-): the output would be lost', {
            hint: 'write to a file with -o FILE, or discard it on purpose with >/dev/null',
          }),
          { code: 'EBADF' },
        ),
      );
    },
  });
  // Writers learn of the failure from their callbacks and own listeners; the
  // stream's own 'error' event must not crash the process besides.
  stream.on('error', () => undefined);
  return stream;
}
