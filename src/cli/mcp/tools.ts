/**
 * The tools, made from the command registry and the parameter table, never
 * listed by hand: every command (or subcommand) whose summary names an API
 * operation `(METHOD /path)` that reads (GET, or POST on a search), outside
 * the live group (streams, webhooks), one tool per operation (the first
 * command of an endpoint wins: `journalists articles` is the search). Its
 * arguments are the command's positional arguments, the common filters its
 * table holds, `filters` for the rest, and limit, page and fields where
 * they apply. export_news is search_news writing a file.
 */
import type { ArgSpec, CommandSpec } from '../command-spec.js';
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

/** The contract's names (and the style they set) where `words_joined` would not do. */
const TOOL_NAMES: Readonly<Record<string, string>> = {
  search: 'search_news',
  count: 'count_news',
  headlines: 'top_headlines',
  story: 'get_story',
  article: 'get_articles',
  trends: 'get_trends',
  local: 'search_local_news',
  entity: 'get_entity_news',
  raw: 'list_raw_articles',
  'event-types': 'list_event_types',
  people: 'list_people',
  'people get': 'get_person',
  companies: 'list_companies',
  'companies get': 'get_company',
  journalists: 'list_journalists',
  'journalists get': 'get_journalist',
};

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

const ENDPOINT = /\((GET|POST) (\/[^\s),;]*)/;
/** Endpoints that answer one value or one object, not a list. */
const SINGLE = /^\/(?:ping|v1\/balance|v1\/news\/count|v1\/(?:people|companies|journalists)\/ID)$/;
const DIRECTORY = /^\/v1\/(?:people|companies|journalists)(?:\/ID)?$/;
/** News endpoints whose records are not articles. */
const NOT_ARTICLES = /^\/v1\/news\/(?:count|trends|event-types|raw)$/;
const SEARCH_NAMES = new Set(SEARCH_PARAMS.map((d) => d.name));

/** The summary without its endpoint and what a terminal shows, which an agent does not need. */
function describe(summary: string): string {
  return summary
    .slice(0, ENDPOINT.exec(summary)?.index)
    .replace(/[:;,] [^:;]*\bterminal\b.*$/, '')
    .trim();
}

function toolName(words: readonly string[]): string {
  const key = words.join(' ');
  return TOOL_NAMES[key] ?? words.join('_').replace(/-/g, '_');
}

/** Filters every article tool takes directly (the first of COMMON_PARAMS). */
const CORE_COUNT = 5;
/** The endpoints whose tools take all of COMMON_PARAMS directly. */
const RICH = new Set(['/v1/news/everything', '/v1/news/count']);

/** Direct arguments: the common filters, and an endpoint's own parameters. */
function directParams(params: readonly ParamDef[], endpoint: Endpoint): ParamDef[] {
  const common = RICH.has(endpoint.path) ? COMMON_PARAMS : COMMON_PARAMS.slice(0, CORE_COUNT);
  return params.filter(
    (d) =>
      d.name !== 'page' &&
      d.name !== 'per_page' &&
      (common.includes(d.name) || !SEARCH_NAMES.has(d.name)),
  );
}

function bind(command: CommandSpec, words: readonly string[], endpoint: Endpoint): ToolBinding {
  const params = command.params ?? [];
  const table = new Map(params.map((d) => [d.name, d]));
  const direct = directParams(params, endpoint);
  const articles = endpoint.path.startsWith('/v1/news/') && !NOT_ARTICLES.test(endpoint.path);
  const single = SINGLE.test(endpoint.path);
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
  if (endpoint.path === '/v1/news/everything') properties['count_total'] = COUNT_TOTAL_SCHEMA;
  // Articles and directory records are large; other records are a few keys each.
  if (articles || pages || DIRECTORY.test(endpoint.path)) properties['fields'] = FIELDS_SCHEMA;
  const definition: ToolDefinition = {
    name: toolName(words),
    description: describe(command.summary),
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
    endpoint,
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
function exportBinding(search: ToolBinding): ToolBinding {
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
      name: 'export_news',
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

/** Every tool, in the registry's order, export_news after search_news. */
export function buildTools(registry: readonly CommandSpec[]): ToolBinding[] {
  const tools: ToolBinding[] = [];
  const seen = new Set<string>();
  const walk = (command: CommandSpec, words: readonly string[]): void => {
    if (command.hidden || command.group === 'live') return;
    const path = [...words, command.name];
    const match = ENDPOINT.exec(command.summary);
    if (command.run !== undefined && match !== null) {
      const endpoint = { method: match[1]!, path: match[2]! };
      const key = `${endpoint.method} ${endpoint.path}`;
      if (!seen.has(key)) {
        seen.add(key);
        const tool = bind(command, path, endpoint);
        tools.push(tool);
        if (endpoint.path === '/v1/news/everything') tools.push(exportBinding(tool));
      }
    }
    for (const sub of command.subcommands ?? []) walk(sub, path);
  };
  for (const command of registry) walk(command, []);
  return tools;
}
