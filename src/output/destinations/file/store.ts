/**
 * The local file system as a byte store: small files replaced durably
 * (durable-write.ts), outputs written to a temporary file and renamed into
 * place (atomic-file-sink.ts), staged files published by rename, the state's
 * lock an O_EXCL file (lock.ts).
 */
import { constants } from 'node:fs';
import { access, mkdir, readFile, rename, rm, rmdir, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { ByteStore } from '../destination.js';

// Imported when used: the registry (and so this file) is on every command's start-up path.
const atomic = () => import('../../atomic-file-sink.js');
const durable = () => import('./durable-write.js');

export const fileStore: ByteStore = {
  name: 'file',
  appendable: true,
  remote: false,
  join: (base, ...parts) => join(base, ...parts),
  dirname: (path) => dirname(path),
  basename: (path) => basename(path),
  isRoot: () => false,

  async readText(path) {
    try {
      return await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  },

  writeText: async (path, text) => (await durable()).writeFileDurably(path, text),

  async remove(path) {
    await unlink(path).catch(() => undefined);
  },

  exists: (path) =>
    stat(path).then(
      () => true,
      () => false,
    ),

  async makeFolderFor(path) {
    await mkdir(dirname(path), { recursive: true });
  },

  async publish(staged, final) {
    await mkdir(dirname(final), { recursive: true });
    try {
      await rename(staged, final);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
    await (await durable()).syncDirectory(dirname(final));
    return true;
  },

  async removeTree(dir) {
    await rm(dir, { recursive: true, force: true });
    await rmdir(dirname(dir)).catch(() => undefined);
  },

  async openSink(path) {
    return (await atomic()).AtomicFileSink.open(path);
  },

  async stagingTarget(path) {
    const target = await (await atomic()).resolveOutputTarget(path);
    // A pipe or a device is written in place: there is nothing to publish.
    if (target.kind === 'direct') return undefined;
    return { root: dirname(target.path), name: basename(target.path) };
  },

  async checkOutput(path, folder) {
    if (!folder) await (await atomic()).resolveOutputTarget(path);
  },

  async checkWritable(path) {
    const target = await (await atomic()).resolveOutputTarget(path);
    if (target.kind === 'direct') return;
    const existing = target.mode !== undefined;
    try {
      await access(existing ? target.path : dirname(target.path), constants.W_OK);
    } catch (error) {
      throw (await import('../../file-errors.js')).fileError('write', path, error);
    }
  },

  checkStateName: () => undefined,

  async lock(stateFile, now) {
    return (await import('./lock.js')).acquireFileLock(stateFile, now);
  },
};
