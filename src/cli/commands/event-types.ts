import type { CommandSpec } from '../command-spec.js';
import { exportList } from '../export/single-record.js';

interface EventTypes {
  categories?: string[];
  event_types?: { code: string; category: string }[];
}

export const eventTypes: CommandSpec = {
  name: 'event-types',
  group: 'directories',
  summary: 'valid event types and their categories (GET /v1/news/event-types)',
  raw: true,
  examples: ['news event-types', 'news event-types -f csv', 'news event-types --raw'],
  async run(input, runtime) {
    const spec = { method: 'GET', path: '/v1/news/event-types' } as const;
    const response = await runtime.send<EventTypes>(spec, input.options['raw'] === true);
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
