import { NewsError, UsageError } from '../../api/errors.js';
import type { CommandSpec } from '../command-spec.js';

function number(
  options: Readonly<Record<string, unknown>>,
  name: string,
  check: (n: number) => boolean,
  rule: string,
) {
  const raw = options[name];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || !check(n))
    throw new UsageError(
      `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${rule} (got "${String(raw)}")`,
    );
  return n;
}

/** Why a server could not listen (the mock, `news mcp --http`), as one line and a way out (exit 1). */
export function listenError(error: unknown, host: string, port: number | undefined): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    return new NewsError(`port ${port ?? 4010} is in use; try --port 0`, {
      hint: '--port 0 picks a free port and prints the URL on stdout',
    });
  }
  if (code === 'EACCES') {
    return new NewsError(`not allowed to listen on port ${port ?? 4010}`, {
      hint: 'ports below 1024 need privileges; try --port 0',
    });
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new NewsError(`cannot listen on ${host}: no such local address`, {
      hint: 'try --host 127.0.0.1',
    });
  }
  return error;
}

export const mock: CommandSpec = {
  name: 'mock',
  group: 'tools',
  summary: 'the built-in mock of the whole API, over fixture data',
  // It serves; it sends nothing and writes no records.
  globals: [],
  subcommands: [
    {
      name: 'serve',
      summary: 'serve the mock API over HTTP until Ctrl-C; prints its URL on stdout when ready',
      description:
        'Fixture keys: api_live_mock_free, _starter, _basic, _pro, api_test_mock_basic, api_live_mock_empty, api_live_mock_readonly. Admin routes (POST /__mock/…) and faults are described in MOCK.md in the documentation.',
      options: [
        { flags: '--host <host>', description: 'address to listen on', default: '127.0.0.1' },
        { flags: '--port <port>', description: 'port (0 picks a free one)', default: '4010' },
        {
          flags: '--seed <n>',
          description: 'fixture seed (the committed data set unless changed)',
        },
        { flags: '--articles <n>', description: 'grow the data set to N articles (load tests)' },
        {
          flags: '--now <iso>',
          description: 'the instant fixture dates are relative to (default: now)',
        },
        {
          flags: '--time-scale <f>',
          description: 'multiply every timer of the mock (0.001: a minute lasts 60 ms)',
        },
        {
          flags: '--fail-rate <r>',
          description: 'answer this fraction of requests with a 5xx (seeded, reproducible)',
        },
        { flags: '--latency <ms>', description: 'add this delay to every response' },
        {
          flags: '--no-rate-limit',
          description: 'lift the per-plan rate limits (load tests); headers still report them',
        },
        {
          flags: '--publish-rate <n>',
          description:
            'publish N new fixture articles per minute of mock time, for streams and webhooks',
        },
      ],
      examples: [
        'news mock serve --port 0',
        'news mock serve --port 0 --publish-rate 60 --time-scale 0.1',
        'news mock serve --port 0 --fail-rate 0.1 --seed 3 --latency 200',
      ],
      async run(input, runtime) {
        const o = input.options;
        const port = number(
          o,
          'port',
          (n) => Number.isInteger(n) && n >= 0 && n <= 65535,
          'must be a port from 0 to 65535',
        );
        const seed = number(o, 'seed', Number.isInteger, 'must be a whole number');
        const articles = number(
          o,
          'articles',
          (n) => Number.isInteger(n) && n >= 1,
          'must be a whole number of at least 1',
        );
        const timeScale = number(o, 'timeScale', (n) => n > 0, 'must be a number above 0');
        const failRate = number(
          o,
          'failRate',
          (n) => n >= 0 && n <= 1,
          'must be a number from 0 to 1',
        );
        const latencyMs = number(
          o,
          'latency',
          (n) => n >= 0,
          'must be a number of milliseconds, at least 0',
        );
        const publishRate = number(
          o,
          'publishRate',
          (n) => n >= 0,
          'must be a number of articles per minute, at least 0',
        );
        let now: Date | undefined;
        if (o['now'] !== undefined) {
          now = new Date(String(o['now']));
          if (Number.isNaN(now.getTime()))
            throw new UsageError(`--now must be an ISO 8601 date-time (got "${String(o['now'])}")`);
        }
        const { startMockServer } = await import('../../mock/server.js');
        const { newsCacheDir } = await import('../user-dirs.js');
        const { join } = await import('node:path');
        const server = await startMockServer({
          // --articles N is made once and kept there (docs/MOCK.md, "The fixture store").
          cacheDir: join(newsCacheDir(runtime.io.env), 'mock'),
          host: String(o['host']),
          ...(port === undefined ? {} : { port }),
          ...(seed === undefined ? {} : { seed }),
          ...(articles === undefined ? {} : { articles }),
          ...(now === undefined ? {} : { now }),
          ...(timeScale === undefined ? {} : { timeScale }),
          ...(failRate === undefined ? {} : { failRate }),
          ...(latencyMs === undefined ? {} : { latencyMs }),
          ...(publishRate === undefined ? {} : { publishRate }),
          ...(o['rateLimit'] === false ? { rateLimits: false } : {}),
          // Ctrl-C while `--articles` grows stops it: a clean stop, as once serving.
          signal: runtime.signal,
        }).catch((error: unknown) => {
          if (runtime.signal.aborted) return undefined;
          throw listenError(error, String(o['host']), port);
        });
        if (server === undefined) {
          runtime.report.notice('stopped before the mock was ready');
          return;
        }
        await runtime.write(`${server.url}\n`);
        runtime.report.notice('mock API ready: fixture data; Ctrl-C stops it');
        // Serve until Ctrl-C or SIGTERM, then close: that is a clean stop, exit 0.
        await new Promise<void>((resolve) => {
          if (runtime.signal.aborted) return resolve();
          runtime.signal.addEventListener('abort', () => resolve(), { once: true });
        });
        await server.close();
      },
    },
  ],
};
