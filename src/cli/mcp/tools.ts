/**
 * The tools, made from the command registry and the parameter table, never
 * listed by hand: every command (or subcommand) that declares a service
 * operation with a tool (`api.tool`, command-spec.ts) is one, outside the
 * live group (streams, webhooks). Its name, what its records are, whether it
 * pages and which arguments it takes come from those declared fields, never
 * from its help text. Its arguments are the command's positional arguments,
 * the common filters its table holds, `filters` for the rest, and limit,
 * page and fields where they apply. export_news is search_news writing a
 * file.
 */
import {
  type ApiOperation,
  type ArgSpec,
  type CommandSpec,
  type Returns,
  type ToolDeclaration,
  operationText,
} from '../command-spec.js';
import { SEARCH_PARAMS } from '../../params/search-params.js';
import type { ParamDef } from '../../params/types.js';
import {
  FIELDS_SCHEMA,
  FILTERS_SCHEMA,
  type JsonSchema,
  COUNT_TOTAL_SCHEMA,
  LIMIT_DEFAULT,
  LIMIT_MAX,
  OUTPUT_SCHEMA,
  PAGE_SCHEMA,
  argSchema,
  limitSchema,
  paramSchema,
} from './schema.js';

/**
 * The filters an agent reaches for, arguments of their own on search_news,
 * count_news and export_news; the other article feeds (headlines, story,
 * entity, local, trends) take the first five directly and the rest through
 * `filters`, so that tools/list stays small (docs/MCP.md, "Size").
 */
export const COMMON_PARAMS: readonly string[] = [
  'query',
  'language.code',
  'published_at.start',
  'published_at.end',
  'sort.by',
  'title',
  'source.country.code',
  'source.domain',
  'category.id',
  'topic.id',
  'sentiment.overall.polarity',
  'sort.order',
  'person.name',
  'organization.name',
];

/** What articles show by default: enough to pick one, little enough for a context window. */
export const ARTICLE_FIELDS: readonly string[] = [
  'id',
  'title',
  'description',
  'published_at',
  'href',
  'language',
  'source.domain',
];

export interface Endpoint {
  readonly method: string;
  readonly path: string;
}

export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema;
  readonly annotations: { readonly readOnlyHint: boolean };
}

export interface ToolBinding {
  readonly definition: ToolDefinition;
  readonly command: CommandSpec;
  readonly words: readonly string[];
  readonly endpoint: Endpoint;
  /** What the operation answers (command-spec.ts): how its result is shaped. */
  readonly returns: Returns;
  /** Every parameter the command takes, by API name. */
  readonly table: ReadonlyMap<string, ParamDef>;
  /** Those given as arguments of their own. */
  readonly direct: readonly ParamDef[];
  readonly args: readonly ArgSpec[];
  /** Records are articles (default fields, short descriptions). */
  readonly articles: boolean;
  /** The command pages (--limit): limit and page go to it. */
  readonly pages: boolean;
  /** The result is a list `limit` applies to. */
  readonly list: boolean;
  /** The tool writes a file (export_news). */
  readonly exports: boolean;
}

const SEARCH_NAMES = new Set(SEARCH_PARAMS.map((d) => d.name));

/** The summary's words before its operation: what the command does, for an agent. */
function describe(command: CommandSpec, api: ApiOperation, tool: ToolDeclaration): string {
  if (tool.description !== undefined) return tool.description;
  const at = command.summary.indexOf(` (${operationText(api)})`);
  if (at < 0) {
    throw new Error(`${command.name}: its summary does not name its operation (summaryOf)`);
  }
  return command.summary.slice(0, at);
}

/** Filters every article tool takes directly (the first of COMMON_PARAMS). */
const CORE_COUNT = 5;
/** Direct arguments: the common filters, and an endpoint's own parameters. */
function directParams(params: readonly ParamDef[], tool: ToolDeclaration): ParamDef[] {
  const common = tool.allCommonFilters ? COMMON_PARAMS : COMMON_PARAMS.slice(0, CORE_COUNT);
  return params.filter(
    (d) =>
      d.name !== 'page' &&
      d.name !== 'per_page' &&
      (common.includes(d.name) || !SEARCH_NAMES.has(d.name)),
  );
}

