/**
 * One tool call runs the command's own handler, as `news …` would, in a
 * Runtime of its own: its records handed to the call (Runtime.recordsTo:
 * values, never text parsed back; a file for export_news), notes
 * kept for the result and sent as log messages, the call's abort signal,
 * and the session's client behind the budget guard. So a call validates,
 * builds its request, pages and exports exactly as the command line does.
 */
import { Readable, Writable } from 'node:stream';
import type { NewsClient } from '../../api/index.js';
import { redactText } from '../../api/redact.js';
import type { ApiRecord, FormatName } from '../../output/types.js';
import type { CliIO, Reporter } from '../runtime/io.js';
import { Runtime } from '../runtime/runtime.js';
import type { Settings } from '../settings/settings.js';

/** MCP's log levels that the server uses. */
export type LogLevel = 'debug' | 'info' | 'warning' | 'error';

/**
 * Nothing a call draws or prints goes anywhere: records travel through
 * recordsTo, notes through the reporter.
 */
class Discard extends Writable {
  readonly isTTY = false;
  override _write(_chunk: unknown, _encoding: string, done: () => void): void {
    done();
  }
}

class CallRuntime extends Runtime {
  constructor(
    io: CliIO,
    settings: Settings,
    report: Reporter,
    signal: AbortSignal,
    argv: readonly string[],
    private readonly guarded: () => Promise<NewsClient>,
  ) {
    super(io, settings, report, signal, argv);
  }

  override client(): Promise<NewsClient> {
    return this.guarded();
  }
}

export interface CallSetup {
  readonly parent: Runtime;
  readonly tool: string;
  readonly format: FormatName;
  readonly output: string | undefined;
  readonly fields: readonly string[] | undefined;
  readonly signal: AbortSignal;
  readonly client: () => Promise<NewsClient>;
  readonly log: (level: LogLevel, message: string) => void;
}

export interface CallRun {
  readonly runtime: Runtime;
  /** The records the command handed over, in order. */
  readonly records: readonly ApiRecord[];
  /** Notes and warnings, for the result. */
  readonly notes: string[];
}

export function callRuntime(setup: CallSetup): CallRun {
  const { parent } = setup;
  const secret = parent.settings.apiKey;
  const notes: string[] = [];
  const say = (level: LogLevel, message: string, keep: boolean) => {
    const text = redactText(message, secret);
    if (keep) notes.push(level === 'warning' ? `warning: ${text}` : text);
    setup.log(level, text);
  };
  const report: Reporter = {
    quiet: false,
    verbose: parent.settings.verbose,
    notice: (m) => say('info', m, true),
    warn: (m) => say('warning', m, true),
    debug: (m) => say('debug', m, false),
  };
  const io: CliIO = {
    stdout: new Discard(),
    stderr: new Discard(),
    stdin: Readable.from([]),
    // A server's calls are not the user's typing: no completion cache written.
    env: { ...parent.io.env, NEWS_NO_COMPLETION_CACHE: '1' },
    now: parent.io.now,
  };
  const settings: Settings = {
    ...parent.settings,
    format: setup.format,
    output: setup.output,
    fields: setup.fields,
    dryRun: false,
    quiet: false,
    sanitize: true,
  };
  const runtime = new CallRuntime(
    io,
    settings,
    report,
    setup.signal,
    ['mcp', setup.tool],
    setup.client,
  );
  const records: ApiRecord[] = [];
  runtime.recordsTo = (page) => {
    for (const record of page) records.push(record);
  };
  return { runtime, records, notes };
}
