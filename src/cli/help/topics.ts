/**
 * `news help TOPIC`: exit codes, environment, formats, the query language in
 * brief, and every command on one line. The same functions write
 * docs/HELP-TOPICS.md and the man page (docs.ts), so the three agree.
 * Loaded with import() when a topic is asked for: not on the start-up path.
 */
import type { Command } from 'commander';
import {
  ARTICLE_COLUMNS,
  COMPANY_COLUMNS,
  JOURNALIST_COLUMNS,
  PERSON_COLUMNS,
  type Column,
} from '../../output/columns.js';
import { FORMAT_NAMES } from '../../output/formats.js';
import { QUERY_LIMITS } from '../../params/query/ast.js';
import { queryFields } from '../../params/query/fields.js';
import { CONFIG_KEYS } from '../settings/config-file.js';
import { EXIT } from '../exit-codes.js';

export const TOPICS = ['exit-codes', 'environment', 'formats', 'query', 'commands'] as const;
export type Topic = (typeof TOPICS)[number];

/** The contract's exit codes, in words. */
export const EXIT_MEANINGS: readonly (readonly [number, string])[] = [
  [EXIT.ok, 'success, including an empty result'],
  [
    EXIT.failure,
    'API error or other failure (a 5xx after retries, a bad response, a file that cannot be written)',
  ],
  [EXIT.usage, 'usage or validation error: a bad flag or value; nothing was sent, no points spent'],
  [EXIT.auth, 'authentication or permission (HTTP 401, 403)'],
  [EXIT.points, 'points exhausted or rate limit still hit after retries (HTTP 402, 429)'],
  [EXIT.network, 'network failure or timeout after retries'],
  [EXIT.hangup, 'hung up (SIGHUP: the terminal or ssh session went away)'],
  [EXIT.interrupted, 'interrupted (Ctrl-C, SIGTERM)'],
];

/** Every environment variable news reads. A test checks src/ reads no other. */
export const ENVIRONMENT: readonly (readonly [string, string])[] = [
  ['NEWS_API_KEY', 'the API key (below --api-key, above the config file)'],
  ['NEWS_API_BASE_URL', 'the API root (default https://api.apitube.io)'],
  ['NEWS_API_MOCK', '1 or true: every command uses the built-in mock, as --mock'],
  ['NEWS_PROFILE', 'the config profile to use, as --profile'],
  ['XDG_CONFIG_HOME', 'the config file is $XDG_CONFIG_HOME/news/config.json (default ~/.config)'],
  [
    'XDG_CACHE_HOME',
    'caches under $XDG_CACHE_HOME/news (default ~/.cache): completion.json, v8/ (start-up code caches), mock/ (mock serve --articles data sets)',
  ],
  ['HOME', 'where ~/.config and ~/.cache are'],
  ['NEWS_MAX_RESPONSE_MB', 'the largest response read, in MB (default 64), as --max-response-mb'],
  ['NEWS_TABLE_STYLE', 'box: tables with lines around the cells (default: borderless)'],
  ['NEWS_WEBHOOK_SECRET', 'the signing secret of webhooks verify and listen, as --secret'],
  ['NEWS_MCP_TOKEN', 'the bearer token of news mcp --http, as --token'],
  ['NEWS_NO_COMPLETION_CACHE', '1: commands do not remember names and ids for shell completion'],
  ['NEWS_NO_CODE_CACHE', '1: start without V8 code caches (slower), and write none'],
  ['NODE_OPTIONS', "Node's own; a start-up code cache is kept for each value"],
  ['HTTPS_PROXY, HTTP_PROXY, NO_PROXY', 'proxy settings, in any case (https_proxy …)'],
  ['COLUMNS', 'the width of tables and help when stdout is not a terminal'],
  [
    'PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE, PGSSLMODE',
    "libpq's, for what a postgres:// -o leaves out (and ~/.pgpass for the password)",
  ],
  [
    'AWS_PROFILE, AWS_REGION',
    's3:// paths: read by the AWS SDK, with AWS_ACCESS_KEY_ID …, its files, SSO, roles',
  ],
  ['AWS_ENDPOINT_URL_S3', 's3:// paths: another S3-compatible store (MinIO, R2, …), path-style'],
  ['AWS_ENDPOINT_URL', 'the same, when AWS_ENDPOINT_URL_S3 is not set'],
];

const FORMAT_NOTES: Readonly<Record<string, string>> = {
  json: 'a JSON array of records across all pages (the default off a terminal)',
  jsonl: 'one JSON record a line, written page by page',
  ndjson: 'the same as jsonl',
  csv: 'RFC 4180, a header row, the columns below',
  tsv: 'tab-separated, a header row, the columns below',
  xml: 'one <record> element a record',
  rss: 'an RSS 2.0 feed of articles',
  xlsx: 'an Excel sheet, typed cells, the columns below (needs -o)',
  parquet: 'typed columns below, Snappy pages (needs -o)',
  table: 'a table sized to the terminal (the default on a terminal)',
};

