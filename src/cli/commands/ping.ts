import { type ApiOperation, type CommandSpec, summaryOf } from '../command-spec.js';
import { OUTPUT, RECORD_FORMATS, REQUEST } from '../settings/global-options.js';
import { writeSingle } from '../export/single-record.js';

/** The operation this command is: help's summary and the MCP tool come from it. */
const API: ApiOperation = {
  method: 'GET',
  path: '/ping',
  note: '; needs no API key',
  returns: 'answer',
  tool: { name: 'ping' },
};

export const ping: CommandSpec = {
  name: 'ping',
  group: 'account',
  api: API,
  summary: summaryOf('check that the service answers', API),
  description:
    'Prints the answer (pong). With -f or -o, one record instead: the answer, when it came (as_of, ISO 8601 UTC) and how long it took (elapsed_ms).',
  globals: [...REQUEST, ...OUTPUT],
  formats: RECORD_FORMATS,
  valueUnlessAsked: true,
  examples: [
    'news ping --mock',
    'news ping --mock -f jsonl',
    'news ping --base-url http://127.0.0.1:4010 -v',
  ],
  async run(_input, runtime) {
    // /ping takes no key: a health check from cron must not need one.
    runtime.keyOptional = true;
    const spec = { method: API.method, path: API.path };
    const started = performance.now();
    const response = await runtime.send<unknown>(spec);
    if (response === null) return;
    const elapsed = Math.round(performance.now() - started);
    runtime.report.debug(`answered in ${elapsed} ms`);
    const { format, output } = runtime.settings;
    if (format === undefined && output === undefined)
      return runtime.write(
        `${typeof response.body === 'string' ? response.body : JSON.stringify(response.body)}\n`,
      );
    const record = {
      answer: response.body,
      as_of: runtime.io.now().toISOString(),
      elapsed_ms: elapsed,
    };
    await writeSingle(runtime, record, 'news ping', ['answer', 'as_of', 'elapsed_ms']);
  },
};
