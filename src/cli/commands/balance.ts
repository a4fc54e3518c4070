import { redactKey } from '../redact-key.js';
import type { CommandSpec } from '../command-spec.js';
import { RECORD_FORMATS } from '../settings/global-options.js';
import { writeSingle } from '../export/single-record.js';

export const balance: CommandSpec = {
  name: 'balance',
  group: 'account',
  summary: 'points and plan of the key (GET /v1/balance)',
  raw: true,
  formats: RECORD_FORMATS,
  examples: ['news balance', 'news balance -f json', 'news balance --profile work'],
  async run(input, runtime) {
    const spec = { method: 'GET', path: '/v1/balance' } as const;
    // Not runtime.send's raw path: even --raw must not print the key the server echoes.
    const response = await runtime.send<Record<string, unknown>>(spec);
    if (response === null) return;
    const body = { ...response.body };
    // The key never reaches output, even the one the server echoes back.
    if (typeof body['api_key'] === 'string') body['api_key'] = redactKey(body['api_key']);
    if (input.options['raw'] === true) return runtime.write(`${JSON.stringify(body)}\n`);
    await writeSingle(runtime, body, 'news balance', ['plan', 'points', 'api_key']);
  },
};
