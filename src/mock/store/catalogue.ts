/**
 * The catalogue beside the articles, derived from them once: journalists
 * (author records merged by exact name, with their outlets), and the people,
 * companies and suggest entities that some article mentions. Computed at
 * build time for the committed set (stored in the store file) and again
 * when `--articles` grows a set.
 */
import type { Journalist, SuggestEntity } from '../fixtures/article-types.js';
import type { WorldLists } from '../fixtures/data-files.js';
import {
  CATEGORIES,
  CATEGORY_TAXONOMY,
  COUNTRIES,
  EVENT_CATEGORIES,
  EVENT_TYPES,
  INDUSTRIES,
  LANGUAGES,
  TOPICS,
} from '../fixtures/vocab.js';
import type { Catalogue } from './fixture-store.js';
import type { ArticleTable } from './table.js';

/** Whatever a table's rows say about authors and entities, in one pass. */
function usage(table: ArticleTable): {
  entities: Set<number>;
  outletsByAuthor: Map<number, Set<number>>;
} {
  const entities = new Set<number>();
  const outletsByAuthor = new Map<number, Set<number>>();
  for (let row = 0; row < table.rows; row++) {
    for (let i = table.entities.from(row); i < table.entities.to(row); i++) {
      entities.add(table.dict.entities.values[table.entityCode.data[i] as number]!.id);
    }
    const author = table.dict.authors.values[table.author.data[row] as number];
    if (author === undefined || author.id === null) continue;
    let outlets = outletsByAuthor.get(author.id);
    if (outlets === undefined) {
      outlets = new Set();
      outletsByAuthor.set(author.id, outlets);
    }
    outlets.add(table.dict.sources.values[table.source.data[row] as number]!.id);
  }
  return { entities, outletsByAuthor };
}

export function buildCatalogue(table: ArticleTable, lists: WorldLists): Catalogue {
  const { entities: mentioned, outletsByAuthor } = usage(table);
  const sourceById = new Map(lists.sources.map((s) => [s.id, s]));
  // Journalists: author records merged by exact name; the lowest record id names the record.
  const byName = new Map<string, number[]>();
  for (const author of [...lists.authors].sort((x, y) => x.id - y.id)) {
    if (!outletsByAuthor.has(author.id)) continue;
    const ids = byName.get(author.name);
    if (ids === undefined) byName.set(author.name, [author.id]);
    else ids.push(author.id);
  }
  const journalists: Journalist[] = [];
  const journalistAuthorIds = new Map<number, number[]>();
  for (const [name, ids] of byName) {
    const id = ids[0]!;
    const outletIds = new Set<number>();
    for (const authorId of ids)
      for (const s of outletsByAuthor.get(authorId) ?? []) outletIds.add(s);
    const outlets = [...outletIds]
      .sort((x, y) => x - y)
      .slice(0, 500)
      .map((sid) => {
        const s = sourceById.get(sid)!;
        return { id: s.id, name: s.name, domain: s.domain };
      });
    journalists.push({
      id,
      name,
      outlets,
      outlet_count: outletIds.size,
      links: { self: `/v1/journalists/${id}`, articles: `/v1/news/everything?author.id=${id}` },
    });
    journalistAuthorIds.set(id, ids);
  }
  journalists.sort((x, y) => x.id - y.id);
  const entities: SuggestEntity[] = lists.entities.filter((e) => mentioned.has(e.id));
  return {
    sources: lists.sources,
    people: lists.people.filter((p) => mentioned.has(p.id)),
    companies: lists.companies.filter((c) => mentioned.has(c.id)),
    journalists,
    suggest: {
      entities,
      categories: CATEGORIES.map((c) => ({
        id: c.id,
        name: c.name,
        taxonomy: CATEGORY_TAXONOMY,
        links: { self: `/v1/news/category/${CATEGORY_TAXONOMY}/${c.id}` },
      })),
      topics: TOPICS.map((t) => ({
        id: t.id,
        name: t.name,
        links: { self: `/v1/news/topic/${t.id}` },
      })),
      industries: INDUSTRIES.map((i) => ({
        id: i.id,
        name: i.name,
        links: { self: `/v1/news/industry/${i.id}` },
      })),
    },
    eventTypes: EVENT_TYPES.map((e) => ({ ...e })),
    eventCategories: [...EVENT_CATEGORIES],
    languages: LANGUAGES.map((l) => ({ ...l })),
    countries: COUNTRIES.map((c) => ({ id: c.id, code: c.code, name: c.name })),
    journalistAuthorIds,
    duplicateOf: new Map(lists.duplicates),
  };
}
