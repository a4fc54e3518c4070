/**
 * Build step (`npm run build`): writes dist/cli/help/model/, one help model
 * per command (fast.ts reads them for `news COMMAND --help`), from the
 * commander program, by the function its --help uses. Never edited by hand.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { COMMANDS } from '../registry.js';
import { HELP_CONTEXT, buildProgram } from '../program.js';
import { helpModels } from './format.js';
import { COMMAND_NAME, MODEL_DIR, modelFile } from './fast.js';

const noop = () => undefined;
const program = buildProgram(COMMANDS, async () => undefined, noop, noop);
rmSync(MODEL_DIR, { recursive: true, force: true });
mkdirSync(MODEL_DIR, { recursive: true });
for (const [path, model] of helpModels(program, HELP_CONTEXT)) {
  const text = JSON.stringify(model);
  // Every command answered fast: a name fast.ts would not look up is a build error.
  const odd = path.find((name) => !COMMAND_NAME.test(name));
  if (odd !== undefined) throw new Error(`command name ${odd} is not ${COMMAND_NAME}: see fast.ts`);
  // commander strips colour codes when the output has none (NO_COLOR, a pipe);
  // the fast path does not, so no help may hold one.
  if (text.includes('\\u001b'))
    throw new Error(`news ${path.join(' ')} --help holds an escape code`);
  writeFileSync(modelFile(path), text);
}
