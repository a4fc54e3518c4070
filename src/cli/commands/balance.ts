import { redactKey } from '../redact-key.js';
import { type ApiOperation, type CommandSpec, type RawOption, summaryOf } from '../command-spec.js';
import { RECORD_FORMATS } from '../settings/global-options.js';
import { writeSingle } from '../export/single-record.js';

/** The operation this command is: help's summary and the MCP tool come from it. */
const API: ApiOperation = {
  method: 'GET',
  path: '/v1/balance',
  returns: 'record',
  tool: { name: 'balance' },
};

export const balance: CommandSpec<RawOption> = {
  name: 'balance',
  group: 'account',
  api: API,
  summary: summaryOf('points and plan of the key', API),
  raw: true,
  formats: RECORD_FORMATS,
  examples: ['news balance', 'news balance -f json', 'news balance --profile work'],
  async run(input, runtime) {
    const spec = { method: API.method, path: API.path };
    // Not runtime.send's raw path: even --raw must not print the key the server echoes.
    const response = await runtime.send<Record<string, unknown>>(spec);
    if (response === null) return;
    const body = { ...response.body };
    // The key never reaches output, even the one the server echoes back.
    if (typeof body['api_key'] === 'string') body['api_key'] = redactKey(body['api_key']);
    if (input.options.raw === true) return runtime.write(`${JSON.stringify(body)}\n`);
    await writeSingle(runtime, body, 'news balance', ['plan', 'points', 'api_key']);
  },
};
