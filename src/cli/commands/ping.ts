import type { CommandSpec } from '../command-spec.js';
import { REQUEST } from '../global-options.js';

export const ping: CommandSpec = {
  name: 'ping',
  group: 'account',
  summary: 'check that the service answers (GET /ping; needs no API key)',
  globals: REQUEST,
  examples: ['news ping --mock', 'news ping --base-url http://127.0.0.1:4010 -v'],
  async run(_input, runtime) {
    // /ping takes no key: a health check from cron must not need one.
    runtime.keyOptional = true;
    const spec = { method: 'GET', path: '/ping' } as const;
    const started = performance.now();
    const response = await runtime.send<unknown>(spec);
    if (response === null) return;
    runtime.report.debug(`answered in ${Math.round(performance.now() - started)} ms`);
    await runtime.write(
      `${typeof response.body === 'string' ? response.body : JSON.stringify(response.body)}\n`,
    );
  },
};
