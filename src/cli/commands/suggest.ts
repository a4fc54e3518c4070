import type { ApiRecord } from '../../output/types.js';
import { type ApiOperation, type CommandSpec, summaryOf } from '../command-spec.js';
import { harvestSuggestions, rememberValues } from '../completion/cache.js';
import { chooseFormat } from '../export/export-pages.js';
import { exportList } from '../export/single-record.js';

type SuggestKind = 'entities' | 'categories' | 'topics' | 'industries';

const RESOLVES: Readonly<Record<SuggestKind, string>> = {
  entities: 'entity.id',
  categories: 'category.id',
  topics: 'topic.id',
  industries: 'industry.id',
};

/** What a table shows: the id, the name, the type and the knowledge-base links next to it. */
function row(item: ApiRecord): ApiRecord {
  const links = (
    typeof item['links'] === 'object' && item['links'] !== null ? item['links'] : {}
  ) as Record<string, unknown>;
  const out: ApiRecord = { id: item['id'], name: item['name'] };
  if (item['type'] !== undefined) out['type'] = item['type'];
  if (item['taxonomy'] !== undefined) out['taxonomy'] = item['taxonomy'];
  if (links['wikipedia'] !== undefined) out['wikipedia'] = links['wikipedia'];
  if (links['wikidata'] !== undefined) out['wikidata'] = links['wikidata'];
  return out;
}

/** The options of `news suggest KIND`, as commander hands them over. */
type SuggestOptions = { readonly raw?: boolean; readonly ids?: boolean };

function suggestCommand(kind: SuggestKind): CommandSpec<SuggestOptions> {
  const api: ApiOperation = {
    method: 'GET',
    path: `/v1/suggest/${kind}`,
    returns: 'records',
    tool: { name: `suggest_${kind}` },
  };
  return {
    name: kind,
    api,
    summary: summaryOf(`${kind} whose name starts with PREFIX; ids for ${RESOLVES[kind]}`, api),
    args: [{ name: 'prefix', description: 'the start of a name' }],
    raw: true,
    options: [{ flags: '--ids', description: 'print only the ids, one per line (for scripts)' }],
    examples: [
      `news suggest ${kind} ${kind === 'topics' ? 'econ' : kind === 'entities' ? 'tesl' : 'bank'}`,
      `news suggest ${kind} ${kind === 'topics' ? 'sci' : kind === 'entities' ? 'fed' : 'tech'} --ids`,
    ],
    async run(input, runtime) {
      const spec = { method: api.method, path: api.path, query: { prefix: input.args[0] ?? '' } };
      const response = await runtime.send<unknown>(spec, input.options.raw === true);
      if (response === null) return;
      const items = (Array.isArray(response.body) ? response.body : []).filter(
        (i): i is ApiRecord => typeof i === 'object' && i !== null,
      );
      await rememberValues(runtime.io.env, harvestSuggestions(kind, items));
      if (input.options.ids === true) {
        return runtime.write(items.map((i) => `${String(i['id'])}\n`).join(''));
      }
      if (items.length === 0)
        runtime.report.notice(`no ${kind} start with "${input.args[0] ?? ''}"`);
      // The table is the short view; every other format carries the records as the server sent them.
      const table =
        (await chooseFormat(runtime)) === 'table' && runtime.settings.fields === undefined;
      await exportList(runtime, table ? items.map(row) : items, 'generic', `news suggest ${kind}`);
    },
  };
}

export const suggest: CommandSpec = {
  name: 'suggest',
  group: 'directories',
  summary: 'typeahead for entities, categories, topics and industries (GET /v1/suggest/…)',
  description:
    'Finds ids for --entity-id, --category-id, --topic-id and --industry-id, and the exact spelling of names.',
  subcommands: (['entities', 'categories', 'topics', 'industries'] as const).map(suggestCommand),
};
