import { SEARCH_PARAMS } from '../../params/search-params.js';
import { STREAM_MAX_AGE, STREAM_TRANSPORTS } from '../../params/stream-params.js';
import type { ParamDef } from '../../params/types.js';
import type { CommandSpec } from '../command-spec.js';
import { REQUEST } from '../settings/global-options.js';

/**
 * The search filters, without what makes no sense for a stream of single
 * articles: paging and sorting, highlighting (`search` needs it), facets and `fl`.
 */
export const STREAM_FILTER_PARAMS: readonly ParamDef[] = SEARCH_PARAMS.filter(
  (def) =>
    def.group !== 'Pagination' &&
    def.group !== 'Highlighting' &&
    def.group !== 'Facets' &&
    def.group !== 'Output' &&
    def.name !== 'search',
);

export const stream: CommandSpec = {
  name: 'stream',
  group: 'live',
  summary: 'new matching articles as they are indexed (GET /v1/news/stream; --transport ws)',
  description:
    'Writes every new article that matches the filters as it arrives: jsonl in a pipe (flushed per record), table rows on a terminal, csv/tsv with one header. Reconnects on any drop with Last-Event-ID, a note on stderr each time (a stream that worked rides out 5 minutes without its service; --retries N: N attempts), and never writes an article twice. Ends on Ctrl-C (exit 130), --max-events or --duration (exit 0). See docs/STREAMS.md.',
  params: STREAM_FILTER_PARAMS,
  options: [
    {
      flags: `${STREAM_MAX_AGE.flag} <minutes>`,
      description: `how far back a reconnect may replay (${STREAM_MAX_AGE.min}..${STREAM_MAX_AGE.max}; server default ${STREAM_MAX_AGE.default})`,
    },
    { flags: '--max-events <n>', description: 'stop after N articles (exit 0)' },
    { flags: '--duration <time>', description: 'stop after this long: 90s, 10m, 2h (exit 0)' },
    {
      flags: '--transport <name>',
      description: 'sse (server-sent events) or ws (WebSocket)',
      choices: STREAM_TRANSPORTS,
      default: 'sse',
    },
    {
      flags: '--last-event-id <id>',
      description: 'resume after this article id (replays within --stream-max-age)',
    },
    {
      flags: '--header <name:value...>',
      description: 'an extra request header, repeatable (X-Mock-Scenario: drop-after-5)',
    },
    {
      flags: '--publish-rate <n>',
      description: 'with --mock: new articles per minute the built-in mock publishes (default 60)',
    },
    {
      flags: '--state <file>',
      description:
        'resume after the last article a previous run wrote, and remember where this one stops (cron)',
    },
    {
      flags: '--state-reset',
      description: 'start the --state file afresh when the filters changed',
    },
  ],
  examples: [
    'news stream --mock --max-events 5',
    'news stream --mock --publish-rate 600 --language-code en -f csv -o live.csv --duration 3s',
    'news stream --mock --publish-rate 6000 --title "rate cut" --transport ws --max-events 3 | jq -r .title',
  ],
  async run(input, runtime) {
    const { runStream } = await import('./run.js');
    await runStream(input, runtime);
  },
  subcommands: [
    {
      name: 'sessions',
      summary: 'the open streams of the key (GET /v1/news/stream/sessions)',
      examples: ['news stream sessions -f table', 'news stream sessions -f json'],
      async run(_input, runtime) {
        const { listSessions } = await import('./sessions.js');
        await listSessions(runtime);
      },
      subcommands: [
        {
          name: 'close',
          summary: 'close one open stream (DELETE /v1/news/stream/sessions?session_id=ID)',
          args: [{ name: 'id', description: 'the session id (from `news stream sessions`)' }],
          globals: REQUEST,
          examples: [
            'news stream sessions close ss_0123456789abcdef',
            "news stream sessions -f json | jq -r '.[].session_id' | xargs -r -n1 news stream sessions close",
          ],
          async run(input, runtime) {
            const { closeSession } = await import('./sessions.js');
            await closeSession(input.args[0]!, runtime);
          },
        },
      ],
    },
  ],
};
