import { type ApiOperation, type CommandSpec, type RawOption, summaryOf } from '../command-spec.js';
import { exportList } from '../export/single-record.js';

interface EventTypes {
  categories?: string[];
  event_types?: { code: string; category: string }[];
}

/** The operation this command is: help's summary and the MCP tool come from it. */
const API: ApiOperation = {
  method: 'GET',
  path: '/v1/news/event-types',
  returns: 'records',
  tool: { name: 'list_event_types' },
};

export const eventTypes: CommandSpec<RawOption> = {
  name: 'event-types',
  group: 'directories',
  api: API,
  summary: summaryOf('valid event types and their categories', API),
  raw: true,
  examples: ['news event-types', 'news event-types -f csv', 'news event-types --raw'],
  async run(input, runtime) {
    const spec = { method: API.method, path: API.path };
    const response = await runtime.send<EventTypes>(spec, input.options.raw === true);
    if (response === null) return;
    // Grouped by category, then by code, so the table reads as a list per category.
    const types = [...(response.body.event_types ?? [])].sort(
      (a, b) => a.category.localeCompare(b.category) || a.code.localeCompare(b.code),
    );
    await exportList(
      runtime,
      types.map((t) => ({ category: t.category, code: t.code })),
      'generic',
      'news event-types',
    );
  },
};
