import { entityAliases } from './aliases.js';
import type { Article, FixtureStore } from '../fixtures/types.js';
import { type Columns, createColumns } from './columns.js';
import { categorySlug, toDoc } from './doc.js';
import type { FacetField, FacetLookup } from './facets.js';
import { type PromptVocabulary, promptVocabularyOf } from './prompt.js';
import type { Doc } from './types.js';

/**
 * The store's articles indexed for the engine, plus the lookups filters need.
 * Rebuilt when the store grows (POST /__mock/articles adds articles in place).
 */
export class ArticleIndex {
  docs: Doc[] = [];
  byId = new Map<number, Doc>();
  /** Typed-array copies of the fields, aligned with `docs`. */
  columns: Columns = createColumns([]);
  private indexed: { length: number; times: Float64Array | undefined } = {
    length: -1,
    times: undefined,
  };
  private authors = new Map<string, number>();
  /** Entity type → lower-case names of the known entities of that type. */
  private names = new Map<string, Set<string>>();
  private countryIds = new Map<string, number>();
  private languageIds = new Map<string, number>();

  constructor(readonly store: FixtureStore) {
    this.refresh();
  }

  /** Re-indexes when the store's article list changed since the last call. */
  refresh(): void {
    const { articles, publishedMs } = this.store;
    if (this.indexed.length === articles.length && this.indexed.times === publishedMs) return;
    const aligned = publishedMs.length === articles.length;
    // Articles already indexed keep their doc (only the position moves): a
    // published article costs one toDoc, not one per article of the store,
    // which kept the stream's index-to-client latency at tens of milliseconds.
    const previous = this.byId;
    this.docs = articles.map((a, i) => {
      const publishedAt = aligned ? (publishedMs[i] as number) : Date.parse(a.published_at);
      const known = previous.get(a.id);
      if (known === undefined || known.source !== a || known.publishedAt !== publishedAt) {
        return toDoc(a, publishedAt, i);
      }
      if (known.ix !== i) (known as { ix: number }).ix = i;
      return known;
    });
    this.byId = new Map(this.docs.map((d) => [d.id, d]));
    this.columns = createColumns(this.docs);
    this.indexed = { length: articles.length, times: publishedMs };
    this.buildLookups();
  }

  private buildLookups(): void {
    const { store } = this;
    this.authors = new Map();
    // A journalist's id is the first author record merged under the name.
    for (const j of store.journalists) this.authors.set(j.name.toLowerCase(), j.id);
    for (const d of this.docs) {
      if (d.authorId === null) continue;
      const key = d.authorName.toLowerCase();
      const known = this.authors.get(key);
      if (known === undefined) this.authors.set(key, d.authorId);
    }
    this.names = new Map();
    for (const e of store.suggest.entities) {
      let set = this.names.get(e.type);
      if (set === undefined) {
        set = new Set();
        this.names.set(e.type, set);
      }
      set.add(e.name.toLowerCase());
      for (const alias of entityAliases(e.metadata)) set.add(alias.toLowerCase());
    }
    this.countryIds = new Map(store.countries.map((c) => [c.code.toLowerCase(), c.id]));
    this.languageIds = new Map(store.languages.map((l) => [l.code.toLowerCase(), l.id]));
  }

  firstAuthorId = (nameLower: string): number | undefined => this.authors.get(nameLower);

  /** Whether an entity of this schema type has exactly this name or alias (case-insensitive). */
  knowsEntity(type: string, name: string): boolean {
    return this.names.get(type)?.has(name.trim().toLowerCase()) ?? false;
  }

  toDoc(article: Article): Doc {
    return this.byId.get(article.id)?.source === article
      ? (this.byId.get(article.id) as Doc)
      : toDoc(article, Date.parse(article.published_at));
  }

  get facetLookup(): FacetLookup {
    const { store } = this;
    return {
      countryId: (code) => this.countryIds.get(code),
      languageId: (code) => this.languageIds.get(code),
      name: (field: FacetField, value: string) => {
        switch (field) {
          case 'source.id':
            return store.sourceById.get(Number(value))?.domain;
          case 'source.country.id':
            return store.countries.find((c) => String(c.id) === value)?.name;
          case 'language.id':
            return store.languages.find((l) => String(l.id) === value)?.name;
          case 'category.id':
            return store.suggest.categories.find((c) => categorySlug(c.id) === value)?.name;
          case 'topic.id':
            return store.suggest.topics.find((t) => t.id.toLowerCase() === value)?.name;
          case 'industry.id':
            return store.suggest.industries.find((i) => String(i.id) === value)?.name;
          case 'entity.id':
            return store.entityById.get(Number(value))?.name;
          case 'author.id':
            return this.byIdAuthorName(Number(value));
          default:
            return undefined;
        }
      },
    };
  }

  private byIdAuthorName(id: number): string | undefined {
    const list = this.store.articlesByAuthorId.get(id);
    return list?.[0]?.author.name;
  }

  get promptVocabulary(): PromptVocabulary {
    return promptVocabularyOf(this.store);
  }
}
