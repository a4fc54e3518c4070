/**
 * The few file operations of unattended runs (state, checkpoints, staged
 * files, the commit), for a local path or an `s3://` URL alike. Local files
 * are replaced durably (durable-write.ts) and published by rename; objects
 * are replaced by a PUT and published by a server-side copy. The S3 side is
 * imported only when a URL asks for it.
 */
import { mkdir, readFile, rename, rm, rmdir, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { basenameS3, dirnameS3, isS3Url, joinS3 } from '../../output/s3/url.js';
import { syncDirectory, writeFileDurably } from './durable-write.js';

const objects = () => import('../../output/s3/objects.js');

export { isS3Url };

export function joinPath(base: string, ...parts: string[]): string {
  return isS3Url(base) ? joinS3(base, ...parts) : join(base, ...parts);
}

export function dirOf(path: string): string {
  return isS3Url(path) ? dirnameS3(path) : dirname(path);
}

export function nameOf(path: string): string {
  return isS3Url(path) ? basenameS3(path) : basename(path);
}

/** The text of a file or object; undefined when there is none. Other local errors are thrown as they are. */
export async function readText(path: string): Promise<string | undefined> {
  if (isS3Url(path)) return (await (await objects()).getText(path))?.text;
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Replaces the content whole: a reader or a crash sees the old text or the new. */
export async function writeText(path: string, text: string): Promise<void> {
  if (isS3Url(path)) {
    await (await objects()).putText(path, text);
    return;
  }
  await writeFileDurably(path, text);
}

export async function removeFile(path: string): Promise<void> {
  if (isS3Url(path)) return (await objects()).remove(path);
  await unlink(path).catch(() => undefined);
}

export async function fileExists(path: string): Promise<boolean> {
  if (isS3Url(path)) return (await objects()).exists(path);
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Makes the folder a staged file is written into (objects need none). */
export async function makeFolderFor(path: string): Promise<void> {
  if (!isS3Url(path)) await mkdir(dirname(path), { recursive: true });
}

/**
 * Moves a staged file to its final name, atomically for readers (rename;
 * for objects a copy, then the staged one is deleted). False when nothing
 * was staged under that name: it was published before.
 */
export async function publishFile(staged: string, final: string): Promise<boolean> {
  if (isS3Url(staged)) return (await objects()).publish(staged, final);
  await mkdir(dirname(final), { recursive: true });
  try {
    await rename(staged, final);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  await syncDirectory(dirname(final));
  return true;
}

/** Removes a folder (or a prefix) and what is in it; an empty parent `_staging` goes too. */
export async function removeTree(dir: string): Promise<void> {
  if (isS3Url(dir)) return (await objects()).removePrefix(dir.endsWith('/') ? dir : `${dir}/`);
  await rm(dir, { recursive: true, force: true });
  await rmdir(dirname(dir)).catch(() => undefined);
}
