/**
 * tree.json, compact: the search flags are shared by eight commands, so each
 * distinct option is stored once and commands hold their indexes. Read on
 * every Tab, so smaller is faster (about 430 KB → under 100 KB).
 */
import type { CompletionTree, TreeCommand, TreeOption } from './types.js';

interface PackedCommand extends Omit<TreeCommand, 'options' | 'commands'> {
  readonly options: readonly number[];
  readonly commands: readonly PackedCommand[];
}

interface PackedTree extends Omit<CompletionTree, 'root'> {
  readonly optionTable: readonly TreeOption[];
  readonly root: PackedCommand;
}

export function packTree(tree: CompletionTree): string {
  const table: TreeOption[] = [];
  const index = new Map<string, number>();
  const pack = (command: TreeCommand): PackedCommand => ({
    ...command,
    options: command.options.map((option) => {
      const key = JSON.stringify(option);
      let at = index.get(key);
      if (at === undefined) {
        at = table.push(option) - 1;
        index.set(key, at);
      }
      return at;
    }),
    commands: command.commands.map(pack),
  });
  const root = pack(tree.root);
  return JSON.stringify({ ...tree, optionTable: table, root } satisfies PackedTree);
}

export function unpackTree(text: string): CompletionTree {
  const packed = JSON.parse(text) as PackedTree;
  const unpack = (command: PackedCommand): TreeCommand => ({
    ...command,
    options: command.options.map((i) => packed.optionTable[i] as TreeOption),
    commands: command.commands.map(unpack),
  });
  const { optionTable: _table, root, ...rest } = packed;
  return { ...rest, root: unpack(root) };
}
