import type { Dispatcher } from 'undici';
import type { NewsClient } from '../../api/index.js';
import { shellQuote } from '../../api/describe-request.js';
import { UsageError } from '../../api/errors.js';
import { redactText } from '../../api/redact.js';
import type { ApiResponse, RequestSpec } from '../../api/types.js';
import type { ApiRecord, RecordKind } from '../../output/types.js';
import type { CliIO, Reporter } from './io.js';
import { PointsMeter } from './points-meter.js';
import { refuseWithRaw } from './raw-check.js';
import { MOCK_DEFAULT_KEY, type Settings } from '../settings/settings.js';
import { VERSION } from '../version.js';

/** What a command may ask of the built-in mock (`--mock`); the rest is the mock's defaults. */
export interface InProcessMockOptions {
  /**
   * The command needs the mock on a loopback port (a stream's own connection,
   * webhook deliveries, the admin routes by URL): the HTTP server is started.
   * Otherwise the mock answers in-process, with no socket (src/mock/in-process.ts).
   */
  listen?: boolean;
  /** New articles per mock minute (live commands: stream, webhooks listen). */
  publishRate?: number;
  /** Published ids go on after this one (a stream resuming a saved id). */
  publishAfterId?: number;
  timeScale?: number;
  /** Example webhooks for this key (the mock starts empty; `news --mock webhooks list`). */
  exampleWebhooksFor?: string;
}

/**
 * Per-invocation services for command handlers: the client (started lazily,
 * against the in-process mock with --mock), stdout writing that survives a
 * closed pipe, and cleanup.
 */
export class Runtime {
  private clientPromise: Promise<NewsClient> | undefined;
  private readonly cleanups: (() => Promise<void>)[] = [];
  /** Counts points for `-v`; set only when verbose. */
  private meter: PointsMeter | undefined;
  /** Set when stdout's reader went away (`| head`): stop producing, exit 0. */
  stdoutClosed = false;
  /** Set by a command before `client()` to shape the in-process mock. */
  mockOptions: InProcessMockOptions = {};
  /** The mock server's URL once `client()` started it with `listen` (its admin routes live there). */
  mockUrl: string | undefined;
  /** Set by a command whose endpoint takes no key (`ping`): no key is then no error. */
  keyOptional = false;
  /**
   * Set by a command that keeps files when interrupted (a checkpointed
   * export): the hint saying what they are, should the process have to end
   * before the command says it (main()'s last words).
   */
  keptOnInterrupt: (() => string | undefined) | undefined;
  /**
   * Where the records go instead of stdout when set (a tool call of `news
   * mcp`): as `-f json` would print them, `--fields` applied, but as values,
   * with no text to read back. A file (`-o`) is still written as a file.
   */
  recordsTo: ((records: readonly ApiRecord[], kind: RecordKind) => void) | undefined;

  constructor(
    readonly io: CliIO,
    readonly settings: Settings,
    readonly report: Reporter,
    readonly signal: AbortSignal,
    /** The words after `news`, as typed. */
    readonly argv: readonly string[] = [],
  ) {}

  /** `news` and the words as typed, shell-quoted, the key shown as `***`: a feed's title. */
  get commandLine(): string {
    const words = ['news', ...this.argv.map(shellQuote)].join(' ');
    return redactText(words, this.settings.apiKey);
  }

  /** The client for real requests; with --mock, the mock server starts here. */
  client(): Promise<NewsClient> {
    this.clientPromise ??= this.createClient();
    return this.clientPromise;
  }

  private async createClient(): Promise<NewsClient> {
    if (this.settings.profileMissing) {
      throw new UsageError(
        `no profile named "${this.settings.profile}" in ${this.settings.configPath}`,
        {
          hint: `create it with \`news config set api-key KEY --profile ${this.settings.profile}\``,
        },
      );
    }
    let baseUrl = this.settings.baseUrl;
    let apiKey = this.settings.apiKey;
    let dispatcher: Dispatcher | undefined;
    if (this.settings.mock) {
      const { listen, ...options } = this.mockOptions;
      if (listen === true) {
        const { startMockServer } = await import('../../mock/server.js');
        const mock = await startMockServer({ port: 0, quiet: true, ...options });
        this.cleanups.push(() => mock.close());
        baseUrl = mock.url;
        this.mockUrl = mock.url;
        apiKey = await this.mockKey(apiKey, true);
        this.report.notice(
          `using the built-in mock at ${mock.url}: fixture data, not the real API`,
        );
      } else {
        // No socket: the client's requests go straight into the mock's pipeline.
        const { startInProcessMock } = await import('../../mock/in-process.js');
        const mock = await startInProcessMock({ quiet: true, ...options });
        this.cleanups.push(() => mock.close());
        baseUrl = mock.url;
        dispatcher = mock.dispatcher;
        apiKey = await this.mockKey(apiKey, true);
        this.report.notice('using the built-in mock (in-process): fixture data, not the real API');
      }
    }
    if (apiKey === undefined) {
      if (this.keyOptional) return this.makeClient(baseUrl, undefined, dispatcher);
      throw new UsageError('no API key', {
        hint: 'pass --api-key, set NEWS_API_KEY, run `news config set api-key KEY`, or try --mock',
      });
    }
    return this.makeClient(baseUrl, apiKey, dispatcher);
  }

