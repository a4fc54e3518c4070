/**
 * `news mcp`'s handler: its options checked, the session every call shares
 * (the tools from the registry, the points budget, the export folder, the
 * client), then stdio until stdin ends or HTTP until Ctrl-C / SIGTERM.
 */
import { checkExposure } from './exposure.js';
import { UsageError } from '../../api/errors.js';
import type { CommandInput, CommandSpec } from '../command-spec.js';
import { Runtime } from '../runtime/runtime.js';
import type { Session } from './call.js';
import type { LogLevel } from './call-runtime.js';
import { openExportFolder } from './export-folder.js';
import { PointsBudget } from './points.js';
import { DEFAULT_MAX_RESULT_CHARS, MIN_RESULT_CHARS } from './schema.js';
import type { Mirror } from './server.js';
import { type ToolBinding, buildTools } from './tools.js';

const DEFAULT_PORT = 4011;

function text(options: CommandInput['options'], name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' ? value : undefined;
}

function wholeNumber(flag: string, value: string | undefined, max?: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 0 || (max !== undefined && n > max)) {
    throw new UsageError(
      `${flag} must be a whole number ${max === undefined ? 'of at least 0' : `from 0 to ${max}`} (got "${value}")`,
    );
  }
  return n;
}

/** `--max-result-chars`: a whole number, large enough for a result's counts and one shortened record. */
function resultChars(value: string | undefined): number {
  if (value === undefined) return DEFAULT_MAX_RESULT_CHARS;
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < MIN_RESULT_CHARS) {
    throw new UsageError(
      `--max-result-chars must be a whole number of at least ${MIN_RESULT_CHARS} (got "${value}")`,
      {
        hint: `the default is ${DEFAULT_MAX_RESULT_CHARS}; a host with a larger context takes more`,
      },
    );
  }
  return n;
}

export async function serveMcp(
  registry: readonly CommandSpec[],
  input: CommandInput,
  runtime: Runtime,
): Promise<void> {
  const o = input.options;
  const http = o['http'] === true;
  if (!http) {
    for (const flag of ['host', 'port', 'token']) {
      if (o[flag] !== undefined) {
        throw new UsageError(`--${flag} needs --http`, {
          hint: 'without --http the server speaks over stdin and stdout',
        });
      }
    }
  }
  const maxPoints = wholeNumber('--max-points', text(o, 'maxPoints'));
  const maxResultChars = resultChars(text(o, 'maxResultChars'));
  const port = wholeNumber('--port', text(o, 'port'), 65535) ?? DEFAULT_PORT;
  const token = text(o, 'token') ?? (runtime.io.env['NEWS_MCP_TOKEN'] || undefined);
  const host = text(o, 'host') ?? '127.0.0.1';
  if (http) checkExposure(host, token);
  const exportDir = await openExportFolder(text(o, 'exportDir') ?? process.cwd());
  const { settings, report } = runtime;
  if (settings.apiKey === undefined && !settings.mock) {
    report.warn('no API key: every tool but ping will refuse; set NEWS_API_KEY, or try --mock');
  }
  // The calls' client, in a runtime of its own: without -v's points meter, whose
  // balance reads would be requests no call made (the budget counts points here).
  const clients = new Runtime(
    runtime.io,
    { ...settings, verbose: false },
    report,
    runtime.signal,
    runtime.argv,
  );
  // ping takes no key; the other tools say "no API key" before sending.
  clients.keyOptional = true;
  // A profile that does not exist is a mistake in the client's configuration: said now (exit 2).
  if (settings.profileMissing) await clients.client();
  const budget = new PointsBudget(maxPoints);
  let tools: readonly ToolBinding[] | undefined;
  const session: Session = {
    // Made when first listed or called: the first answer (initialize,
    // server/discover) needs none of them (bench/mcp-startup.mjs).
    get tools() {
      tools ??= buildTools(registry);
      return tools;
    },
    budget,
    exportDir,
    parent: runtime,
    client: () => clients.client(),
    maxResultChars,
  };
  // stderr, as the command line writes it: warnings always, the rest with -v.
  const mirror: Mirror = (level: LogLevel, message: string) => {
    if (level === 'warning' || level === 'error') report.warn(message);
    else report.debug(message);
  };
  try {
    if (http) {
      const { serveHttp } = await import('./http.js');
      await serveHttp(session, runtime, { host, port, token }, mirror);
    } else {
      const { serveStdio } = await import('./stdio.js');
      await serveStdio(session, runtime, mirror);
    }
  } finally {
    await clients.close();
    report.debug(`points: ${budget.spent} spent by the calls of this server`);
  }
}
