import {
  ENTITY_DIRECTORY_PARAMS,
  JOURNALIST_DIRECTORY_PARAMS,
  lookupIn,
} from '../../params/directory-params.js';
import { SEARCH_PARAMS } from '../../params/search-params.js';
import { buildRequestBody } from '../../params/validate.js';
import type { RecordKind } from '../../output/types.js';
import { type ApiOperation, type CommandSpec, summaryOf } from '../command-spec.js';
import { idArguments } from '../lists/id-args.js';
import { pagingFrom, runList } from '../lists/list-runner.js';
import { RESOLVE_OPTION } from '../lists/resolve-names.js';
import type { DirectoryKind } from '../views/profile-card.js';
import { runArticleFeed } from './article-feed.js';
import { type ProfileOptions, SINGULAR, sectionsOf, showProfile } from './directory-profile.js';

const RECORD_KIND: Readonly<Record<DirectoryKind, RecordKind>> = {
  people: 'person',
  companies: 'company',
  journalists: 'journalist',
};

/** The specification: author.id takes at most three ids. */

const MERGED_BY_NAME =
  'journalist records are merged by exact name: one record can hold several people, or a generic byline';

/** Ids the mock's fixtures hold (Elon Musk, Apple, a journalist), so the examples work with --mock. */
const EXAMPLE_ID: Readonly<Record<DirectoryKind, number>> = {
  people: 10001,
  companies: 20001,
  journalists: 7000001,
};

function getCommand(kind: DirectoryKind): CommandSpec<ProfileOptions> {
  const what = SINGULAR[kind];
  const api: ApiOperation = {
    method: 'GET',
    path: `/v1/${kind}/ID`,
    returns: 'record',
    // A profile is large (coverage, latest articles): `fields` picks parts of it.
    tool: { name: `get_${what}`, description: `one ${what}'s profile`, fields: true },
  };
  return {
    name: 'get',
    api,
    summary: summaryOf(`one ${what}'s profile: a card on a terminal, JSON otherwise`, api),
    description: `The profile, its coverage block and the five latest articles. --section exports one part in any format: ${sectionsOf(kind).join(', ')}.`,
    args: [{ name: 'id', description: `${what} id` }],
    raw: true,
    options: [
      {
        flags: '--no-coverage',
        description: 'leave out the coverage block (sends coverage=false)',
      },
      {
        flags: '--section <name>',
        description: `export one part: ${sectionsOf(kind).join('|')}`,
        choices: sectionsOf(kind),
      },
    ],
    examples: [
      `news ${kind} get ${EXAMPLE_ID[kind]}`,
      `news ${kind} get ${EXAMPLE_ID[kind]} --section timeline -f csv`,
      `news ${kind} get ${EXAMPLE_ID[kind]} --no-coverage -f json`,
    ],
    run: (input, runtime) => showProfile(kind, input, runtime),
  };
}

/** The search, with the author: search_news is its tool. */
const JOURNALIST_ARTICLES: ApiOperation = {
  method: 'POST',
  path: '/v1/news/everything',
  note: ', author.id=ID',
  returns: 'articles',
};

const journalistArticles: CommandSpec = {
  name: 'articles',
  api: JOURNALIST_ARTICLES,
  summary: summaryOf(
    "a journalist's articles: the search behind links.articles",
    JOURNALIST_ARTICLES,
  ),
  description:
    'Searches one author record (up to three ids); the profile counts merge every record with the same name, so this may find fewer. Takes the search filters.',
  args: [
    {
      name: 'ids',
      description: 'journalist ids (at most 3), comma-separated or as several arguments',
      variadic: true,
    },
  ],
  params: SEARCH_PARAMS.filter((d) => d.name !== 'author.id'),
  paging: true,
  raw: true,
  options: [RESOLVE_OPTION],
  examples: [
    'news journalists articles 7000001',
    'news journalists articles 7000001 --language-code en --all -f csv',
  ],
  async run(input, runtime) {
    const ids = idArguments(input.args, 'author.id', 'author.id');
    runtime.report.debug(`${MERGED_BY_NAME}; author.id searches only the record(s) ${ids}`);
    await runArticleFeed(input, runtime, JOURNALIST_ARTICLES.path, SEARCH_PARAMS, {
      'author.id': ids,
    });
  },
};

function directoryCommand(kind: DirectoryKind, summary: string): CommandSpec {
  const table = kind === 'journalists' ? JOURNALIST_DIRECTORY_PARAMS : ENTITY_DIRECTORY_PARAMS;
  const lookup = lookupIn(table);
  const api: ApiOperation = {
    method: 'GET',
    path: `/v1/${kind}`,
    returns: 'records',
    tool: { name: `list_${kind}` },
  };
  return {
    name: kind,
    group: 'directories',
    api,
    summary: summaryOf(summary, api, `; \`${kind} get ID\` for one profile`),
    params: table,
    paging: true,
    raw: true,
    examples: [
      `news ${kind} --name ${kind === 'people' ? 'musk' : kind === 'companies' ? 'tesla' : 'smith'}`,
      ...(kind === 'journalists' ? [] : [`news ${kind} --wikidata-id Q317521 -f json`]),
      `news ${kind} --all -o ${kind}.csv`,
    ],
    async run(input, runtime) {
      const query = buildRequestBody(input.params, { now: runtime.io.now(), lookup });
      if (kind === 'journalists') runtime.report.debug(MERGED_BY_NAME);
      const records = await runList(
        runtime,
        { method: api.method, path: api.path, query },
        RECORD_KIND[kind],
        pagingFrom(input.options, 'query'),
        input.options['raw'] === true,
      );
      if (records === 0)
        runtime.report.debug('no results: a directory search without results costs no points');
    },
    subcommands: [getCommand(kind), ...(kind === 'journalists' ? [journalistArticles] : [])],
  };
}

export const people = directoryCommand('people', 'list and search people');
export const companies = directoryCommand('companies', 'list and search companies');
export const journalists = directoryCommand('journalists', 'list and search journalists (bylines)');