function block(rows: readonly (readonly [string, string])[], indent = '  '): string[] {
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${indent}${k.padEnd(width)}  ${v}`);
}

function exitCodes(): string[] {
  return [
    'Exit codes',
    '',
    ...block(EXIT_MEANINGS.map(([code, meaning]) => [String(code), meaning])),
    '',
    'Errors print one "error: …" line on stderr (with the API error code and request',
    'id when known) and often a "hint: …" line; --verbose adds a stack trace.',
  ];
}

function environment(): string[] {
  return [
    'Environment',
    '',
    ...block(ENVIRONMENT),
    '',
    'Precedence: a flag beats the environment, which beats the config file.',
    'A variable set to the empty string counts as unset. Commands that send nothing',
    '(query, convert, completion, help, webhooks verify, config) never read the key,',
    'the base URL or the auth method.',
    '',
    'Config file ($XDG_CONFIG_HOME/news/config.json, mode 0600): named profiles,',
    `each holding any of these keys: ${CONFIG_KEYS.join(', ')}.`,
    '"default_profile" names the profile used without --profile or NEWS_PROFILE.',
    '  {"default_profile": "work", "profiles": {"work": {"api-key": "…", "format": "jsonl"}}}',
    'Write it with: news config set KEY VALUE [--profile NAME]',
  ];
}

function columnList(columns: readonly Column[]): string[] {
  const lines: string[] = [];
  let line = ' ';
  for (const column of columns) {
    if (line.length + column.name.length + 1 > 78) {
      lines.push(line);
      line = ' ';
    }
    line += ` ${column.name}`;
  }
  return [...lines, line];
}

function formats(): string[] {
  return [
    'Formats (-f FORMAT, or from the -o extension; add .gz to compress)',
    '',
    ...block(FORMAT_NAMES.map((f) => [f, FORMAT_NOTES[f] ?? ''])),
    '',
    'Tabular formats (csv, tsv, xlsx, parquet, table) share these columns, in this',
    'order; --fields picks and orders any dotted path instead.',
    '',
    'Articles:',
    ...columnList(ARTICLE_COLUMNS),
    'People:',
    ...columnList(PERSON_COLUMNS),
    'Companies:',
    ...columnList(COMPANY_COLUMNS),
    'Journalists:',
    ...columnList(JOURNALIST_COLUMNS),
    'Other records (suggest, trends, sections): the keys of the first records.',
  ];
}

/** `news help query`; also the start of the MCP resource news://docs/query-language. */
export function query(): string[] {
  const fields = queryFields().map((f) => f.name);
  const fieldLines: string[] = [];
  let line = ' ';
  for (const name of fields) {
    if (line.length + name.length + 1 > 78) {
      fieldLines.push(line);
      line = ' ';
    }
    line += ` ${name}`;
  }
  fieldLines.push(line);
  return [
    'The query language (--query), in brief',
    '',
    '  tesla AND "interest rates"~5',
    '  language.code:(en OR fr) AND read_time:[3 TO 10] AND NOT source.bias:right',
    '  {{entity.name:Tesla AND entity.sentiment.polarity:negative}}',
    '',
    '  word, "phrase"        search titles; "a b"~N: within N words (title only)',
    '  field:value           a field of the list below; field:(a OR b) for several',
    '  field:>=N, [a TO b]   comparisons and inclusive ranges (* leaves an end open)',
    '  AND, OR, NOT, ( )     NOT binds tightest, then AND (or a space), then OR',
    '  {{ … }}               entity block: its conditions hold for the same entity',
    '',
    `Limits: ${QUERY_LIMITS.maxLength} characters, ${QUERY_LIMITS.maxPredicates} predicates, nesting ${QUERY_LIMITS.maxDepth} deep, ${QUERY_LIMITS.maxGroupValues} values in a group;`,
    'a broken query exits 2 with its ER07xx code and a caret under the fault.',
    'Check one offline: news query check TEXT. Types and values: news query fields.',
    '',
    'Fields:',
    ...fieldLines,
  ];
}

/** Every command and subcommand, one line each. */
export function commandLines(program: Command): string[] {
  const rows: [string, string][] = [];
  const walk = (command: Command, prefix: string) => {
    for (const sub of command.commands) {
      if ((sub as unknown as { _hidden?: boolean })._hidden) continue;
      rows.push([`${prefix}${sub.name()}`, sub.summary() || sub.description()]);
      walk(sub, `${prefix}${sub.name()} `);
    }
  };
  walk(program, '');
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`);
}

/** The lines of a topic; `commands` needs the program. */
export function topicLines(topic: Topic, program: Command): string[] {
  switch (topic) {
    case 'exit-codes':
      return exitCodes();
    case 'environment':
      return environment();
    case 'formats':
      return formats();
    case 'query':
      return query();
    case 'commands':
      return ['Commands (news COMMAND --help for one)', '', ...commandLines(program)];
  }
}

export function isTopic(word: string): word is Topic {
  return (TOPICS as readonly string[]).includes(word);
}

/** The text of a topic, or undefined when `word` is not one. */
export function helpTopic(word: string, program: Command): string | undefined {
  return isTopic(word) ? `${topicLines(word, program).join('\n')}\n` : undefined;
}
