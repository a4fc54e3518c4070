import type { EngineCore } from '../search/core.js';
import type { EngineResult } from '../search/types.js';

/** /v1/news/event-types: the static list of the store; free. */
export function eventTypes(core: EngineCore): EngineResult {
  const { store } = core.index;
  return {
    body: {
      status: 'ok',
      categories: [...store.eventCategories],
      event_types: store.eventTypes.map((e) => ({ code: e.code, category: e.category })),
    },
    points: 0,
  };
}
