/**
 * `news COMMAND… --help` from bin/news.js without loading the program: the
 * help model of each command was written beside this file at build time
 * (write-model.ts) and is laid out here by the code commander's path uses
 * (layout.ts), at the width it uses (width.ts). Anything else, or no model
 * (a tree built without it), returns false: the full CLI answers instead.
 */
import { readFileSync } from 'node:fs';
import { type HelpModel, layoutHelp } from './layout.js';
import { helpWidth } from './width.js';

export const MODEL_DIR = new URL('./model/', import.meta.url);

/**
 * What a command name may be to be looked up as a file: lower case only, so
 * a case-blind disk never answers `news Search --help`, which commander refuses.
 */
export const COMMAND_NAME = /^[a-z][a-z0-9-]*$/;

/** `news.json` for `news --help`, `news.webhooks.list.json` for `news webhooks list --help`. */
export function modelFile(path: readonly string[], dir: URL = MODEL_DIR): URL {
  return new URL(`${['news', ...path].join('.')}.json`, dir);
}

/** The help text when argv is command names then -h or --help, and their model is there. */
export function helpText(argv: readonly string[]): string | undefined {
  const flag = argv[argv.length - 1];
  const path = argv.slice(0, -1);
  if ((flag !== '--help' && flag !== '-h') || !path.every((w) => COMMAND_NAME.test(w)))
    return undefined;
  try {
    const model = JSON.parse(readFileSync(modelFile(path), 'utf8')) as HelpModel;
    return layoutHelp(model, helpWidth(process.stdout, process.env));
  } catch {
    // No such command, or no model: commander says what it says.
    return undefined;
  }
}

/** Writes the help and returns true, or returns false for the caller to start the program. */
export function helpFast(argv: readonly string[]): boolean {
  const text = helpText(argv);
  if (text === undefined) return false;
  // `news search --help | head -1`: the reader left; success, as main.ts says it.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
  });
  process.stdout.write(text);
  return true;
}