  private async makeClient(
    baseUrl: string,
    apiKey: string | undefined,
    dispatcher: Dispatcher | undefined,
  ): Promise<NewsClient> {
    const { NewsClient } = await import('../../api/index.js');
    const meter = this.settings.verbose
      ? new PointsMeter(async () => {
          const r = await client.request<{ points?: unknown } | null>({
            method: 'GET',
            path: '/v1/balance',
          });
          return typeof r.body?.points === 'number' ? r.body.points : undefined;
        })
      : undefined;
    const client = new NewsClient({
      version: VERSION,
      apiKey,
      auth: this.settings.auth,
      baseUrl,
      timeoutMs: this.settings.timeoutMs,
      maxResponseBytes: this.settings.maxResponseBytes,
      retries: this.settings.retries,
      signal: this.signal,
      env: this.io.env,
      dispatcher,
      onNotice: (m) => this.report.notice(m),
      onResponse: meter && ((response, request) => meter.observe(response, request)),
      onRetry: (r) =>
        this.report.debug(`retry ${r.attempt} in ${(r.delayMs / 1000).toFixed(1)} s (${r.reason})`),
    });
    if (meter) {
      await meter.start();
      this.meter = meter;
    }
    this.cleanups.push(() => client.close());
    return client;
  }

  /**
   * The key sent to the in-process mock: the mock knows only its fixture keys,
   * so a real key from the environment or a profile would only earn a 401.
   * Such a key is left out (with a note listing the mock's keys) for the default one.
   */
  private async mockKey(apiKey: string | undefined, say: boolean): Promise<string> {
    if (apiKey === undefined) return MOCK_DEFAULT_KEY;
    const { FIXTURE_ACCOUNTS } = await import('../../mock/accounts.js');
    const keys = FIXTURE_ACCOUNTS.map((a) => a.key);
    if (keys.includes(apiKey)) return apiKey;
    if (say) {
      this.report.notice(
        `--mock: the API key in use is not a mock key, so it is ignored and ${MOCK_DEFAULT_KEY} is used (mock keys: ${keys.join(', ')})`,
      );
    }
    return MOCK_DEFAULT_KEY;
  }

  /**
   * One request for a command that shows a single response: prints the request
   * under --dry-run, or the untouched body with `raw`, and returns null then;
   * otherwise returns the parsed response.
   */
  async send<T>(spec: RequestSpec, raw = false): Promise<ApiResponse<T> | null> {
    if (this.settings.dryRun) {
      await this.printDryRun(spec);
      return null;
    }
    if (raw) refuseWithRaw(this.settings, undefined);
    const client = await this.client();
    if (raw) {
      const response = await client.request<string>({ ...spec, raw: true, signal: this.signal });
      await this.write(response.body.endsWith('\n') ? response.body : `${response.body}\n`);
      return null;
    }
    return client.request<T>({ ...spec, signal: this.signal });
  }

  /** `--dry-run`: what would be sent, key redacted, and the equivalent curl command. */
  async printDryRun(spec: RequestSpec): Promise<void> {
    const baseUrl = this.settings.mock ? 'http://127.0.0.1:<mock-port>' : this.settings.baseUrl;
    const apiKey = this.settings.mock
      ? await this.mockKey(this.settings.apiKey, false)
      : this.settings.apiKey;
    const { NewsClient } = await import('../../api/index.js');
    const client = new NewsClient({
      version: VERSION,
      apiKey,
      auth: this.settings.auth,
      baseUrl,
      env: this.io.env,
    });
    const d = client.describeRequest(spec);
    const lines = [`${d.method} ${d.url}`];
    for (const [name, value] of Object.entries(d.headers)) lines.push(`${name}: ${value}`);
    if (d.body !== undefined) lines.push('', JSON.stringify(d.body, null, 2));
    lines.push('', d.curl, '');
    await this.write(lines.join('\n'));
    const output = this.settings.output;
    if (output !== undefined && output !== '-') {
      const { resolveDestination } = await import('../../output/destinations/registry.js');
      const destination = resolveDestination(output);
      // Where the rows would go, never the database's password.
      if (destination.kind === 'database') {
        const table = this.settings.table === undefined ? '' : `, table ${this.settings.table}`;
        const write = this.settings.write ?? 'merge';
        this.report.notice(`would write to ${destination.url.redacted}${table} (--write ${write})`);
      }
    }
    const source = this.settings.apiKeySource;
    if (!this.settings.mock && source !== undefined && source !== 'environment') {
      const from =
        source === 'flag'
          ? '--api-key'
          : `profile "${this.settings.profile}" of the config file (${this.settings.configPath})`;
      this.report.notice(
        `the curl line reads $NEWS_API_KEY, which is not where the key came from (${from}): set NEWS_API_KEY to that key for the line to work`,
      );
    }
  }

  /**
   * Writes to stdout, waiting for drain; a closed pipe ends output quietly,
   * any other failure to write (a closed stdout, a full disk) is an error.
   */
  write(text: string): Promise<void> {
    if (this.stdoutClosed) return Promise.resolve();
    const out = this.io.stdout;
    return new Promise((resolve, reject) => {
      const settle = (error: NodeJS.ErrnoException | null | undefined): void => {
        out.off('error', settle);
        if (error === null || error === undefined) resolve();
        else if (error.code === 'EPIPE') {
          this.stdoutClosed = true;
          resolve();
        } else reject(error);
      };
      out.once('error', settle);
      // The callback fires once the chunk is flushed: that is the backpressure.
      out.write(text, settle);
    });
  }

  async close(): Promise<void> {
    // Before the client closes: the summary may read the balance once more.
    const points = await this.meter?.summary().catch(() => undefined);
    if (points !== undefined) this.report.debug(points);
    for (const cleanup of this.cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch {
        // Cleanup failures must not hide the command's own result.
      }
    }
  }
}
