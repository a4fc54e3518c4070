/**
 * `news __complete` inside run() (tests, or a checkout without a built tree):
 * the same engine as the fast path, over a tree made from the live program.
 */
import { COMMANDS } from '../registry.js';
import type { CliIO } from '../runtime/io.js';
import { buildProgram } from '../program.js';
import { buildCompletionTree } from './build-tree.js';
import { complete, formatCompletion } from './engine.js';
import type { CompletionTree } from './types.js';

let cached: CompletionTree | undefined;

export function liveTree(): CompletionTree {
  const noop = () => undefined;
  cached ??= buildCompletionTree(buildProgram(COMMANDS, async () => undefined, noop, noop));
  return cached;
}

export function runComplete(words: readonly string[], io: CliIO): number {
  io.stdout.write(formatCompletion(complete(liveTree(), words, io.env)));
  return 0;
}
