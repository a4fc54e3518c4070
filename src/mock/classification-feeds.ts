/**
 * The OpenAPI document's classification feeds, `/v1/news/topic/{topicId}`,
 * `/category/{taxonomy}/{categoryId}` and `/industry/{industryId}`: a search
 * with the path's id as the filter. The document answers 404 for an id it does
 * not know, so unlike the search body (where an invalid value is silently not
 * applied) a malformed or unknown id here is a 404 with the error envelope,
 * never "every article" or an empty 200.
 */
import { categoryNumber, normalizeCategoryId } from '../params/category-id.js';
import { searchParam } from '../params/registry.js';
import type { ParamDef } from '../params/types.js';
import { checkValue } from '../params/values.js';
import { MockHttpError } from './error-envelope.js';
import type { FixtureStore } from './store/fixture-store.js';

export type FeedKind = 'category' | 'topic' | 'industry';

/** The only taxonomy the service's articles carry (`categories[].taxonomy`). */
export const CATEGORY_TAXONOMY = 'iptc_mediatopics';

const LABEL: Readonly<Record<FeedKind, string>> = {
  category: 'Category',
  topic: 'Topic',
  industry: 'Industry',
};

function notFound(kind: FeedKind, id: string): never {
  throw new MockHttpError(404, undefined, `${LABEL[kind]} ${id} not found.`);
}

/**
 * The search filter value for a feed's path id (`category.id`, `topic.id`,
 * `industry.id`), or a 404 when the id is malformed or no category, topic or
 * industry of the fixtures (catalogue or indexed article) has it.
 */
export function feedFilter(
  store: FixtureStore,
  kind: FeedKind,
  id: string,
  taxonomy?: string,
): { name: string; value: string } {
  const name = `${kind}.id`;
  if (kind === 'category' && taxonomy !== CATEGORY_TAXONOMY) {
    throw new MockHttpError(
      404,
      undefined,
      `Taxonomy ${taxonomy ?? ''} not found; the only taxonomy is ${CATEGORY_TAXONOMY}.`,
    );
  }
  const def = searchParam(name) as ParamDef;
  // One id, not a list: a comma in a path segment is not a list separator here.
  const check = id.includes(',') ? undefined : checkValue(def, id);
  if (check === undefined || !check.ok) notFound(kind, id);
  const value = String(check.value);
  if (!known(store, kind, value)) notFound(kind, id);
  return { name, value };
}

/** In the catalogue, or carried by some article (the table's dictionaries hold every one seen). */
function known(store: FixtureStore, kind: FeedKind, value: string): boolean {
  const { dict } = store.table;
  switch (kind) {
    case 'category': {
      const n = categoryNumber(normalizeCategoryId(value));
      return (
        store.suggest.categories.some((c) => c.id === n) ||
        dict.categories.values.some((c) => c.id === n)
      );
    }
    case 'topic':
      return (
        store.suggest.topics.some((t) => t.id === value) ||
        dict.topics.values.some((t) => t.id === value)
      );
    case 'industry': {
      const n = Number(value);
      return (
        store.suggest.industries.some((i) => i.id === n) ||
        dict.industries.values.some((i) => i.id === n)
      );
    }
  }
}