function bind(
  command: CommandSpec,
  words: readonly string[],
  api: ApiOperation,
  tool: ToolDeclaration,
): ToolBinding {
  const params = command.params ?? [];
  const table = new Map(params.map((d) => [d.name, d]));
  const direct = directParams(params, tool);
  const articles = api.returns === 'articles';
  const single = api.returns !== 'articles' && api.returns !== 'records';
  const pages = command.paging === true;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const arg of command.args ?? []) {
    properties[arg.name] = argSchema(arg);
    if (arg.required !== false) required.push(arg.name);
  }
  for (const def of direct) properties[def.name] = paramSchema(def);
  if (params.some((d) => d.name !== 'page' && !direct.includes(d))) {
    properties['filters'] = FILTERS_SCHEMA;
  }
  if (!single) properties['limit'] = limitSchema(LIMIT_MAX, LIMIT_DEFAULT);
  if (pages) properties['page'] = PAGE_SCHEMA;
  if (tool.countTotal) properties['count_total'] = COUNT_TOTAL_SCHEMA;
  // Articles and directory records are large; other records are a few keys each.
  if (articles || pages || tool.fields) properties['fields'] = FIELDS_SCHEMA;
  const definition: ToolDefinition = {
    name: tool.name,
    description: describe(command, api, tool),
    inputSchema: {
      type: 'object',
      properties,
      ...(required.length > 0 ? { required } : {}),
    },
    outputSchema: OUTPUT_SCHEMA,
    annotations: { readOnlyHint: true },
  };
  return {
    definition,
    command,
    words,
    endpoint: { method: api.method, path: api.path },
    returns: api.returns,
    table,
    direct,
    args: command.args ?? [],
    articles,
    pages,
    list: !single,
    exports: false,
  };
}

/** export_news: search_news's arguments, written to a file of the export folder. */
function exportBinding(search: ToolBinding, name: string): ToolBinding {
  const {
    limit: _limit,
    page: _page,
    count_total: _count,
    fields,
    ...filters
  } = search.definition.inputSchema['properties'] as Record<string, JsonSchema>;
  const properties: Record<string, JsonSchema> = {
    output: {
      type: 'string',
      description: 'file name inside the export folder; its extension picks the format',
    },
    format: { type: 'string', description: 'the format, when the extension does not say' },
    ...filters,
    limit: { ...limitSchema(undefined, LIMIT_MAX), description: 'records to write' },
    all: { type: 'boolean', description: 'every matching record (the budget still holds)' },
    ...(fields === undefined ? {} : { fields }),
  };
  return {
    ...search,
    definition: {
      name,
      description: `${search.definition.description} into a file of the export folder (any format of news -f, written atomically)`,
      inputSchema: { type: 'object', properties, required: ['output'] },
      outputSchema: {
        type: 'object',
        properties: {
          path: { type: 'string' },
          records: { type: 'integer' },
          points: { type: 'number' },
        },
        required: ['path', 'records', 'points'],
      },
      annotations: { readOnlyHint: false },
    },
    exports: true,
  };
}

/** Every tool, in the registry's order, an export tool after the tool it writes. */
export function buildTools(registry: readonly CommandSpec[]): ToolBinding[] {
  const tools: ToolBinding[] = [];
  const walk = (command: CommandSpec, words: readonly string[]): void => {
    if (command.hidden || command.group === 'live') return;
    const path = [...words, command.name];
    const { api } = command;
    if (command.run !== undefined && api?.tool !== undefined) {
      const tool = bind(command, path, api, api.tool);
      tools.push(tool);
      if (api.tool.exportAs !== undefined) tools.push(exportBinding(tool, api.tool.exportAs));
    }
    for (const sub of command.subcommands ?? []) walk(sub, path);
  };
  for (const command of registry) walk(command, []);
  return tools;
}
