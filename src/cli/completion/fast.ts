/**
 * `news __complete …` from bin/news.js without loading the program: the tree
 * was written beside this file at build time (write-tree.ts). Without it
 * (a source checkout that was never built), the full CLI answers instead.
 */
import { readFileSync } from 'node:fs';
import { complete, formatCompletion } from './engine.js';
import { unpackTree } from './tree-file.js';
import type { CompletionTree } from './types.js';

export const TREE_FILE = new URL('./tree.json', import.meta.url);

/** Returns false when there is no built tree, so the caller falls back to the program. */
export function completeFast(words: readonly string[]): boolean {
  let tree: CompletionTree;
  try {
    tree = unpackTree(readFileSync(TREE_FILE, 'utf8'));
  } catch {
    return false;
  }
  process.stdout.write(formatCompletion(complete(tree, words, process.env)));
  return true;
}
