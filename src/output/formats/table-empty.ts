/**
 * What an empty table says on stderr, as `gh` does ("no open pull requests"):
 * a header alone reads like a broken command. Only for the table format
 * (json and jsonl pipelines get their `[]` or nothing, silently), said by
 * the one export path (cli/export/export-pages.ts). Cheap: no table code.
 */
import type { RecordKind } from '../types.js';

const BY_KIND: Readonly<Record<Exclude<RecordKind, 'generic'>, string>> = {
  article: '0 articles matched',
  person: '0 people matched',
  company: '0 companies matched',
  journalist: '0 journalists matched',
};

/** By the command that lists them (the export's title), before the kind. */
const BY_COMMAND: readonly (readonly [prefix: string, note: string | undefined])[] = [
  ['news convert', '0 records in the input'],
  ['news webhooks list', 'no webhooks'],
  ['news stream sessions', 'no open stream sessions'],
  ['news trends', '0 values matched'],
  ['news fact-check', '0 claims'],
  ['news event-types', '0 event types'],
  // Says it itself ("no entities start with …").
  ['news suggest', undefined],
];

/**
 * The note for a table of no rows, or undefined: a command that says it
 * itself, or generic rows of another command (facets: "the response has no
 * facets" is said where they are read).
 */
export function emptyTableNote(kind: RecordKind, title: string): string | undefined {
  const command = BY_COMMAND.find(([prefix]) => title === prefix || title.startsWith(`${prefix} `));
  if (command !== undefined) return command[1];
  return kind === 'generic' ? undefined : BY_KIND[kind];
}
