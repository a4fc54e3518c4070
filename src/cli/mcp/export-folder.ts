/**
 * The export folder (`--export-dir`): export_news writes only inside it and
 * the resources list only its files. A name that leaves it (`..`, an
 * absolute path, a URL, a symbolic link that points out, anything but a
 * regular file) is refused before a request is sent.
 */
import { lstat, readdir, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UsageError } from '../../api/errors.js';

/** The folder, resolved once (links included), or a usage error naming the option. */
export async function openExportFolder(dir: string): Promise<string> {
  const real = await realpath(resolve(dir)).catch(() => undefined);
  const info = real === undefined ? undefined : await lstat(real);
  if (real === undefined || !info?.isDirectory()) {
    throw new UsageError(`--export-dir ${dir} is not a folder`, {
      hint: 'create it first, or leave --export-dir out for the current directory',
    });
  }
  return real;
}

function inside(folder: string, path: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : `${folder}${sep}`);
}

function leaves(name: string, why: string): UsageError {
  return new UsageError(`output ${JSON.stringify(name)} ${why}`, {
    hint: 'give a file name inside the export folder, such as "rates.csv" or "2026/rates.parquet"',
  });
}

/** The absolute path `name` names inside `folder`, checked; refuses any way out. */
export async function exportPath(folder: string, name: unknown): Promise<string> {
  if (typeof name !== 'string' || name.trim() === '') {
    throw new UsageError('output is required: a file name inside the export folder');
  }
  if (name.includes('\0')) throw leaves(name, 'holds a NUL character');
  if (isAbsolute(name) || /^[\\/]/.test(name) || /^[a-z][a-z0-9+.-]*:/i.test(name)) {
    throw leaves(
      name,
      'is not a name inside the export folder (absolute paths and URLs are refused)',
    );
  }
  const target = resolve(folder, name);
  const rel = relative(folder, target);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    throw leaves(name, 'leaves the export folder');
  }
  const parent = await realpath(dirname(target)).catch(() => undefined);
  if (parent === undefined) {
    throw leaves(name, `is in a folder the export folder does not have (${dirname(rel)})`);
  }
  if (!inside(folder, parent))
    throw leaves(name, 'leaves the export folder through a symbolic link');
  const path = join(parent, basename(target));
  const info = await lstat(path).catch(() => undefined);
  if (info?.isSymbolicLink()) {
    const real = await realpath(path).catch(() => undefined);
    if (real === undefined || !inside(folder, real)) {
      throw leaves(name, 'is a symbolic link out of the export folder');
    }
  } else if (info !== undefined && !info.isFile()) {
    throw leaves(name, 'is not a regular file');
  }
  return path;
}

export interface ExportedFile {
  /** Relative to the folder, with `/` between parts. */
  readonly name: string;
  readonly size: number;
}

/** Regular files of the folder, two levels deep, hidden and temporary files left out. */
export async function exportedFiles(folder: string, max = 200): Promise<ExportedFile[]> {
  const out: ExportedFile[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (out.length >= max || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory() && depth < 2) await walk(path, depth + 1);
      else if (entry.isFile()) {
        const info = await lstat(path).catch(() => undefined);
        if (info !== undefined)
          out.push({ name: relative(folder, path).split(sep).join('/'), size: info.size });
      }
    }
  };
  await walk(folder, 1);
  return out;
}
