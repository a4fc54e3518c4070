/**
 * Build step (`npm run build`): writes dist/cli/completion/tree.json from the
 * command registry, for the `news __complete` fast path. Never edited by hand.
 */
import { writeFileSync } from 'node:fs';
import { COMMANDS } from '../registry.js';
import { buildProgram } from '../program.js';
import { buildCompletionTree } from './build-tree.js';
import { TREE_FILE } from './fast.js';
import { packTree } from './tree-file.js';

const noop = () => undefined;
const program = buildProgram(COMMANDS, async () => undefined, noop, noop);
writeFileSync(TREE_FILE, packTree(buildCompletionTree(program)));
