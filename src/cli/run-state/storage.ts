/**
 * The few file operations of unattended runs (state, checkpoints, staged
 * files, the commit), for whatever byte store the path names: each is the
 * store's own (output/destinations/), found by the registry.
 */
import { storeOf } from '../../output/destinations/registry.js';

export const joinPath = (base: string, ...parts: string[]): string =>
  storeOf(base).join(base, ...parts);
export const dirOf = (path: string): string => storeOf(path).dirname(path);
export const nameOf = (path: string): string => storeOf(path).basename(path);
/** The text of a file or object; undefined when there is none. Other local errors are thrown as they are. */
export const readText = (path: string): Promise<string | undefined> => storeOf(path).readText(path);
/** Replaces the content whole: a reader or a crash sees the old text or the new. */
export const writeText = (path: string, text: string): Promise<void> =>
  storeOf(path).writeText(path, text);
export const removeFile = (path: string): Promise<void> => storeOf(path).remove(path);
export const fileExists = (path: string): Promise<boolean> => storeOf(path).exists(path);
/** Makes the folder a staged file is written into (objects need none). */
export const makeFolderFor = (path: string): Promise<void> => storeOf(path).makeFolderFor(path);
/** Moves a staged file to its final name; false when it was published before. */
export const publishFile = (staged: string, final: string): Promise<boolean> =>
  storeOf(staged).publish(staged, final);
/** Removes a folder (or a prefix) and what is in it; an empty parent `_staging` goes too. */
export const removeTree = (dir: string): Promise<void> => storeOf(dir).removeTree(dir);
